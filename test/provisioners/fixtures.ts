import type {
  DriverConfig,
  Exporter,
  ExporterSet,
  ExporterSetSpec,
  JsonObject,
  VirtualTargetClass,
  VirtualTargetClassSpec,
} from '../../lib/api';
import type { InstanceInput } from '../../lib/provisioners';

/** The JEP's rpi4 class: KVM scheduling, 4 cores, 4Gi memory, 16Gi storage. */
export function qemuClass(spec: Partial<VirtualTargetClassSpec> = {}): VirtualTargetClass {
  return {
    apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
    kind: 'VirtualTargetClass',
    metadata: { name: 'qemu-rpi4', namespace: 'lab' },
    spec: {
      provisioner: 'qemu.jumpstarter.dev',
      parameters: { machineType: 'virt', resources: { cpu: 4, memory: '4Gi', storage: '16Gi' } },
      ...spec,
    },
  };
}

export const qemuDriver: DriverConfig = { name: 'qemu', type: 'jumpstarter_driver_qemu.driver.Qemu' };

export function qemuSet(
  spec: Partial<ExporterSetSpec> = {},
  drivers: DriverConfig[] = [qemuDriver],
): ExporterSet {
  return {
    apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
    kind: 'ExporterSet',
    metadata: { name: 'rpi4-virtual', namespace: 'lab', uid: 'set-uid' },
    spec: {
      virtualTargetClassName: 'qemu-rpi4',
      selector: { matchLabels: { board: 'rpi4' } },
      template: {
        metadata: { labels: { board: 'rpi4', virtual: 'true' }, annotations: { team: 'kernel' } },
        spec: { drivers },
      },
      ...spec,
    },
  };
}

export function exporter(labels: Record<string, string> = {}): Exporter {
  return {
    apiVersion: 'jumpstarter.dev/v1alpha1',
    kind: 'Exporter',
    metadata: { name: 'rpi4-virtual-7', namespace: 'lab', uid: 'exp-uid-7', labels },
    status: { endpoint: 'grpc.jumpstarter.example:443', credential: { name: 'rpi4-virtual-7-exporter' } },
  };
}

export function instance(overrides: Partial<InstanceInput> = {}): InstanceInput {
  const virtualTargetClass = overrides.virtualTargetClass ?? qemuClass();
  const exporterSet = overrides.exporterSet ?? qemuSet();
  return {
    virtualTargetClass,
    exporterSet,
    parameters: (virtualTargetClass.spec.parameters ?? {}) as JsonObject,
    exporter: exporter(),
    token: 'jwt-token',
    ...overrides,
  };
}
