import type { Images } from './images';
import type { Condition, JsonObject, LabelSelector, ObjectMeta } from './meta';

export type RecycleStrategy = 'ExitAndReplace' | 'InPlaceReuse';

/**
 * One driver of the exporter template. Exactly one of `type`/`ref`; `ref` entries carry no config.
 * `name` may be omitted (the JEP's examples do): it is derived from the driver's package.
 */
export interface DriverConfig {
  readonly name?: string;
  readonly type?: string;
  readonly ref?: string;
  readonly config?: JsonObject;
}

export interface ExporterTemplate {
  readonly metadata?: {
    readonly labels?: Readonly<Record<string, string>>;
    readonly annotations?: Readonly<Record<string, string>>;
  };
  readonly spec?: {
    readonly drivers?: readonly DriverConfig[];
  };
}

export interface ExporterSetSpec {
  /** @default 0 */
  readonly minReplicas?: number;
  /** 0 means unbounded (upstream's meaning; `kubectl scale --replicas=0` sets it). @default 4 */
  readonly maxReplicas?: number;
  /** @default 0 */
  readonly minAvailableReplicas?: number;
  /** Go-style duration. @default "5m" */
  readonly scaleDownCooldown?: string;
  /** @default "ExitAndReplace" */
  readonly recycleStrategy?: RecycleStrategy;
  /** Ours: the off switch — nothing is created or promoted while true. @default false */
  readonly paused?: boolean;
  /**
   * Ours: how many recorded revisions (ControllerRevisions) no instance runs are kept for rollback;
   * revisions in use, the template's and the pinned one are kept besides. @default 10
   */
  readonly revisionHistoryLimit?: number;
  /**
   * Ours: a recorded revision (ControllerRevision name or revision hash) new instances are built from
   * instead of the template; instances of other revisions are replaced. Absent: the template.
   */
  readonly pinnedRevision?: string;
  readonly virtualTargetClassName: string;
  readonly parameters?: JsonObject;
  readonly images?: Images;
  readonly selector: LabelSelector;
  readonly template: ExporterTemplate;
}

export interface ExporterSetStatus {
  readonly replicas: number;
  readonly readyReplicas: number;
  readonly availableReplicas: number;
  readonly unavailableReplicas: number;
  readonly leasedReplicas: number;
  readonly exportersActive: number;
  readonly exportersDisabled: number;
  readonly exportersIdle: number;
  readonly exportersOffline: number;
  readonly podsFailed: number;
  readonly podsPending: number;
  readonly podsRunning: number;
  readonly podsUnknown: number;
  readonly selector?: string;
  readonly conditions?: readonly Condition[];
  // Our additions to upstream's status: what the controller needs to survive a restart and to report.
  readonly observedGeneration?: number;
  readonly startingReplicas?: number;
  readonly standbyReplicas?: number;
  readonly pendingLeases?: number;
  readonly updatedReplicas?: number;
  readonly templateRevision?: string;
  readonly nextOrdinal?: number;
  readonly scaleDownWindowStart?: string;
  readonly scaleDownTarget?: number;
  readonly startupFailures?: number;
  readonly lastStartupFailureTime?: string;
  /** The ControllerRevision new instances are built from (the pinned one, else the template's). */
  readonly currentRevision?: string;
  /** The ControllerRevision `spec.pinnedRevision` resolved to; absent when unpinned or not found. */
  readonly pinnedRevision?: string;
}

export interface ExporterSet {
  readonly apiVersion: string;
  readonly kind: 'ExporterSet';
  readonly metadata: ObjectMeta;
  readonly spec: ExporterSetSpec;
  readonly status?: ExporterSetStatus;
}
