import type { Images } from './images';
import type { Condition, JsonObject, LabelSelector, ObjectMeta } from './meta';

export type RecycleStrategy = 'ExitAndReplace' | 'InPlaceReuse';

/**
 * Which idle instances leave first when the pool shrinks, after the rules no policy overrides (never a
 * leased instance; outdated before current; standbys and never-ready instances, then offline ones).
 * `Newest` is today's order; `Random` is seeded from the set's uid, so every replica computes the same.
 */
export type ScaleInBasePolicy = 'Oldest' | 'Newest' | 'Random';

/** Ours (KubeVirt's VirtualMachinePool): the order in which idle instances are scaled in. */
export interface ScaleInStrategy {
  /**
   * Instances matching an earlier selector go before those matching a later one or none; the base
   * policy orders the rest and breaks ties. @default none
   */
  readonly selectors?: readonly LabelSelector[];
  /** @default "Newest" */
  readonly basePolicy?: ScaleInBasePolicy;
}

/**
 * How instances built from an older template revision (or created before `recycleRequestedAt`) are
 * replaced: `Proactive` replaces idle ones gradually, `Opportunistic` only when they recycle or fail,
 * `Unmanaged` never for being outdated.
 */
export type UpdateStrategyType = 'Proactive' | 'Opportunistic' | 'Unmanaged';

/** An absolute count, or a percentage of the pool such as "25%" (Kubernetes' int-or-string). */
export type IntOrPercent = number | string;

/** Ours (KubeVirt's VirtualMachinePool): how outdated instances are replaced. */
export interface UpdateStrategy {
  /** @default "Proactive" */
  readonly type?: UpdateStrategyType;
  /**
   * Proactive only: replacements started before the outdated instances they replace leave; a
   * percentage rounds up. @default the controller's --rollout-surge-percent (25%), at least 1
   */
  readonly maxSurge?: IntOrPercent;
  /**
   * Proactive only: outdated instances the warm buffer needs that may leave before their replacement is
   * ready (where no surge fits, e.g. at maxReplicas); a percentage rounds down. @default 1
   */
  readonly maxUnavailable?: IntOrPercent;
}

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

/**
 * Ours: forecast warm buffers. `Off` computes nothing; `ForecastOnly` shows the forecast and the buffer
 * it would set in status and metrics and changes nothing; `Apply` raises the warm buffer to it ahead of
 * forecast demand (never lowers it, never scales in on a forecast alone).
 */
export type ForecastMode = 'Off' | 'ForecastOnly' | 'Apply';

/** Ours: forecast demand from the set's demand history (seasonal by hour of week). */
export interface ForecastSpec {
  /** @default "Off" */
  readonly mode?: ForecastMode;
  /** The forecast raises minAvailableReplicas by at most this much. @default no limit but maxReplicas */
  readonly maxExtra?: number;
}

/** What the forecast found, while `spec.forecast.mode` is not Off. */
export interface ForecastStatus {
  readonly mode: Exclude<ForecastMode, 'Off'>;
  /** When these values were first found (RFC 3339): unchanged values keep it, so the status stays still. */
  readonly at: string;
  /** The most leases expected held or waiting at once over the lead time; absent without a forecast. */
  readonly expectedPeak?: number;
  /** The minAvailableReplicas the forecast would set; absent without a forecast. */
  readonly warmBuffer?: number;
  /** True in Apply mode while the forecast raises the warm buffer above the spec's. */
  readonly applied: boolean;
  /** Why there is no forecast, when there is none. */
  readonly message?: string;
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

/**
 * Ours (issue 17): a recurring window during which the warm buffer (and optionally the floor) is raised.
 * Windows open at each occurrence of `cron` in `timeZone` and last `duration`; overlapping windows take
 * the maximum, and `maxReplicas` still caps the pool.
 */
export interface WarmBufferSchedule {
  /** Unique among the set's schedules; named in status and events. */
  readonly name: string;
  /** Five-field cron (minute hour day-of-month month day-of-week) or @hourly/@daily/@weekly/@monthly/@yearly. */
  readonly cron: string;
  /** Go-style duration of each window, such as `8h`; at most the shortest gap between occurrences. */
  readonly duration: string;
  /** IANA time zone the cron is read in. @default "UTC" */
  readonly timeZone?: string;
  /** The warm buffer while the window is open (and from `leadTime` before). */
  readonly minAvailableReplicas: number;
  /** The floor while the window is open. @default the spec's minReplicas */
  readonly minReplicas?: number;
  /**
   * How long before the window opens the raise starts, so instances are warm at its start (Go duration).
   * @default the pool's measured p95 startup time, else 2m
   */
  readonly leadTime?: string;
}

/** Ours (issue 17): one window of a schedule, as status reports it (RFC 3339 times). */
export interface ScheduleWindowStatus {
  readonly name: string;
  readonly opensAt: string;
  readonly closesAt: string;
}

/** Ours (issue 17): the schedules' windows open now, and the one that opens next. */
export interface SchedulesStatus {
  readonly active?: readonly ScheduleWindowStatus[];
  /** `warmFrom`: when the raise for it starts (opensAt less the lead time). */
  readonly next?: ScheduleWindowStatus & { readonly warmFrom: string };
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
  /** Ours: the scale-in order. @default basePolicy Newest, no selectors */
  readonly scaleInStrategy?: ScaleInStrategy;
  /** Ours: how outdated instances are replaced. @default type Proactive */
  readonly updateStrategy?: UpdateStrategy;
  /**
   * Ours: RFC 3339 time; every instance created before it is replaced once, as an outdated one (under
   * the update strategy). @default none
   */
  readonly recycleRequestedAt?: string;
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
  /** Ours: forecast warm buffers. @default mode Off */
  readonly forecast?: ForecastSpec;
  /** Ours (issue 17): windows that raise the warm buffer on a timetable. @default none */
  readonly schedules?: readonly WarmBufferSchedule[];
  readonly virtualTargetClassName: string;
  readonly parameters?: JsonObject;
  readonly images?: Images;
  readonly selector: LabelSelector;
  readonly template: ExporterTemplate;
}

/**
 * Ours: the lease-wait objectives of the last window (the leases served since `windowStart`, the last
 * 24 h rounded down to the hour). Warm: the instance a lease was assigned was Online before the lease
 * was created.
 */
export interface LeaseWaitStatus {
  readonly windowStart: string;
  /** Leases served (assigned an instance) in the window. */
  readonly leases: number;
  /** 95th percentile of their waits (created → assigned; 0 when served at once), whole seconds. */
  readonly p95Seconds?: number;
  /** Share served warm, 0 to 1 with two decimals. */
  readonly warmHitRatio?: number;
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
  /** The `spec.recycleRequestedAt` whose recycle completed last (no instance created before it is left). */
  readonly lastCompletedRecycle?: string;
  /** The ControllerRevision new instances are built from (the pinned one, else the template's). */
  readonly currentRevision?: string;
  /** The ControllerRevision `spec.pinnedRevision` resolved to; absent when unpinned or not found. */
  readonly pinnedRevision?: string;
  /** The forecast, while `spec.forecast.mode` is not Off. */
  readonly forecast?: ForecastStatus;
  /** Lease-wait objectives of the last 24 h; absent while no lease was served in it. */
  readonly leaseWait?: LeaseWaitStatus;
  /** p95 startup time (Exporter created → first Online) of the recent instances, whole seconds. */
  readonly startupP95Seconds?: number;
  /** Ours (issue 17): the scheduled windows open now and the next one; present when the spec has schedules. */
  readonly schedules?: SchedulesStatus;
  /** Ours (issue 17): the warm buffer in effect, present only while a schedule (or forecast) raises it. */
  readonly effectiveMinAvailableReplicas?: number;
}

export interface ExporterSet {
  readonly apiVersion: string;
  readonly kind: 'ExporterSet';
  readonly metadata: ObjectMeta;
  readonly spec: ExporterSetSpec;
  readonly status?: ExporterSetStatus;
}
