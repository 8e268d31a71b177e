/**
 * The planner's input: everything one reconcile pass knows about one ExporterSet, read from the
 * informer caches by the reconciler. Plain data only, so a pass can be replayed in a test.
 *
 * Freshness contract (the reconciler's side): the caches may lag the API, so
 * - every action the executor applied and the cache does not show yet is listed in `inFlight`
 *   (see {@link InFlight}): that is what keeps a stale cache from causing twins or double deletes;
 * - `set.status` is the newest status the controller knows, i.e. the one it last wrote when the
 *   cache still shows an older one, so persisted fields (window start, failures, ordinal) never
 *   go back in time.
 */
import type {
  ControllerRevision,
  Exporter,
  ExporterSet,
  Lease,
  OwnerReference,
  Provisioner,
  VirtualTargetClass,
} from 'virtual-exporters/internal';
import type { DemandHistory } from './demand-history';
import type { ServedLease } from './demand-samples';
import type { ObservedTimes, Timestamp } from './time';

/** A set of the namespace as the demand ownership rule reads it (demand/lease-owner.ts). */
export interface DemandPeer {
  readonly set: ExporterSet;
  /** Its VirtualTargetClass is in the cache. */
  readonly classExists: boolean;
}

/**
 * The fields of a core/v1 Pod the planner reads. client-node's `V1Pod` is assignable to it, and so is
 * the plain JSON of a Pod.
 */
export interface PodView {
  readonly metadata?: {
    readonly name?: string;
    readonly uid?: string;
    readonly creationTimestamp?: Timestamp;
    readonly deletionTimestamp?: Timestamp;
    /** Read by adoption (adoption.ts): the labels it lacks are added. */
    readonly labels?: Readonly<Record<string, string>>;
    /** Read by adoption: only a Pod its Exporter owns is labelled. */
    readonly ownerReferences?: readonly OwnerReference[];
  };
  readonly status?: {
    /** Pending, Running, Succeeded, Failed or Unknown. */
    readonly phase?: string;
    readonly reason?: string;
    readonly message?: string;
    readonly startTime?: Timestamp;
    readonly conditions?: readonly {
      readonly type: string;
      readonly status: string;
      readonly lastTransitionTime?: Timestamp;
    }[];
    readonly containerStatuses?: readonly {
      readonly name: string;
      readonly state?: {
        readonly terminated?: {
          readonly exitCode?: number;
          readonly reason?: string;
          readonly message?: string;
          readonly finishedAt?: Timestamp;
        };
      };
    }[];
  };
}

/** The fields of an instance's config Secret the planner reads. */
export interface SecretView {
  readonly metadata?: {
    readonly name?: string;
    /** Read by adoption (adoption.ts), as a Pod's. */
    readonly labels?: Readonly<Record<string, string>>;
    readonly ownerReferences?: readonly OwnerReference[];
  };
  /** base64 values, as the API server returns them. */
  readonly data?: Readonly<Record<string, string>>;
}

/** One Exporter of the set (see `PlannerSnapshot.instances`), with the objects named after it. */
export interface InstanceSnapshot {
  readonly exporter: Exporter;
  /** The instance Pod (named after the Exporter), if it exists. */
  readonly pod?: PodView;
  /** The exporter config Secret, if it exists. */
  readonly configSecret?: SecretView;
  /**
   * The `data` the config Secret should hold now (rendered by the reconciler from the credential token,
   * endpoint and template). Undefined when it cannot be rendered yet, was not computed, or the live
   * Secret already holds it (the reconciler compares digests); then only a missing Secret is repaired.
   */
  readonly desiredConfigSecretData?: Readonly<Record<string, string>>;
  /**
   * `status.credential` names a Secret that holds no `token` (or that the Secret cache does not keep:
   * one Jumpstarter did not write). Set by the reconciler for instances without a Pod; the Pod is not
   * rendered until the token is there (see credential-wait.ts).
   */
  readonly credentialTokenMissing?: boolean;
  /**
   * The controller tried to start the instance's Pod and could not (render, config Secret or Pod
   * refused), since when on the controller's clock; set by the reconciler for instances without a Pod.
   */
  readonly podWriteFailure?: PodWriteFailure;
  /**
   * For a provisioner with a lifecycle (no Pod): what the provisioner observed of the instance at its
   * placement this pass; undefined when it has no placement (nothing realised) or the provisioner
   * renders Pods. The runtime is read from it (runtime.ts).
   */
  readonly observation?: InstanceObservation;
  /** When this controller first observed the Exporter, its Pod (or realisation) and its end (time.ts). */
  readonly observed?: ObservedTimes;
}

/** A lifecycle provisioner's observation of one instance (the provisioner's `observe`). */
export interface InstanceObservation {
  readonly state: 'running' | 'exited' | 'failed' | 'absent' | 'unknown';
  /** Machine-readable cause (HostUnreachable, UnitFailed); never a secret. */
  readonly reason?: string;
  /** A sentence for a condition or event; never a secret. */
  readonly message?: string;
}

/** A failed start of an instance's Pod (SPEC §3.18), as the reconciler saw it. */
export interface PodWriteFailure {
  /** The controller's clock (as `now`) at the first failed try. */
  readonly since: number;
  /** The ReplicaFailure reason of the last failed write (FailedRender, FailedCreateSecret, FailedCreatePod). */
  readonly reason: string;
  /** The last failure's message (the API server's, or the provisioner's). */
  readonly message: string;
}

/** An Exporter create the executor sent and the cache does not show yet. */
export interface InFlightCreate {
  readonly name: string;
  /** Whether it was created as a standby (no Pod). */
  readonly standby: boolean;
}

/**
 * Writes the executor applied that the cache does not reflect yet, by Exporter name (Pods are named
 * after their Exporter). The executor adds a name when it applies the matching action and drops it when
 * the cache shows the effect (or after a timeout, as controller-runtime's expectations do):
 *
 * | action          | field        | observed when the cache shows...            |
 * |-----------------|--------------|---------------------------------------------|
 * | CreateExporter  | creating     | the Exporter                                |
 * | DeleteExporter  | deleting     | the Exporter gone (or a deletionTimestamp)  |
 * | DisableExporter | disabling    | `spec.enabled: false`                       |
 * | PromoteStandby  | promoting    | the standby label gone                      |
 * | ReleaseExporter | releasing    | the set's ownerReference gone               |
 * | RenderInstance  | rendering    | the Pod                                     |
 * | DeletePod       | deletingPods | the Pod gone (or another Pod uid)           |
 * | LabelInstance   | labelling    | the labels on each object patched (or gone) |
 */
export interface InFlight {
  readonly creating?: readonly InFlightCreate[];
  readonly deleting?: readonly string[];
  readonly disabling?: readonly string[];
  readonly promoting?: readonly string[];
  readonly releasing?: readonly string[];
  readonly rendering?: readonly string[];
  readonly deletingPods?: readonly string[];
  readonly labelling?: readonly string[];
}

export interface PlannerOptions {
  /** Most Exporter creates in flight at once (`--max-burst`). @default 50 */
  readonly maxBurst: number;
  /** Wait after the first startup failure; it doubles with each further one. @default 10_000 */
  readonly startupBackoffBaseMs: number;
  /** Longest wait between replacements of failing instances. @default 300_000 */
  readonly startupBackoffMaxMs: number;
  /** Replacements a template rollout may start at once, in percent of the pool (at least 1). @default 25 */
  readonly rolloutSurgePercent: number;
  /**
   * How long an instance's Pod may exist without its exporter ever becoming ready before the instance
   * counts as failed and is replaced (booting VMs, image pulls and scheduling included). @default 600_000
   */
  readonly startupTimeoutMs: number;
}

export const DEFAULT_PLANNER_OPTIONS: PlannerOptions = {
  maxBurst: 50,
  startupBackoffBaseMs: 10_000,
  startupBackoffMaxMs: 300_000,
  rolloutSurgePercent: 25,
  startupTimeoutMs: 600_000,
};

/**
 * The namespace's Leases read live from the API just before a pass's Exporter deletes (§3.7): the
 * Lease cache may lag Jumpstarter, which can assign an instance until it has seen the disable. With
 * `leases`, no instance a non-ended one names is deleted; with `error` (the list failed), nothing is
 * deleted and ReplicaFailure says why. The reconciler reads it only when a plan deletes Exporters,
 * and plans again with it.
 */
export type LeaseCheck = { readonly leases: readonly Lease[] } | { readonly error: string };

export interface PlannerSnapshot {
  /** The set as cached, with the newest status the controller knows (see the module doc). */
  readonly set: ExporterSet;
  /** The set's VirtualTargetClass; undefined when it does not exist. */
  readonly virtualTargetClass: VirtualTargetClass | undefined;
  /** The provisioner this controller runs (`--provisioner`); sets of other provisioners are ignored. */
  readonly provisioner: Pick<Provisioner, 'name' | 'validate'>;
  /**
   * Every Exporter in the set's namespace that a set of this name controls (a controller ownerReference,
   * whatever its labels or name) or that is labelled `exporterset.jumpstarter.dev/name=<set>` (see
   * observe/ownership.ts `concernsSet`): the planner tells the set's own instances (owned by its uid) from
   * detached ones.
   */
  readonly instances: readonly InstanceSnapshot[];
  /**
   * The ControllerRevisions labelled with the set's name (its recorded revisions; the planner keeps
   * those the set controls, revision-history.ts). Absent: the history is not tracked — nothing is
   * recorded or pruned, and a pin finds no revision.
   */
  readonly revisions?: readonly ControllerRevision[];
  /** Every Jumpstarter Lease in the set's namespace; the planner filters them. */
  readonly leases: readonly Lease[];
  /**
   * The namespace's other ExporterSets, whatever their provisioner: a lease their instances could serve
   * too is counted by one set only (lease-owner.ts). Absent: the set counts every lease it matches.
   */
  readonly peers?: readonly DemandPeer[];
  readonly inFlight?: InFlight;
  /** The live Lease list before deletes, once the reconciler read it. */
  readonly leaseCheck?: LeaseCheck;
  /**
   * The set's demand history (demand-history.ts), as the reconciler last recorded it; absent when none
   * is recorded yet. The forecast reads it.
   */
  readonly demandHistory?: DemandHistory;
  /**
   * The set's measured p95 startup time (Exporter created → Online), ms, over its recent instances;
   * absent until enough startups were seen. Scheduled windows start warming this long before they open.
   */
  readonly startupP95Ms?: number;
  /**
   * The set's leases served in the last 24 h or so, as the reconciler's demand recorder keeps them
   * (lease-objectives.ts): `status.leaseWait` is made of them. Absent when the recorder has not read
   * the set's history yet; the status then keeps the objectives it has.
   */
  readonly servedLeases?: readonly ServedLease[];
  /** The controller's clock, in epoch milliseconds. */
  readonly now: number;
  /**
   * When this controller first looked at the set (its clock): facts observed then may be older, and
   * are dated by other clocks, clamped (time.ts). Undefined when no observations are tracked.
   */
  readonly observingSince?: number;
  readonly options?: Partial<PlannerOptions>;
}

/** The options with defaults filled in; out-of-range values are clamped to the nearest sensible one. */
export function resolveOptions(options: Partial<PlannerOptions> | undefined): PlannerOptions {
  const merged = { ...DEFAULT_PLANNER_OPTIONS, ...options };
  const base = Math.max(0, merged.startupBackoffBaseMs);
  return {
    maxBurst: Math.max(1, Math.floor(merged.maxBurst)),
    startupBackoffBaseMs: base,
    startupBackoffMaxMs: Math.max(base, merged.startupBackoffMaxMs),
    rolloutSurgePercent: Math.max(0, merged.rolloutSurgePercent),
    startupTimeoutMs: Math.max(1, merged.startupTimeoutMs),
  };
}
