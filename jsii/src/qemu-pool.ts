import type { ApiObjectMetadata, Size } from 'cdk8s';
import { Construct } from 'constructs';
import * as lib from 'virtual-exporters/cdk8s';
import type { QemuArch } from './enums';
import { buildInner, DEFAULT_CHILD_ID } from './errors';
import { libraryUpdateStrategy, withoutUndefined } from './convert';
import type { PoolScalingOptions } from './exporter-set';
import type { DriverConfig, QemuFirmware } from './structs';
import type { ClassInstanceOptions, IVirtualTargetClass } from './virtual-target-class';

/** Props of a `QemuPool`: typed QEMU settings, the pool's sizes and its instances' labels and drivers. */
export interface QemuPoolProps extends PoolScalingOptions, ClassInstanceOptions {
  /** Name and namespace of the set (the class takes the same name unless `className` is given). @default generated */
  readonly metadata?: ApiObjectMetadata;
  /** Name of the class. @default the set's name */
  readonly className?: string;
  /** Guest architecture. @default the runtime's default (x86_64) */
  readonly arch?: QemuArch;
  /** QEMU machine type, e.g. `virt` or `q35`. @default the runtime's default */
  readonly machineType?: string;
  /** Virtual CPUs, in whole cores. @default the runtime's default */
  readonly cpu?: number;
  /** Guest memory, e.g. `Size.gibibytes(8)`. @default the runtime's default */
  readonly memory?: Size;
  /** Guest disk, e.g. `Size.gibibytes(16)`; also sizes the Pod's shared volume. @default the runtime's default */
  readonly storage?: Size;
  /** Firmware to boot: its image and digest. @default none */
  readonly firmware?: QemuFirmware;
  /** Use KVM acceleration. @default the runtime's default */
  readonly kvm?: boolean;
  /** More QEMU parameters (free-form JSON); the typed fields above win over the same keys. @default none */
  readonly extraParameters?: { [key: string]: any };
  /** Labels of each Exporter: what leases select on. */
  readonly labels: { [key: string]: string };
  /** Annotations of each Exporter. @default none */
  readonly annotations?: { [key: string]: string };
  /** Drivers of each exporter; a missing `name` is derived from the driver package. @default one QEMU driver named `qemu` */
  readonly drivers?: DriverConfig[];
}

/**
 * The common case in one construct: typed QEMU settings, board labels, drivers and pool sizes become a
 * VirtualTargetClass and an ExporterSet using it. Builds the TypeScript library's `QemuPool` as its
 * child `Default`; everything, including the QEMU provisioner's parameter rules, is checked when it is
 * constructed.
 */
export class QemuPool extends Construct {
  /** The pool's class, for other sets to use. */
  public readonly virtualTargetClass: IVirtualTargetClass;
  /** The Kubernetes name of the pool's ExporterSet. */
  public readonly exporterSetName: string;
  private readonly inner: lib.QemuPool;

  constructor(scope: Construct, id: string, props: QemuPoolProps) {
    super(scope, id);
    const { updateStrategy, ...rest } = props;
    const libProps: lib.QemuPoolProps = { ...rest, updateStrategy: libraryUpdateStrategy(updateStrategy) };
    this.inner = buildInner(this, () => new lib.QemuPool(this, DEFAULT_CHILD_ID, withoutUndefined(libProps)));
    this.virtualTargetClass = this.inner.virtualTargetClass;
    this.exporterSetName = this.inner.exporterSet.name;
  }

  /** Adds a driver to every instance's exporter config. */
  public addDriver(driver: DriverConfig): void {
    this.inner.addDriver(driver);
  }
}
