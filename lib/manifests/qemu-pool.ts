import {
  ProvisionerNames,
  type BindingMode,
  type DriverConfig,
  type ExporterSet,
  type Images,
  type JsonObject,
  type LabelSelector,
  type ReclaimPolicy,
  type RecycleStrategy,
  type Scheduling,
  type VirtualTargetClass,
} from '../api';
import { compact } from './compact';
import { buildExporterSet } from './exporter-set';
import { buildVirtualTargetClass } from './virtual-target-class';

/** The QEMU driver every QEMU pool needs unless the caller lists its own drivers. */
export const DEFAULT_QEMU_DRIVERS: readonly DriverConfig[] = [
  { name: 'qemu', type: 'jumpstarter_driver_qemu.driver.Qemu' },
];

/** Framework-neutral description of a QEMU pool: one class and one set for the common case. */
export interface QemuPoolInput {
  /** Name of the set; the class takes it too unless `className` is given. */
  readonly name: string;
  readonly namespace?: string;
  readonly className?: string;
  readonly arch?: 'x86_64' | 'aarch64';
  readonly machineType?: string;
  /** Whole cores. */
  readonly cpu?: number;
  /** Kubernetes quantity text, e.g. `4Gi`. */
  readonly memory?: string;
  readonly storage?: string;
  readonly firmware?: { readonly url?: string; readonly digest?: string };
  readonly kvm?: boolean;
  /** More QEMU parameters, merged under the typed ones (the typed ones win). */
  readonly extraParameters?: JsonObject;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly drivers?: readonly DriverConfig[];
  readonly selector?: LabelSelector;
  readonly minReplicas?: number;
  readonly maxReplicas?: number;
  readonly minAvailableReplicas?: number;
  readonly scaleDownCooldown?: string;
  readonly recycleStrategy?: RecycleStrategy;
  readonly bindingMode?: BindingMode;
  readonly reclaimPolicy?: ReclaimPolicy;
  readonly scheduling?: Scheduling;
  readonly images?: Images;
  readonly credentialsSecretName?: string;
}

/** The class parameters a pool's typed QEMU props stand for. */
export function qemuPoolParameters(input: QemuPoolInput): JsonObject {
  const resources = compact({ cpu: input.cpu, memory: input.memory, storage: input.storage });
  const typed = compact({
    arch: input.arch,
    machineType: input.machineType,
    resources: Object.keys(resources).length > 0 ? resources : undefined,
    firmware: input.firmware
      ? compact({ url: input.firmware.url, digest: input.firmware.digest })
      : undefined,
    kvm: input.kvm,
  }) as JsonObject;
  return { ...(input.extraParameters ?? {}), ...typed };
}

export function buildQemuPool(input: QemuPoolInput): {
  virtualTargetClass: VirtualTargetClass;
  exporterSet: ExporterSet;
} {
  const className = input.className ?? input.name;
  const virtualTargetClass = buildVirtualTargetClass({
    name: className,
    namespace: input.namespace,
    provisioner: ProvisionerNames.qemu,
    parameters: qemuPoolParameters(input),
    bindingMode: input.bindingMode,
    reclaimPolicy: input.reclaimPolicy,
    scheduling: input.scheduling,
    images: input.images,
    credentialsSecretName: input.credentialsSecretName,
  });
  const exporterSet = buildExporterSet({
    name: input.name,
    namespace: input.namespace,
    virtualTargetClassName: className,
    minReplicas: input.minReplicas,
    maxReplicas: input.maxReplicas,
    minAvailableReplicas: input.minAvailableReplicas,
    scaleDownCooldown: input.scaleDownCooldown,
    recycleStrategy: input.recycleStrategy,
    selector: input.selector,
    template: {
      labels: input.labels,
      annotations: input.annotations,
      drivers: input.drivers ?? DEFAULT_QEMU_DRIVERS,
    },
  });
  return { virtualTargetClass, exporterSet };
}
