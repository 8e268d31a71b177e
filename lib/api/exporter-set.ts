import type { Images } from './images';
import type { Condition, JsonObject, LabelSelector, ObjectMeta } from './meta';

export type RecycleStrategy = 'ExitAndReplace' | 'InPlaceReuse';

/**
 * Which idle instances leave first when the pool shrinks, after the rules no policy overrides (never a
 * leased instance; outdated before current; standbys and never-ready instances, then offline ones).
 * `Newest` (the default) removes the last created first; `Random` is seeded from the set's uid, so
 * every replica computes the same order.
 */
export type ScaleInBasePolicy = 'Oldest' | 'Newest' | 'Random';

/** Ours (KubeVirt's VirtualMachinePool): the order in which idle instances are scaled in. */
export interface ScaleInStrategy {
  /**
   * Label selectors in priority order: idle instances matching the first go before those matching the
   * second, and so on. The base policy orders the rest and breaks ties. @default none
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
   * Proactive only: replacements started ahead of the outdated instances they replace, as a count or a
   * percentage of the pool (rounded up). @default the controller's --rollout-surge-percent (25%), at least 1
   */
  readonly maxSurge?: IntOrPercent;
  /**
   * Proactive only: outdated instances the rules still need that may leave before their replacements
   * are ready, where no surge fits (at maxReplicas, or maxSurge 0); a count or a percentage of the pool
   * (rounded down). @default 1
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
  /**
   * The forecast raises minAvailableReplicas by at most this much (absent: up to maxReplicas only).
   * @default no limit but maxReplicas
   */
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
 * Ours: a recurring window during which the warm buffer (and optionally the floor) is raised.
 * Windows open at each occurrence of `cron` in `timeZone` and last `duration`; overlapping windows take
 * the maximum, and `maxReplicas` still caps the pool.
 */
export interface WarmBufferSchedule {
  /** Name of the schedule, unique in the set; status and events name its windows by it. */
  readonly name: string;
  readonly cron: string;
  /**
   * How long each window lasts, as a Go duration such as `8h` or `1h30m`; longer than 0 and at most the
   * shortest gap between the cron's occurrences (checked by the controller and at synth time).
   */
  readonly duration: string;
  /** IANA time zone the cron is read in, such as Europe/Berlin; absent means UTC. @default "UTC" */
  readonly timeZone?: string;
  /**
   * The warm buffer while the window is open: the set keeps the larger of this and
   * spec.minAvailableReplicas (and of any other open window's), at most maxReplicas.
   */
  readonly minAvailableReplicas: number;
  /**
   * The floor while the window is open (absent: spec.minReplicas): the larger of this and
   * spec.minReplicas applies, at most maxReplicas. @default spec.minReplicas
   */
  readonly minReplicas?: number;
  /**
   * How long before each window opens the raise starts, so the instances are warm (ready) when it opens.
   * A Go duration. @default the pool's measured p95 startup time, else 2m
   */
  readonly leadTime?: string;
}

/** Ours: one window of a schedule, as status reports it (RFC 3339 times). */
export interface ScheduleWindowStatus {
  readonly name: string;
  readonly opensAt: string;
  readonly closesAt: string;
}

/** Ours: the schedules' windows open now, and the one that opens next. */
export interface SchedulesStatus {
  readonly active?: readonly ScheduleWindowStatus[];
  /** `warmFrom`: when the raise for it starts (opensAt less the lead time). */
  readonly next?: ScheduleWindowStatus & { readonly warmFrom: string };
}

export interface ExporterSetSpec {
  /** @default 0 */
  readonly minReplicas?: number;
  /** Ceiling: the most instances the set ever has. 0 means no ceiling (upstream's meaning). @default 4 */
  readonly maxReplicas?: number;
  /** @default 0 */
  readonly minAvailableReplicas?: number;
  /**
   * How long surplus must last before the set scales down, as a Go duration such as `30s`, `5m` or
   * `1h30m`. @default "5m"
   */
  readonly scaleDownCooldown?: string;
  /** @default "ExitAndReplace" */
  readonly recycleStrategy?: RecycleStrategy;
  /** Ours. @default false */
  readonly paused?: boolean;
  /** Ours: which idle instances go first when the pool shrinks. @default basePolicy "Newest", no selectors */
  readonly scaleInStrategy?: ScaleInStrategy;
  /** Ours. @default type "Proactive" */
  readonly updateStrategy?: UpdateStrategy;
  /**
   * Ours: an RFC 3339 time. Every instance created before it is replaced once, as an outdated one
   * (under the update strategy). @default none
   */
  readonly recycleRequestedAt?: string;
  /** Ours. @default 10 */
  readonly revisionHistoryLimit?: number;
  /** Ours. @default none (the template) */
  readonly pinnedRevision?: string;
  /** Ours: forecast warm buffers. @default mode Off */
  readonly forecast?: ForecastSpec;
  /**
   * Ours: windows that raise the warm buffer on a timetable (working hours, nightly runs, release days).
   * @default none
   */
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
  /** Ours: the scheduled windows open now and the next one; present when the spec has schedules. */
  readonly schedules?: SchedulesStatus;
  /** Ours: the warm buffer in effect, present only while a schedule (or forecast) raises it. */
  readonly effectiveMinAvailableReplicas?: number;
}

export interface ExporterSet {
  readonly apiVersion: string;
  readonly kind: 'ExporterSet';
  readonly metadata: ObjectMeta;
  readonly spec: ExporterSetSpec;
  readonly status?: ExporterSetStatus;
}
