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
  /**
   * Labels put on every instance; leases select instances by them, and so must the selector. For
   * example `board: rpi4`, `virtual: "true"`.
   */
  readonly labels: Readonly<Record<string, string>>;
  /** @default none */
  readonly annotations?: Readonly<Record<string, string>>;
  /**
   * The drivers of every instance, in the order they appear in the exporter config;
   * a missing `name` is derived from the driver package. @default none
   */
  readonly drivers?: readonly DriverConfig[];
}

/**
 * An ExporterSet's settings besides its metadata and class, documented once: the cdk8s props and the
 * Pulumi args are these fields (the cooldown as a cdk8s `Duration`; `pulumi.Input`s in Pulumi).
 */
export interface ExporterSetOptions {
  /** Floor: the fewest instances the set keeps, leased or not. @default 0 */
  readonly minReplicas?: number;
  /**
   * Ceiling: the most instances the set ever has. 0 means no ceiling (upstream's meaning, what `kubectl
   * scale --replicas=0` writes): every pending lease then adds an instance. Use `paused` to stop a
   * pool. @default 4
   */
  readonly maxReplicas?: number;
  /**
   * Warm buffer: how many ready, enabled and unleased instances to keep (booting ones count as future
   * supply). @default 0
   */
  readonly minAvailableReplicas?: number;
  /**
   * How long surplus must last before the set scales down, as a Go duration such as `30s`, `5m` or
   * `1h30m`. A cdk8s `Duration` in the cdk8s props. @default 5 minutes ("5m")
   */
  readonly scaleDownCooldown?: string;
  /**
   * What happens to an instance when its lease ends: `ExitAndReplace` (a fresh instance replaces it) or
   * `InPlaceReuse` (it serves again). @default "ExitAndReplace"
   */
  readonly recycleStrategy?: RecycleStrategy;
  /**
   * Off switch (absent means false): while true the controller creates and promotes no instance (no
   * floor, warm buffer or lease demand is served by new ones); existing instances keep serving, recycle
   * and scale down, and an instance recycled away is not replaced until paused is false again.
   * (`maxReplicas: 0` is no off switch: it means no ceiling.) @default false
   */
  readonly paused?: boolean;
  /**
   * Which idle instances go first when the pool shrinks. Instances matching an earlier `selectors`
   * entry go first, then `basePolicy` (`Newest`, `Oldest` or `Random`, seeded from the set's uid). Leased
   * instances never go; outdated ones, standbys and never-ready ones go first whatever the policy.
   * Upstream's controller ignores it. @default basePolicy "Newest", no selectors
   */
  readonly scaleInStrategy?: ScaleInStrategy;
  /**
   * How instances built from an older template revision, or created before `recycleRequestedAt`, are
   * replaced. `Proactive` (gradually, `maxSurge` ahead, at most `maxUnavailable` below the warm
   * buffer), `Opportunistic` (when they recycle or fail) or `Unmanaged` (never). Upstream's controller
   * ignores it. @default type "Proactive", maxSurge the controller's --rollout-surge-percent,
   * maxUnavailable 1
   */
  readonly updateStrategy?: UpdateStrategy;
  /**
   * An RFC 3339 time. Every instance created before it is replaced once, under `updateStrategy` (a
   * declarative flush: refresh images or firmware without a template change). A `Date` is written as
   * RFC 3339 in UTC. Upstream's controller ignores it. @default none
   */
  readonly recycleRequestedAt?: string | Date;
  /**
   * How many recorded revisions (ControllerRevisions owned by the set, absent means 10) that no instance
   * runs are kept for a rollback by `spec.pinnedRevision`; older ones are deleted. Revisions an instance
   * runs, the template's and the pinned one are always kept. @default 10
   */
  readonly revisionHistoryLimit?: number;
  /**
   * A recorded revision of the set (the name of one of its ControllerRevisions, or its revision hash,
   * as status.currentRevision and the instances' exporterset.jumpstarter.dev/template-revision label
   * show) that new instances are built from instead of the template: instances of other revisions are
   * replaced as in a template rollout (leased ones after their lease). It rolls the pool back (or
   * forward); leave it out to follow the template. @default none (the template)
   */
  readonly pinnedRevision?: string;
  /**
   * Forecast warm buffers. With `mode` `ForecastOnly` it shows in status and metrics the forecast of
   * the most leases held at once over the next startup time (seasonal by hour of week, from the set's
   * demand history) and the warm buffer it would set; `Apply` raises `minAvailableReplicas` to it ahead of
   * demand (never lowers it; capped by `maxReplicas` and by `minAvailableReplicas + maxExtra`).
   * Upstream's controller ignores it. @default mode "Off"
   */
  readonly forecast?: ForecastSpec;
  /**
   * Windows that raise the warm buffer on a timetable (working hours, nightly runs, release days). Each
   * opens at every occurrence of its `cron`
   * (five fields, or @daily and the like) in its IANA `timeZone` (default UTC) and lasts `duration`,
   * keeping at least `minAvailableReplicas` warm (and `minReplicas`, if given). The raise starts
   * `leadTime` before the window opens (default: the pool's measured p95 startup, else 2m) so the
   * instances are ready when it opens. Overlapping windows take the maximum; maxReplicas caps it.
   * Durations are Go durations here; cdk8s `Cron` and `Duration` in the cdk8s props. Upstream's
   * controller ignores it. @default none
   */
  readonly schedules?: readonly WarmBufferSchedule[];
  /**
   * Provisioner settings deep-merged over the class's parameters: objects merge, anything else (lists
   * too) replaces. @default none
   */
  readonly parameters?: JsonObject;
  /**
   * Container images for the instances; entries here replace those of the class, except the exporter
   * image of a class with credentialsSecretRef, which only the class may set (the exporter receives the
   * credentials). @default the class's images
   */
  readonly images?: Images;
  /**
   * Selects the set's instances by label; it must select the template's labels. @default matchLabels =
   * the template labels
   */
  readonly selector?: LabelSelector;
  readonly template: ExporterTemplateInput;
}

/** Framework-neutral description of an ExporterSet: what the builder takes. */
export interface ExporterSetInput extends ObjectMetaInput, ExporterSetOptions {
  /** Name of the VirtualTargetClass, in the same namespace, that provisions instances. */
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
      // Our additions are written only when given, so upstream's CRDs admit a set that uses none.
      paused: input.paused,
      scaleInStrategy: input.scaleInStrategy,
      updateStrategy: input.updateStrategy,
      recycleRequestedAt: timestampText(input.recycleRequestedAt),
      revisionHistoryLimit: input.revisionHistoryLimit,
      pinnedRevision: input.pinnedRevision,
      forecast: input.forecast,
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
