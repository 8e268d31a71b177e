import { Chart, type ApiObjectMetadata, type Duration, type Size } from 'cdk8s';
import { Construct } from 'constructs';
import type { DriverConfig } from '../api';
import { qemuPoolIssues } from '../manifests/checks';
import { qemuPoolProp } from '../manifests/prop-paths';
import { qemuPoolParts, type QemuPoolInput, type QemuPoolOptions } from '../manifests/qemu-pool';
import { constructError } from './errors';
import { ExporterSet } from './exporter-set';
import { toGoDuration, toQuantity, type WithUnits } from './units';
import { VirtualTargetClass } from './virtual-target-class';

export type { QemuArch } from '../provisioners/qemu/parameters';

/**
 * The pool's settings are the framework-neutral ones (`QemuPoolOptions`, where each is documented), with sizes as `Size`s, the
 * cooldown a `Duration` and the requested recycle a `Date`.
 */
export interface QemuPoolProps extends WithUnits<
  QemuPoolOptions,
  { memory: Size; storage: Size; scaleDownCooldown: Duration; recycleRequestedAt: Date }
> {
  /** Name and namespace of the set (the class takes the same name unless `className` is given). @default generated */
  readonly metadata?: ApiObjectMetadata;
}

/** The cdk8s props as the framework-neutral input, in the namespace the construct settled on. */
export function qemuPoolInput(props: QemuPoolProps, namespace: string | undefined): QemuPoolInput {
  const { metadata, memory, storage, scaleDownCooldown, ...options } = props;
  return {
    // Unnamed pools get generated names from cdk8s; any valid name will do for the checks.
    name: metadata?.name ?? 'generated',
    namespace,
    memory: memory && toQuantity(memory),
    storage: storage && toQuantity(storage),
    scaleDownCooldown: scaleDownCooldown && toGoDuration(scaleDownCooldown),
    ...options,
  };
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
    const input = qemuPoolInput(props, namespace);
    const issues = qemuPoolIssues(input);
    if (issues.length > 0) throw constructError(this, 'QemuPool', issues, qemuPoolProp);

    const { classOptions, setOptions } = qemuPoolParts(input);
    this.virtualTargetClass = new VirtualTargetClass(this, 'Class', {
      metadata: { name: props.className ?? props.metadata?.name, namespace },
      ...classOptions,
    });
    this.exporterSet = new ExporterSet(this, 'Set', {
      metadata: { ...props.metadata, namespace },
      virtualTargetClass: this.virtualTargetClass,
      ...setOptions,
      scaleDownCooldown: props.scaleDownCooldown,
      recycleRequestedAt: props.recycleRequestedAt,
    });
  }

  /** Adds a driver to every instance's exporter config. */
  public addDriver(driver: DriverConfig): void {
    this.exporterSet.addDriver(driver);
  }
}
