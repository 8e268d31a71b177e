/**
 * The QEMU provisioner renders `kvm` (SPEC §2) as the KVM device of the runtime sidecar, where QEMU
 * runs: `true` requests one (`devices.kubevirt.io/kvm`), `false` requests none even when the class
 * grants one (TCG, any node), absent leaves the class's resources as written. Only the runtime
 * container ever gets the device; nothing privileged or host-mounted is rendered for it.
 */
import { describe, expect, it } from '@jest/globals';
import type { JsonObject, VirtualTargetClassSpec } from '../../lib/api';
import { mergeParameters } from '../../lib/core';
import {
  KVM_DEVICE_RESOURCE,
  qemuProvisioner,
  type RenderedContainer,
  type RenderedPod,
} from '../../lib/provisioners';
import { instance, qemuClass, qemuSet } from './fixtures';

const CLASS_PARAMETERS = { machineType: 'virt', resources: { cpu: 4, memory: '4Gi', storage: '16Gi' } };

/** The Pod the provisioner renders for class and set parameters (merged as the controller does). */
function renderPod(
  classParameters: JsonObject,
  setParameters: JsonObject | undefined,
  resources?: VirtualTargetClassSpec['scheduling'],
): RenderedPod {
  const virtualTargetClass = qemuClass({
    parameters: classParameters,
    ...(resources ? { scheduling: resources } : {}),
  });
  const exporterSet = qemuSet(setParameters ? { parameters: setParameters } : {});
  const parameters = mergeParameters(classParameters, setParameters);
  const { objects } = qemuProvisioner.render(
    instance({ virtualTargetClass, exporterSet, parameters: parameters as never }),
  );
  return objects.find((o) => o.kind === 'Pod') as unknown as RenderedPod;
}

const containers = (p: RenderedPod): RenderedContainer[] => [...p.spec.initContainers, ...p.spec.containers];
const runtime = (p: RenderedPod) => containers(p).find((c) => c.name === 'target-runtime')!;
const others = (p: RenderedPod) => containers(p).filter((c) => c.name !== 'target-runtime');

const classResources = {
  resources: { limits: { [KVM_DEVICE_RESOURCE]: '1', memory: '5Gi' }, requests: { cpu: '4' } },
};

describe('QEMU provisioner › kvm', () => {
  it('requests one KVM device for the runtime when kvm is true', () => {
    const p = renderPod({ ...CLASS_PARAMETERS, kvm: true }, undefined);
    expect(runtime(p).resources).toEqual({ limits: { [KVM_DEVICE_RESOURCE]: '1' } });
    for (const c of others(p)) expect(c.resources).toBeUndefined();
  });

  it("adds the device to the class's resources, and keeps the class's own device limit", () => {
    const p = renderPod(
      CLASS_PARAMETERS,
      { kvm: true },
      {
        resources: { limits: { memory: '5Gi' }, requests: { cpu: '4' } },
      },
    );
    expect(runtime(p).resources).toEqual({
      limits: { memory: '5Gi', [KVM_DEVICE_RESOURCE]: '1' },
      requests: { cpu: '4' },
    });
    const own = renderPod(
      CLASS_PARAMETERS,
      { kvm: true },
      {
        resources: { limits: { [KVM_DEVICE_RESOURCE]: 2 } },
      },
    );
    expect(runtime(own).resources).toEqual({ limits: { [KVM_DEVICE_RESOURCE]: 2 } });
  });

  it('takes the device away when a set asks for kvm false over a KVM class (TCG)', () => {
    const p = renderPod({ ...CLASS_PARAMETERS, kvm: true }, { kvm: false }, classResources);
    expect(runtime(p).resources).toEqual({ limits: { memory: '5Gi' }, requests: { cpu: '4' } });
    const onlyDevice = renderPod(
      CLASS_PARAMETERS,
      { kvm: false },
      {
        resources: { limits: { [KVM_DEVICE_RESOURCE]: '1' }, requests: { [KVM_DEVICE_RESOURCE]: '1' } },
      },
    );
    expect(runtime(onlyDevice).resources).toBeUndefined();
  });

  it("leaves the class's resources as written when kvm is absent or null", () => {
    expect(runtime(renderPod(CLASS_PARAMETERS, undefined, classResources)).resources).toEqual(
      classResources.resources,
    );
    expect(
      runtime(renderPod({ ...CLASS_PARAMETERS, kvm: true }, { kvm: null }, classResources)).resources,
    ).toEqual(classResources.resources);
    expect(runtime(renderPod(CLASS_PARAMETERS, undefined)).resources).toBeUndefined();
  });

  it('renders nothing privileged for KVM: no host path, no privileged container, no added capability', () => {
    const p = renderPod({ ...CLASS_PARAMETERS, kvm: true }, undefined);
    expect(JSON.stringify(p)).not.toMatch(/privileged|hostPath|"add"|hostPID|hostIPC|hostNetwork/);
  });

  it('never changes the class it was given', () => {
    const virtualTargetClass = qemuClass({ scheduling: structuredClone(classResources) });
    const before = structuredClone(virtualTargetClass);
    qemuProvisioner.render(
      instance({ virtualTargetClass, parameters: { ...CLASS_PARAMETERS, kvm: false } as never }),
    );
    qemuProvisioner.render(
      instance({ virtualTargetClass, parameters: { ...CLASS_PARAMETERS, kvm: true } as never }),
    );
    expect(virtualTargetClass).toEqual(before);
  });
});
