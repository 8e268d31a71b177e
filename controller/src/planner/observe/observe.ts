/**
 * Observe, the pipeline's first step (plan.ts): the snapshot read once into the facts every later step
 * uses — the spec with defaults, the current template revision, each Exporter classified
 * (instances.ts), creates in flight, the pending demand this set counts (lease-owner.ts) and the first
 * free ordinal (names.ts). The warm buffer every later step sees is the spec's raised by the windows of
 * spec.schedules open now or within their lead time (schedules.ts) and by the forecast in mode Apply
 * (forecast-buffer.ts), the maximum of all (warm-buffer-raise.ts).
 */
import {
  Defaults,
  Labels,
  parseDuration,
  tryParseDuration,
  type ExporterSet,
  type Provisioner,
  type VirtualTargetClass,
} from 'virtual-exporters/internal';
import { instanceLabels } from './exporter';
import {
  classifyInstance,
  inFlightNames,
  type ClassifyContext,
  type InFlightNames,
  type InstanceView,
} from './instances';
import {
  endedLeaseNames,
  everLeasedExporterNames,
  leasedExporterNames,
  pendingDemand,
  type PendingDemand,
} from './leases';
import { ownedDemand } from './lease-owner';
import { objectiveFields, type ObjectiveFields } from './lease-objectives';
import { firstFreeOrdinal } from './names';
import { isPaused } from './off-switch';
import { currentRevision } from './revision';
import { recycleRequestOf, type RecycleRequest } from './requested-recycle';
import { scaleInOrderOf, type ScaleInOrder } from './scale-in-order';
import { recordedRevisions, type RecordedRevision } from './revision-history';
import { resolvePin, viewOf, type Pin } from './pinning';
import { readStatus, type StatusCorrection } from './status-read';
import { updatePolicyOf, type UpdatePolicy } from './update-strategy';
import { decideForecast, forecastSettingsOf, type ForecastDecision } from './forecast-buffer';
import { evaluateSchedules, type ScheduleEvaluation } from './schedules';
import { effectiveBuffer, raisedSpec, type BufferRaise, type EffectiveBuffer } from './warm-buffer-raise';
import {
  resolveOptions,
  type InFlightCreate,
  type LeaseCheck,
  type PlannerOptions,
  type PlannerSnapshot,
} from './snapshot';

/** The spec with defaults applied. */
export interface SpecValues {
  readonly minReplicas: number;
  readonly maxReplicas: number;
  readonly minAvailable: number;
  readonly cooldownMs: number;
  readonly inPlaceReuse: boolean;
  readonly waitForFirstConsumer: boolean;
  readonly retain: boolean;
  /** §3.20: nothing is created or promoted. */
  readonly paused: boolean;
  /** The scale-in order (scale-in-order.ts). */
  readonly scaleIn: ScaleInOrder;
  /** How outdated instances are replaced (update-strategy.ts). */
  readonly update: UpdatePolicy;
  /** The requested recycle (requested-recycle.ts), if the spec names a time. */
  readonly recycle?: RecycleRequest;
}

/** What every step of the planner reads. */
export interface World {
  readonly set: ExporterSet;
  readonly cls: VirtualTargetClass | undefined;
  readonly provisioner: Pick<Provisioner, 'name' | 'validate'>;
  readonly now: number;
  readonly options: PlannerOptions;
  /** The spec with the raised warm buffer in place (warm-buffer-raise.ts): what every rule plans for. */
  readonly spec: SpecValues;
  /** The spec as written, before any raise. */
  readonly baseSpec: SpecValues;
  /** The warm buffer this pass plans for, and the raises that set it. */
  readonly buffer: EffectiveBuffer;
  /** `spec.forecast` not Off: what the forecast found (forecast-buffer.ts). */
  readonly forecast?: ForecastDecision;
  /** spec.schedules at `now` (schedules.ts). */
  readonly schedules: ScheduleEvaluation;
  readonly revision?: string;
  /** `spec.pinnedRevision` resolved (pinning.ts); when found, `set` and `cls` are the pinned view. */
  readonly pin: Pin;
  /** The set's recorded revisions (revision-history.ts). */
  readonly revisions: readonly RecordedRevision[];
  /** Whether the snapshot lists the recorded revisions (else none are recorded or pruned). */
  readonly historyTracked: boolean;
  /** The template's own revision, pinned or not. */
  readonly templateRevision?: string;
  /** Every revision an Exporter of the set carries. */
  readonly inUse: ReadonlySet<string>;
  readonly inFlight: InFlightNames;
  /** The set's own instances: not detached, not being deleted. */
  readonly owned: readonly InstanceView[];
  /** Creates in flight that the cache does not show yet. */
  readonly virtualCreates: readonly InFlightCreate[];
  readonly inFlightCreates: number;
  readonly demand: PendingDemand;
  readonly firstOrdinal: number;
  readonly leaseCheck?: LeaseCheck;
  /** Status fields not used as written (status-read.ts); `set.status` holds what is used instead. */
  readonly corrections: readonly StatusCorrection[];
  /** `status.leaseWait` and `status.startupP95Seconds` (lease-objectives.ts). */
  readonly objectives: ObjectiveFields;
}

/** A count from the wire: a finite number ≥ 0 (floored), else `fallback`. */
export function count(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : fallback;
}

function specValues(set: ExporterSet, cls: VirtualTargetClass | undefined): SpecValues {
  const spec = set.spec ?? ({} as ExporterSet['spec']);
  const recycle = recycleRequestOf(set);
  return {
    minReplicas: count(spec.minReplicas, Defaults.minReplicas),
    maxReplicas: count(spec.maxReplicas, Defaults.maxReplicas),
    minAvailable: count(spec.minAvailableReplicas, Defaults.minAvailableReplicas),
    cooldownMs:
      tryParseDuration(spec.scaleDownCooldown ?? Defaults.scaleDownCooldown) ??
      parseDuration(Defaults.scaleDownCooldown),
    inPlaceReuse: spec.recycleStrategy === 'InPlaceReuse',
    waitForFirstConsumer: cls?.spec?.bindingMode === 'WaitForFirstConsumer',
    retain: cls?.spec?.reclaimPolicy === 'Retain',
    paused: isPaused(set),
    scaleIn: scaleInOrderOf(set),
    update: updatePolicyOf(set),
    ...(recycle !== undefined ? { recycle } : {}),
  };
}

/** The pending leases this set counts (§3.3), one set per lease where selectors overlap (lease-owner.ts). */
function demandOf(snapshot: PlannerSnapshot, labels: Readonly<Record<string, string>>): PendingDemand {
  const found = pendingDemand(snapshot.leases, labels, snapshot.now);
  const self = { set: snapshot.set, classExists: snapshot.virtualTargetClass !== undefined };
  return { ...found, pending: ownedDemand(found.pending, self, snapshot.peers) };
}

/** Every revision an Exporter of the set carries (detached and leaving ones included). */
function revisionsInUse(snapshot: PlannerSnapshot): ReadonlySet<string> {
  const found = new Set<string>();
  for (const { exporter } of snapshot.instances) {
    const revision = exporter.metadata?.labels?.[Labels.templateRevision];
    if (revision) found.add(revision);
  }
  return found;
}

export function observe(snapshot: PlannerSnapshot): World {
  const { now } = snapshot;
  const read = readStatus(snapshot.set.status, now);
  const revisions = recordedRevisions(snapshot.set, snapshot.revisions ?? []);
  const pin = resolvePin(snapshot.set, revisions);
  const live: ExporterSet = { ...snapshot.set, status: read.status };
  const liveClass = snapshot.virtualTargetClass;
  // Pinned to a recorded revision: the set and class are seen as that revision recorded them.
  const { set, cls } = viewOf(live, liveClass, pin);
  const templateRevision = liveClass ? currentRevision(live, liveClass) : undefined;
  // Inputs too deep to hash (§3.19), or a pin to no recorded revision, keep the last revision: existing
  // instances stay current.
  const revision = !cls
    ? undefined
    : pin.kind === 'found'
      ? pin.revision.hash
      : pin.kind === 'unknown'
        ? (set.status?.templateRevision ?? templateRevision)
        : (templateRevision ?? set.status?.templateRevision);
  const inFlight = inFlightNames(snapshot.inFlight);
  const options = resolveOptions(snapshot.options);
  const baseSpec = specValues(set, cls);
  // Schedules are no part of a revision: the live set's apply, pinned or not.
  const schedules = evaluateSchedules(live.spec?.schedules, now, snapshot.startupP95Ms);
  const context: ClassifyContext = {
    set,
    revision,
    leased: leasedExporterNames(snapshot.leases),
    everLeased: everLeasedExporterNames(snapshot.leases),
    endedLeases: endedLeaseNames(snapshot.leases),
    inFlight,
    ...(baseSpec.recycle !== undefined ? { recycle: baseSpec.recycle } : {}),
    startup: {
      now,
      ...(snapshot.observingSince !== undefined ? { observingSince: snapshot.observingSince } : {}),
      timeoutMs: options.startupTimeoutMs,
      backoffMaxMs: options.startupBackoffMaxMs,
    },
  };
  const views = snapshot.instances.map((instance) => classifyInstance(instance, context));
  const known = new Set(views.map((v) => v.name));
  const creating = snapshot.inFlight?.creating ?? [];
  const labels = instanceLabels(set, revision ?? set.status?.templateRevision ?? '', false);
  const firstOrdinal = firstFreeOrdinal(set, [...known, ...creating.map((c) => c.name)], snapshot.leases);
  const demand = demandOf(snapshot, labels);
  const owned = views.filter((v) => v.state !== 'detached' && v.state !== 'deleting');
  const forecast = decideForecast({
    settings: forecastSettingsOf(set),
    spec: baseSpec,
    history: snapshot.demandHistory,
    now,
    ...(snapshot.startupP95Ms !== undefined ? { startupP95Ms: snapshot.startupP95Ms } : {}),
    held: owned.filter((v) => v.leased).length + demand.pending.length,
  });
  // Issue 17: every raise of this pass, the open windows' and the forecast's (mode Apply); the
  // maximum holds, never above the ceiling.
  const raises: BufferRaise[] = [...schedules.raises, ...(forecast?.raise ? [forecast.raise] : [])];
  const buffer = effectiveBuffer(baseSpec, raises);
  return {
    set,
    cls,
    provisioner: snapshot.provisioner,
    now,
    options,
    spec: raisedSpec(baseSpec, buffer),
    baseSpec,
    buffer,
    schedules,
    ...(forecast !== undefined ? { forecast } : {}),
    ...(revision !== undefined ? { revision } : {}),
    pin,
    revisions,
    historyTracked: snapshot.revisions !== undefined,
    ...(templateRevision !== undefined ? { templateRevision } : {}),
    inUse: revisionsInUse(snapshot),
    inFlight,
    owned,
    virtualCreates: creating.filter((c) => !known.has(c.name)),
    inFlightCreates: creating.length,
    demand,
    firstOrdinal,
    ...(snapshot.leaseCheck !== undefined ? { leaseCheck: snapshot.leaseCheck } : {}),
    corrections: read.corrections.map((c) =>
      c.field === 'status.nextOrdinal' ? { ...c, used: `${c.used}: ${firstOrdinal}` } : c,
    ),
    objectives: objectiveFields(snapshot),
  };
}
