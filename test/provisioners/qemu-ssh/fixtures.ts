import type { JsonObject, VirtualTargetClass } from '../../../lib/api';
import type { InstanceInput } from '../../../lib/provisioners';
import { exporter, qemuClass, qemuSet } from '../fixtures';

/** Two hosts with two slots each, KVM and one extra device. */
export const sshParameters: JsonObject = {
  ssh: { user: 'jumpstarter', port: 2022 },
  hosts: [
    { name: 'bench-01.example.com', arch: 'aarch64', slots: 2 },
    { name: 'bench-02.example.com', slots: 2, user: 'root', port: 22 },
  ],
  runtime: { kvm: true, devices: ['/dev/vhost-net'], binary: '/usr/bin/qemu-system-aarch64' },
  arch: 'aarch64',
  resources: { cpu: 4, memory: '4Gi' },
  storage: { size: '16Gi' },
};

export function sshClass(parameters: JsonObject = sshParameters): VirtualTargetClass {
  return qemuClass({
    provisioner: 'qemu-ssh.jumpstarter.dev',
    credentialsSecretRef: { name: 'lab-ssh' },
    parameters,
  });
}

export function sshInstance(overrides: Partial<InstanceInput> = {}): InstanceInput {
  const virtualTargetClass = overrides.virtualTargetClass ?? sshClass();
  return {
    virtualTargetClass,
    exporterSet: qemuSet(),
    parameters: (virtualTargetClass.spec.parameters ?? {}) as JsonObject,
    exporter: exporter(),
    token: 'jwt-token',
    ...overrides,
  };
}
