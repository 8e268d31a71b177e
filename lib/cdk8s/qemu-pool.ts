import { Chart, type ApiObjectMetadata, type Duration, type Size } from 'cdk8s';
import { Construct } from 'constructs';
import {
  ProvisionerNames,
  type BindingMode,
  type DriverConfig,
  type Images,
  type JsonObject,
  type LabelSelector,
  type ReclaimPolicy,
  type RecycleStrategy,
  type Scheduling,
} from '../api';
import { qemuPoolIssues } from '../manifests/checks';
import { qemuPoolProp } from '../manifests/prop-paths';
import { DEFAULT_QEMU_DRIVERS, qemuPoolParameters, type QemuPoolInput } from '../manifests/qemu-pool';
import { constructError } from './errors';
import { ExporterSet } from './exporter-set';
import { toGoDuration, toQuantity } from './units';
import { VirtualTargetClass } from './virtual-target-class';

export type QemuArch = 'x86_64' | 'aarch64';

export interface QemuPoolProps {
  /** Name and namespace of the set (the class takes the same name unless `className` is given). @default generated */
  readonly metadata?: ApiObjectMetadata;
  /** @default the set's name */
  readonly className?: string;
  /** Guest architecture. @default the runtime's default (x86_64) */
  readonly arch?: QemuArch;
  /** QEMU machine type, e.g. `virt` or `q35`. @default the runtime's default */
  readonly machineType?: string;
  /** Virtual CPUs (whole cores). @default the runtime's default */
  readonly cpu?: number;
  /** Guest memory. @default the runtime's default */
  readonly memory?: Size;
  /** Guest disk; also sizes the Pod's shared volume so an image can be flashed. @default the runtime's default */
  readonly storage?: Size;
  /** Firmware to boot. @default none */
  readonly firmware?: { readonly url?: string; readonly digest?: string };
  /** Use KVM acceleration. @default the runtime's default */
  readonly kvm?: boolean;
  /** More QEMU parameters; the typed props above win over the same keys here. @default none */
  readonly extraParameters?: JsonObject;
  /** Labels of every instance: what leases select on, e.g. `{ board: 'rpi4', virtual: 'true' }`. */
  readonly labels: Readonly<Record<string, string>>;
  /** @default none */
  readonly annotations?: Readonly<Record<string, string>>;
  /** @default one QEMU driver named `qemu` */
  readonly drivers?: readonly DriverConfig[];
  /** @default matchLabels = labels */
  readonly selector?: LabelSelector;
  /** @default 0 */
  readonly minReplicas?: number;
  /** 0 means unbounded. @default 4 */
  readonly maxReplicas?: number;
  /** Warm buffer. @default 0 */
  readonly minAvailableReplicas?: number;
  /** @default Duration.minutes(5) */
  readonly scaleDownCooldown?: Duration;
  /** @default "ExitAndReplace" */
  readonly recycleStrategy?: RecycleStrategy;
  /** @default "Immediate" */
  readonly bindingMode?: BindingMode;
  /** @default "Delete" */
  readonly reclaimPolicy?: ReclaimPolicy;
  /** @default none */
  readonly scheduling?: Scheduling;
  /** @default the QEMU provisioner's images */
  readonly images?: Images;
}

/**
 * The common case in one construct: typed QEMU settings, board labels, drivers and pool sizes
 * become a `VirtualTargetClass` (`Class`) and an `ExporterSet` (`Set`) using it. Everything,
 * including the QEMU provisioner's parameter rules, is checked at construction.
 */
export class QemuPool extends Construct {
  public readonly virtualTargetClass: VirtualTargetClass;
  public readonly exporterSet: ExporterSet;

  constructor(scope: Construct, id: string, props: QemuPoolProps) {
    super(scope, id);
    const namespace = props.metadata?.namespace ?? Chart.of(this).namespace;
    const input: QemuPoolInput = {
      // Unnamed pools get generated names from cdk8s; any valid name will do for the preview.
      name: props.metadata?.name ?? 'generated',
      namespace,
      className: props.className,
      arch: props.arch,
      machineType: props.machineType,
      cpu: props.cpu,
      memory: props.memory && toQuantity(props.memory),
      storage: props.storage && toQuantity(props.storage),
      firmware: props.firmware,
      kvm: props.kvm,
      extraParameters: props.extraParameters,
      labels: props.labels,
      annotations: props.annotations,
      drivers: props.drivers,
      selector: props.selector,
      minReplicas: props.minReplicas,
      maxReplicas: props.maxReplicas,
      minAvailableReplicas: props.minAvailableReplicas,
      scaleDownCooldown: props.scaleDownCooldown && toGoDuration(props.scaleDownCooldown),
      recycleStrategy: props.recycleStrategy,
      bindingMode: props.bindingMode,
      reclaimPolicy: props.reclaimPolicy,
      scheduling: props.scheduling,
      images: props.images,
    };
    const issues = qemuPoolIssues(input);
    if (issues.length > 0) throw constructError(this, 'QemuPool', issues, qemuPoolProp);

    this.virtualTargetClass = new VirtualTargetClass(this, 'Class', {
      metadata: { name: props.className ?? props.metadata?.name, namespace },
      provisioner: ProvisionerNames.qemu,
      parameters: qemuPoolParameters(input),
      bindingMode: props.bindingMode,
      reclaimPolicy: props.reclaimPolicy,
      scheduling: props.scheduling,
      images: props.images,
    });
    this.exporterSet = new ExporterSet(this, 'Set', {
      metadata: { ...props.metadata, namespace },
      virtualTargetClass: this.virtualTargetClass,
      minReplicas: props.minReplicas,
      maxReplicas: props.maxReplicas,
      minAvailableReplicas: props.minAvailableReplicas,
      scaleDownCooldown: props.scaleDownCooldown,
      recycleStrategy: props.recycleStrategy,
      selector: props.selector,
      template: {
        labels: props.labels,
        annotations: props.annotations,
        drivers: props.drivers ?? DEFAULT_QEMU_DRIVERS,
      },
    });
  }

  /** Adds a driver to every instance's exporter config. */
  public addDriver(driver: DriverConfig): void {
    this.exporterSet.addDriver(driver);
  }
}
