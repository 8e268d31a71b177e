import {
  ProvisionerNames,
  type DriverConfig,
  type ExporterSet,
  type JsonObject,
  type VirtualTargetClass,
} from '../api';
import type { QemuArch } from '../provisioners/qemu/parameters';
import { compact } from './compact';
import { buildExporterSet, type ExporterSetOptions, type ExporterTemplateInput } from './exporter-set';
import { buildVirtualTargetClass, type VirtualTargetClassOptions } from './virtual-target-class';

/** The QEMU driver every QEMU pool needs unless the caller lists its own drivers. */
export const DEFAULT_QEMU_DRIVERS: readonly DriverConfig[] = [
  { name: 'qemu', type: 'jumpstarter_driver_qemu.driver.Qemu' },
];

/**
 * A QEMU pool's settings besides its metadata, documented once: the cdk8s props and the Pulumi args
 * are these fields (sizes as cdk8s `Size`s and the cooldown as a `Duration` in cdk8s; `pulumi.Input`s
 * in Pulumi). The pool sizes, selector and instance labels are the set's; binding, reclaim,
 * scheduling and images the class's.
 */
export interface QemuPoolOptions
  extends
    Pick<
      ExporterSetOptions,
      | 'minReplicas'
      | 'maxReplicas'
      | 'minAvailableReplicas'
      | 'scaleDownCooldown'
      | 'recycleStrategy'
      | 'paused'
      | 'scaleInStrategy'
      | 'updateStrategy'
      | 'recycleRequestedAt'
      | 'revisionHistoryLimit'
      | 'pinnedRevision'
      | 'forecast'
      | 'selector'
    >,
    Pick<ExporterTemplateInput, 'labels' | 'annotations'>,
    Pick<VirtualTargetClassOptions, 'bindingMode' | 'reclaimPolicy' | 'scheduling' | 'images'> {
  /** Name of the class. @default the set's name */
  readonly className?: string;
  /** Guest architecture. @default the runtime's default (x86_64) */
  readonly arch?: QemuArch;
  /** QEMU machine type, e.g. `virt` or `q35`. @default the runtime's default */
  readonly machineType?: string;
  /** Virtual CPUs, in whole cores. @default the runtime's default */
  readonly cpu?: number;
  /** Guest memory, a Kubernetes quantity such as `8Gi`; a cdk8s `Size` in the cdk8s props. @default the runtime's default */
  readonly memory?: string;
  /**
   * Guest disk, a Kubernetes quantity such as `16Gi` (a cdk8s `Size` in the cdk8s props); also sizes
   * the Pod's shared volume so an image can be flashed. @default the runtime's default
   */
  readonly storage?: string;
  /** Firmware to boot: its image and digest. @default none */
  readonly firmware?: { readonly url?: string; readonly digest?: string };
  /** Use KVM acceleration. @default the runtime's default */
  readonly kvm?: boolean;
  /** More QEMU parameters; the typed fields above win over the same keys here. @default none */
  readonly extraParameters?: JsonObject;
  /**
   * The drivers of every instance, in the order they appear in the exporter config;
   * a missing `name` is derived from the driver package. @default one QEMU driver named `qemu`
   */
  readonly drivers?: readonly DriverConfig[];
}

/** Framework-neutral description of a QEMU pool: one class and one set for the common case. */
export interface QemuPoolInput extends QemuPoolOptions {
  /** Name of the set; the class takes it too unless `className` is given. */
  readonly name: string;
  /** @default none: the objects take the namespace they are applied in */
  readonly namespace?: string;
}

/** The class parameters a pool's typed QEMU props stand for. */
export function qemuPoolParameters(input: QemuPoolOptions): JsonObject {
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

/** A pool's class and set, as the settings of each: what a front end gives its two children. */
export interface QemuPoolParts {
  readonly classOptions: VirtualTargetClassOptions;
  /** No schedules: a pool that needs them is an ExporterSet with its own class. */
  readonly setOptions: Omit<ExporterSetOptions, 'schedules'>;
}

/** Splits a pool's settings between its class (QEMU provisioner, typed parameters) and its set. */
export function qemuPoolParts(input: QemuPoolOptions): QemuPoolParts {
  return {
    classOptions: {
      provisioner: ProvisionerNames.qemu,
      parameters: qemuPoolParameters(input),
      bindingMode: input.bindingMode,
      reclaimPolicy: input.reclaimPolicy,
      scheduling: input.scheduling,
      images: input.images,
    },
    setOptions: {
      minReplicas: input.minReplicas,
      maxReplicas: input.maxReplicas,
      minAvailableReplicas: input.minAvailableReplicas,
      scaleDownCooldown: input.scaleDownCooldown,
      recycleStrategy: input.recycleStrategy,
      paused: input.paused,
      scaleInStrategy: input.scaleInStrategy,
      updateStrategy: input.updateStrategy,
      recycleRequestedAt: input.recycleRequestedAt,
      revisionHistoryLimit: input.revisionHistoryLimit,
      pinnedRevision: input.pinnedRevision,
      forecast: input.forecast,
      selector: input.selector,
      template: {
        labels: input.labels,
        annotations: input.annotations,
        drivers: input.drivers ?? DEFAULT_QEMU_DRIVERS,
      },
    },
  };
}

export function buildQemuPool(input: QemuPoolInput): {
  virtualTargetClass: VirtualTargetClass;
  exporterSet: ExporterSet;
} {
  const className = input.className ?? input.name;
  const { classOptions, setOptions } = qemuPoolParts(input);
  return {
    virtualTargetClass: buildVirtualTargetClass({
      name: className,
      namespace: input.namespace,
      ...classOptions,
    }),
    exporterSet: buildExporterSet({
      name: input.name,
      namespace: input.namespace,
      virtualTargetClassName: className,
      ...setOptions,
    }),
  };
}
