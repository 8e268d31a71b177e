import type { ApiObject, ApiObjectMetadata, Duration } from 'cdk8s';
import { Construct } from 'constructs';
import * as lib from 'virtual-exporters/cdk8s';
import type { RecycleStrategy } from './enums';
import { buildInner, DEFAULT_CHILD_ID } from './errors';
import type {
  DriverConfig,
  ForecastSpec,
  Images,
  LabelSelector,
  ScaleInStrategy,
  UpdateStrategy,
  WarmBufferSchedule,
} from './structs';
import { libraryClass, libraryUpdateStrategy, withoutUndefined } from './convert';
import type { IVirtualTargetClass } from './virtual-target-class';

/** The pool sizes and replacement rules a set shares with `QemuPool`. */
export interface PoolScalingOptions {
  /** Floor: instances kept at all times. @default 0 */
  readonly minReplicas?: number;
  /**
   * Ceiling; 0 means unbounded (upstream's meaning): every pending lease then adds an instance. Use
   * `paused` to stop a pool. @default 4
   */
  readonly maxReplicas?: number;
  /** Warm buffer: ready, unleased instances kept waiting. @default 0 */
  readonly minAvailableReplicas?: number;
  /** How long surplus must last before scale-down (whole seconds at least). @default Duration.minutes(5) */
  readonly scaleDownCooldown?: Duration;
  /** What happens to an instance after its lease. @default RecycleStrategy.EXIT_AND_REPLACE */
  readonly recycleStrategy?: RecycleStrategy;
  /** The off switch: while true the controller creates and promotes nothing. @default false */
  readonly paused?: boolean;
  /** Which idle instances leave first when the pool shrinks. @default basePolicy NEWEST, no selectors */
  readonly scaleInStrategy?: ScaleInStrategy;
  /** How outdated instances are replaced. @default type PROACTIVE */
  readonly updateStrategy?: UpdateStrategy;
  /** Every instance created before this time is replaced once, under `updateStrategy`. @default none */
  readonly recycleRequestedAt?: Date;
  /** How many recorded revisions no instance runs are kept for a rollback. @default 10 */
  readonly revisionHistoryLimit?: number;
  /** A recorded revision (ControllerRevision name or hash) new instances are built from. @default none (the template) */
  readonly pinnedRevision?: string;
  /** Forecast warm buffers. @default mode OFF */
  readonly forecast?: ForecastSpec;
  /** Which Exporters belong to the set. @default matchLabels = the template labels */
  readonly selector?: LabelSelector;
}

/** What every instance of a set looks like. */
export interface ExporterTemplateProps {
  /** Labels of each Exporter: what leases select on (`board: rpi4`, `virtual: "true"`). */
  readonly labels: { [key: string]: string };
  /** Annotations of each Exporter. @default none */
  readonly annotations?: { [key: string]: string };
  /** Drivers of each exporter; a missing `name` is derived from the driver package. @default none */
  readonly drivers?: DriverConfig[];
}

/** Props of an `ExporterSet`. */
export interface ExporterSetProps extends PoolScalingOptions {
  /** Name, namespace and labels of the set. @default name generated from the construct path; the chart's namespace */
  readonly metadata?: ApiObjectMetadata;
  /** The backend profile, in the set's namespace: a `VirtualTargetClass` or `VirtualTargetClass.from_name`. */
  readonly virtualTargetClass: IVirtualTargetClass;
  /** What every instance looks like. */
  readonly template: ExporterTemplateProps;
  /** Overrides deep-merged over the class parameters (free-form JSON; lists replace). @default none */
  readonly parameters?: { [key: string]: any };
  /** Image overrides; replace the class's per entry. @default the class's images */
  readonly images?: Images;
  /** Windows that raise the warm buffer on a timetable; overlapping ones take the maximum. @default none */
  readonly schedules?: WarmBufferSchedule[];
}

/**
 * A warm pool of virtual exporters (JEP-0014): scaling bounds, the class it uses, and the template of
 * its instances. Builds the TypeScript library's `ExporterSet` as its child `Default`: the same
 * manifest, the same checks (the set's own rules when constructed, its class's when synthesized).
 */
export class ExporterSet extends Construct {
  /** The set's Kubernetes name. */
  public readonly name: string;
  /** The set's namespace (the chart's unless given). */
  public readonly namespace?: string;
  /** The class the set uses. */
  public readonly virtualTargetClass: IVirtualTargetClass;
  /** The generated L1 object; an escape hatch for JSON patches. */
  public readonly resource: ApiObject;
  private readonly inner: lib.ExporterSet;

  constructor(scope: Construct, id: string, props: ExporterSetProps) {
    super(scope, id);
    const { virtualTargetClass, updateStrategy, ...rest } = props;
    const libProps: lib.ExporterSetProps = {
      ...rest,
      virtualTargetClass: libraryClass(virtualTargetClass),
      updateStrategy: libraryUpdateStrategy(updateStrategy),
    };
    this.inner = buildInner(
      this,
      () => new lib.ExporterSet(this, DEFAULT_CHILD_ID, withoutUndefined(libProps)),
    );
    this.virtualTargetClass = props.virtualTargetClass;
    this.name = this.inner.name;
    this.namespace = this.inner.namespace;
    this.resource = this.inner.resource;
  }

  /** Adds a driver to every instance's exporter config. */
  public addDriver(driver: DriverConfig): void {
    this.inner.addDriver(driver);
  }
}
