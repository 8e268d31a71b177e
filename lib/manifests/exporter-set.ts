import {
  API_VERSION,
  Defaults,
  Kinds,
  type DriverConfig,
  type ExporterSet,
  type Images,
  type JsonObject,
  type LabelSelector,
  type RecycleStrategy,
  type ScaleInStrategy,
  type ForecastSpec,
  type UpdateStrategy,
  type WarmBufferSchedule,
} from '../api';
import { withDerivedName } from '../core/drivers';
import { compact, nonEmpty } from './compact';
import { wireMetadata, type ObjectMetaInput } from './object-meta-input';

/** What every instance of a set looks like. */
export interface ExporterTemplateInput {
  /** Labels of each Exporter: what leases select on (`board: rpi4`, `virtual: "true"`). */
  readonly labels: Readonly<Record<string, string>>;
  /** @default none */
  readonly annotations?: Readonly<Record<string, string>>;
  /** Drivers of each exporter; a missing `name` is derived from the driver package. @default none */
  readonly drivers?: readonly DriverConfig[];
}

/**
 * An ExporterSet's settings besides its metadata and class, documented once: the cdk8s props and the
 * Pulumi args are these fields (the cooldown as a cdk8s `Duration`; `pulumi.Input`s in Pulumi).
 */
export interface ExporterSetOptions {
  /** Floor: instances kept at all times. @default 0 */
  readonly minReplicas?: number;
  /**
   * Ceiling; 0 means unbounded (upstream's meaning, what `kubectl scale --replicas=0` writes): every
   * pending lease then adds an instance. Use `paused` to stop a pool. @default 4
   */
  readonly maxReplicas?: number;
  /** Warm buffer: ready, unleased instances kept waiting. @default 0 */
  readonly minAvailableReplicas?: number;
  /**
   * How long surplus must last before scale-down, as a Go duration (`90s`, `10m`, `1h30m`); a cdk8s
   * `Duration` in the cdk8s props. @default 5 minutes ("5m")
   */
  readonly scaleDownCooldown?: string;
  /** What happens to an instance after its lease. @default "ExitAndReplace" */
  readonly recycleStrategy?: RecycleStrategy;
  /**
   * The off switch: while true the controller creates and promotes nothing; existing instances keep
   * serving and recycling. (`maxReplicas: 0` is no off switch: it means no ceiling.) @default false
   */
  readonly paused?: boolean;
  /**
   * Which idle instances leave first when the pool shrinks: instances matching an earlier `selectors`
   * entry first, then `basePolicy` (`Newest`, `Oldest` or `Random`, seeded from the set's uid). Leased
   * instances never go; outdated ones, standbys and never-ready ones go first whatever the policy.
   * Upstream's controller ignores it. @default basePolicy "Newest", no selectors
   */
  readonly scaleInStrategy?: ScaleInStrategy;
  /**
   * How outdated instances (an older template, or created before `recycleRequestedAt`) are replaced:
   * `Proactive` (gradually, `maxSurge` ahead, at most `maxUnavailable` below the warm buffer),
   * `Opportunistic` (when they recycle or fail) or `Unmanaged` (never). Upstream's controller ignores
   * it. @default type "Proactive", maxSurge the controller's --rollout-surge-percent, maxUnavailable 1
   */
  readonly updateStrategy?: UpdateStrategy;
  /**
   * Every instance created before this time is replaced once, under `updateStrategy` (a declarative
   * flush: refresh images or firmware without a template change). An RFC 3339 string, or a `Date`
   * (written as RFC 3339 in UTC). Upstream's controller ignores it. @default none
   */
  readonly recycleRequestedAt?: string | Date;
  /**
   * How many recorded revisions (ControllerRevisions) no instance runs are kept for a rollback by
   * `pinnedRevision`; revisions in use, the template's and the pinned one are kept besides. @default 10
   */
  readonly revisionHistoryLimit?: number;
  /**
   * Roll the pool back (or forward) to a recorded revision: the name of one of the set's
   * ControllerRevisions or its revision hash (`status.currentRevision` names the one in use). New
   * instances are built from it instead of the template, and instances of other revisions are
   * replaced; leave it out to follow the template. @default none (the template)
   */
  readonly pinnedRevision?: string;
  /**
   * Forecast warm buffers: `mode` `ForecastOnly` shows in status and metrics the forecast of the most
   * leases held at once over the next startup time (seasonal by hour of week, from the set's demand
   * history) and the warm buffer it would set; `Apply` raises `minAvailableReplicas` to it ahead of
   * demand (never lowers it; capped by `maxReplicas` and by `minAvailableReplicas + maxExtra`).
   * Upstream's controller ignores it. @default mode "Off"
   */
  readonly forecast?: ForecastSpec;
  /**
   * Windows that raise the warm buffer on a timetable: each opens at every occurrence of its `cron`
   * (five fields, or @daily and the like) in its IANA `timeZone` (default UTC) and lasts `duration`,
   * keeping at least `minAvailableReplicas` warm (and `minReplicas`, if given). The raise starts
   * `leadTime` before the window opens (default: the pool's measured p95 startup, else 2m) so the
   * instances are ready when it opens. Overlapping windows take the maximum; maxReplicas caps it.
   * Durations are Go durations here; cdk8s `Cron` and `Duration` in the cdk8s props. Upstream's
   * controller ignores it. @default none
   */
  readonly schedules?: readonly WarmBufferSchedule[];
  /** Overrides deep-merged over the class parameters (lists replace). @default none */
  readonly parameters?: JsonObject;
  /** Image overrides; replace the class's per entry. @default the class's images */
  readonly images?: Images;
  /** Which Exporters belong to the set. @default matchLabels = the template labels */
  readonly selector?: LabelSelector;
  readonly template: ExporterTemplateInput;
}

/** Framework-neutral description of an ExporterSet: what the builder takes. */
export interface ExporterSetInput extends ObjectMetaInput, ExporterSetOptions {
  /** The class the set uses, in its namespace. */
  readonly virtualTargetClassName: string;
}

/**
 * The selector a set uses when none is given: exactly its template labels, so the set selects what
 * it creates and nothing else. Empty labels give an empty selector, which validation rejects
 * at synth time because it would select every Exporter in the namespace.
 */
export function selectorFromTemplateLabels(
  labels: Readonly<Record<string, string>> | undefined,
): LabelSelector {
  return { matchLabels: { ...(labels ?? {}) } };
}

/** A `Date` as RFC 3339 in UTC; an invalid one as its text, which validation refuses with the rule. */
export function timestampText(value: string | Date | undefined): string | undefined {
  if (!(value instanceof Date)) return value;
  return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
}

/**
 * Builds the wire object, with the CRD defaults and the derived driver names written out, so the
 * manifest says what it means and upstream's CRDs admit it too.
 */
export function buildExporterSet(input: ExporterSetInput): ExporterSet {
  return compact({
    apiVersion: API_VERSION,
    kind: Kinds.ExporterSet,
    metadata: wireMetadata(input),
    spec: {
      minReplicas: input.minReplicas ?? Defaults.minReplicas,
      maxReplicas: input.maxReplicas ?? Defaults.maxReplicas,
      minAvailableReplicas: input.minAvailableReplicas ?? Defaults.minAvailableReplicas,
      scaleDownCooldown: input.scaleDownCooldown ?? Defaults.scaleDownCooldown,
      recycleStrategy: input.recycleStrategy ?? Defaults.recycleStrategy,
      // Written only when given, so manifests of sets that never pause stay as they were.
      paused: input.paused,
      // Ours, written only when given (issue 16).
      scaleInStrategy: input.scaleInStrategy,
      updateStrategy: input.updateStrategy,
      recycleRequestedAt: timestampText(input.recycleRequestedAt),
      // Written only when given, as paused: upstream's CRDs admit what never uses them.
      revisionHistoryLimit: input.revisionHistoryLimit,
      pinnedRevision: input.pinnedRevision,
      // Ours, written only when given (issue 17).
      forecast: input.forecast,
      // Ours (issue 17), written only when given.
      schedules: input.schedules,
      virtualTargetClassName: input.virtualTargetClassName,
      parameters: input.parameters,
      images: input.images,
      selector: input.selector ?? selectorFromTemplateLabels(input.template.labels),
      template: {
        metadata: {
          labels: { ...(input.template.labels ?? {}) },
          annotations: nonEmpty(input.template.annotations),
        },
        // Named as upstream's CRD requires: a missing name is written out as derived.
        spec: { drivers: (input.template.drivers ?? []).map(withDerivedName) },
      },
    },
  });
}
