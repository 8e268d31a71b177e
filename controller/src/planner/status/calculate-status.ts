/**
 * The status, the pipeline's last step (plan.ts): `finalizeStatus` is the one function that writes the
 * set's status — counters, every condition, the persisted fields (§3.7 window, §3.9 failures, §3.10
 * next ordinal, template revision), the lease-wait objectives (lease-objectives.ts) — from what a pass
 * found and decided (`StatusInputs`) and, once the executor ran, its outcome (ReplicaFailure, the
 * ordinals that landed). The plan's own `status` is the same function before any outcome. `statusEquals` decides whether a write is needed (§3.15).
 */
import {
  canonicalJson,
  selectorToString,
  type ExporterSet,
  type ExporterSetStatus,
  type ForecastStatus,
} from 'virtual-exporters/internal';
import { forecastStatus } from './forecast-buffer';
import type { CreateExporterAction } from './actions';
import type { InstanceView } from './instances';
import type { ObjectiveFields } from './lease-objectives';
import { issuedNextOrdinal } from './names';
import { count, type World } from './observe';
import type { ExecutionOutcome } from './outcome';
import type { Plan } from './plan';
import { persistedWindow, windowStatus, type DeleteFailure, type ScaleDownWindow } from './scale-down';
import {
  outstandingWrites,
  setConditions,
  withOutcome,
  type ConditionInputs,
  type HealthInput,
  type ScalingInput,
} from './set-conditions';
import type { SpecChecks } from './class-and-parameters';
import { pinCondition } from './pinning';
import { revisionStatus, type RevisionStatus } from './revision-history';
import { scheduleReport, type ScheduleReport } from './schedule-report';
import { toMillis, toTimestamp } from './snapshot';

/** The counter fields of ExporterSetStatus. */
export type StatusCounters = Pick<
  ExporterSetStatus,
  | 'replicas'
  | 'readyReplicas'
  | 'availableReplicas'
  | 'unavailableReplicas'
  | 'leasedReplicas'
  | 'exportersActive'
  | 'exportersDisabled'
  | 'exportersIdle'
  | 'exportersOffline'
  | 'podsFailed'
  | 'podsPending'
  | 'podsRunning'
  | 'podsUnknown'
  | 'startingReplicas'
  | 'standbyReplicas'
  | 'updatedReplicas'
>;

/**
 * Counters over the set's instances (detached and deleting ones excluded), with upstream's meanings
 * (INTEROP §1.3): replicas = all, standbys and retiring ones included; ready = Online; available =
 * Online, enabled, not leased; unavailable = enabled, not Online; leased = held by a non-ended lease;
 * and each instance in exactly one of exportersActive (enabled, leased, Online), exportersIdle
 * (enabled, Online, not leased), exportersDisabled (`spec.enabled: false`) and exportersOffline
 * (enabled, not Online); Pods by phase — read from the runtime (runtime.ts), so an instance without a
 * Pod counts by its observed state (Unknown counts Succeeded / exited, as upstream's does). Ours: starting,
 * standby, updated (current template revision).
 *
 * The one judged deviation: a standby (an Exporter kept without a Pod by design so leases wait, SPEC
 * §3.6; upstream has none) is not in `unavailableReplicas`, so it never makes upstream's Progressing
 * or Degraded True; it is in `replicas` and `exportersOffline`, so the four-way split still holds.
 */
export function statusCounters(instances: readonly InstanceView[]): StatusCounters {
  const count = (predicate: (v: InstanceView) => boolean): number => instances.filter(predicate).length;
  return {
    replicas: instances.length,
    readyReplicas: count((v) => v.online),
    availableReplicas: count((v) => v.online && v.enabled && !v.leased),
    unavailableReplicas: count((v) => v.enabled && !v.online && !v.standby),
    leasedReplicas: count((v) => v.leased),
    exportersActive: count((v) => v.enabled && v.leased && v.online),
    exportersDisabled: count((v) => !v.enabled),
    exportersIdle: count((v) => v.enabled && v.online && !v.leased),
    exportersOffline: count((v) => v.enabled && !v.online),
    podsFailed: count((v) => v.runtime.state === 'failed'),
    podsPending: count((v) => v.runtime.state === 'realising'),
    podsRunning: count((v) => v.runtime.state === 'running'),
    podsUnknown: count((v) => v.runtime.state === 'unknown' || v.runtime.state === 'exited'),
    startingReplicas: count((v) => v.state === 'starting'),
    standbyReplicas: count((v) => v.state === 'standby'),
    updatedReplicas: count((v) => v.current),
  };
}

/** Whether two statuses say the same (key order ignored): equal means no write (SPEC §3.15). */
export function statusEquals(a: ExporterSetStatus | undefined, b: ExporterSetStatus | undefined): boolean {
  return canonicalJson(a ?? null) === canonicalJson(b ?? null);
}

/** The fields the status carries from pass to pass. */
export interface PersistedFields {
  readonly nextOrdinal: number;
  readonly window?: ScaleDownWindow;
  readonly startupFailures: number;
  readonly lastStartupFailureTime?: number;
  readonly templateRevision?: string;
  /** `status.lastCompletedRecycle` (requested-recycle.ts). */
  readonly lastCompletedRecycle?: number;
}

/** The persisted fields as the status has them (for passes that change nothing). */
export function persistedAsIs(world: World): PersistedFields {
  const status = world.set.status;
  const window = persistedWindow(status);
  const last = toMillis(status?.lastStartupFailureTime);
  const revision = world.revision ?? status?.templateRevision;
  const recycled = toMillis(status?.lastCompletedRecycle);
  return {
    nextOrdinal: world.firstOrdinal,
    ...(window.start !== undefined && window.target !== undefined
      ? { window: { start: window.start, target: window.target } }
      : {}),
    startupFailures: count(status?.startupFailures, 0),
    ...(last !== undefined ? { lastStartupFailureTime: last } : {}),
    ...(revision !== undefined ? { templateRevision: revision } : {}),
    ...(recycled !== undefined ? { lastCompletedRecycle: recycled } : {}),
  };
}

/** Everything `finalizeStatus` reads: what a pass found and decided. */
export interface StatusInputs {
  readonly set: ExporterSet;
  readonly now: number;
  readonly counters: StatusCounters;
  readonly pendingLeases: number;
  readonly conditions: ConditionInputs;
  readonly persisted: PersistedFields;
  /** This pass's creates (their ordinals are issued only when they land). */
  readonly creates: readonly CreateExporterAction[];
  /** The live Lease list failed: this pass deletes nothing (scale-down.ts `confirmDeletes`). */
  readonly deleteFailure?: DeleteFailure;
  /** The recorded revisions the status names (revision-history.ts). */
  readonly revisions?: RevisionStatus;
  /** `status.forecast` (forecast-buffer.ts), while the forecast's mode is not Off. */
  readonly forecast?: ForecastStatus;
  /** The lease-wait and startup objectives (lease-objectives.ts). */
  readonly objectives?: ObjectiveFields;
  /** The schedules' windows and the raised warm buffer (schedule-report.ts). */
  readonly schedules?: ScheduleReport;
}

/** What a pass decided, as the status reports it. */
export interface PassFacts {
  readonly classMissing?: { readonly name: string; readonly finding: string };
  readonly spec: SpecChecks;
  readonly invalidParameters?: string;
  /** Scaling's input, but for the counts read from the instances. */
  readonly scaling: Omit<ScalingInput, 'replicas' | 'starting'> & {
    /** This pass's creates and promotions. */
    readonly startingNow: number;
  };
  readonly health: Omit<HealthInput, 'offline'>;
  /** The kinds of write this pass sends (outcome.ts `reasonsOf`). */
  readonly plannedWrites: ReadonlySet<string>;
  readonly persisted: PersistedFields;
  readonly creates: readonly CreateExporterAction[];
}

/** The status inputs of a pass: `facts` with what the instances and the spec say. */
export function statusInputs(world: World, facts: PassFacts): StatusInputs {
  const { spec } = world;
  const counters = statusCounters(world.owned);
  const booting = counters.startingReplicas ?? 0;
  const { startingNow, ...scaling } = facts.scaling;
  const classMissing = facts.classMissing?.finding;
  const forecast = forecastStatus(world.forecast, world.set.status, world.now);
  return {
    ...(forecast !== undefined ? { forecast } : {}),
    set: world.set,
    now: world.now,
    counters,
    pendingLeases: world.demand.pending.length,
    persisted: facts.persisted,
    creates: facts.creates,
    objectives: world.objectives,
    schedules: scheduleReport(world),
    revisions: revisionStatus(world.historyTracked, world.set, {
      target: world.revision,
      pinned: world.pin.kind === 'found' ? world.pin.revision : undefined,
      recorded: world.revisions,
      inUse: world.inUse,
      creating: facts.creates.length > 0,
    }),
    conditions: {
      upstream: {
        counters,
        minReplicas: spec.minReplicas,
        maxReplicas: spec.maxReplicas,
        minAvailable: spec.minAvailable,
        ...(facts.classMissing !== undefined ? { classMissing: facts.classMissing.name } : {}),
      },
      warmBuffer: {
        ...(classMissing !== undefined ? { classMissing } : {}),
        available: world.owned.filter((v) => v.state === 'available').length,
        standbys: spec.waitForFirstConsumer ? (counters.standbyReplicas ?? 0) : 0,
        minAvailable: spec.minAvailable,
      },
      scaling: {
        ...scaling,
        replicas: counters.replicas,
        starting: booting + world.virtualCreates.length + startingNow,
      },
      health: {
        ...facts.health,
        offline: world.owned
          .filter((v) => v.state === 'offline')
          .map((v) => v.name)
          .sort(),
        unobserved: world.owned
          .filter((v) => v.source.observation?.state === 'unknown')
          .map((v) => `${v.name}: ${v.runtime.message ?? v.runtime.reason ?? 'its state cannot be told'}`)
          .sort(),
      },
      spec: facts.spec,
      replicaFailure: {
        outstanding: outstandingWrites({
          planned: facts.plannedWrites,
          deferred: facts.scaling.deferred,
          limited: facts.scaling.limited !== undefined,
          underway: booting + world.virtualCreates.length + facts.scaling.rendering,
        }),
      },
      parameters: {
        ...(classMissing !== undefined ? { classMissing } : {}),
        ...(facts.invalidParameters !== undefined ? { invalidParameters: facts.invalidParameters } : {}),
        provisionerName: world.provisioner.name,
      },
      offSwitch: { paused: spec.paused, maxReplicas: spec.maxReplicas },
      pin: pinCondition(world.pin, world.set.status?.conditions, world.set.metadata?.name ?? ''),
    },
  };
}

function selectorText(set: ExporterSet): string {
  try {
    return selectorToString(set.spec?.selector);
  } catch {
    return '';
  }
}

/** What the executor did, and when it was seen (the time ReplicaFailure changes carry). */
export interface ObservedOutcome extends ExecutionOutcome {
  readonly now: number;
}

/** The status from a pass's inputs and, when the executor ran, its outcome. */
export function statusOf(inputs: StatusInputs, outcome?: ObservedOutcome): ExporterSetStatus {
  const { set, persisted } = inputs;
  const generation = set.metadata?.generation;
  const planned = setConditions(set.status?.conditions, inputs.conditions, inputs.now, generation);
  // A failed create of the executor is reported before the planner's unconfirmed deletes.
  const replicaFailure = outcome?.replicaFailure ?? inputs.deleteFailure;
  const conditions = [
    ...withOutcome(
      planned,
      {
        changedReplicas: outcome?.changedReplicas ?? false,
        ...(outcome?.succeeded ? { succeeded: outcome.succeeded } : {}),
        ...(replicaFailure ? { replicaFailure } : {}),
      },
      outcome?.now ?? inputs.now,
      generation,
    ),
  ];
  const nextOrdinal = outcome
    ? issuedNextOrdinal(persisted.nextOrdinal, set.status?.nextOrdinal, inputs.creates, [
        ...outcome.applied,
        ...(outcome.taken ?? []).map((t) => ({ type: 'CreateExporter', name: t.name })),
      ])
    : persisted.nextOrdinal;
  return {
    ...inputs.counters,
    selector: selectorText(set),
    conditions,
    ...(generation !== undefined ? { observedGeneration: generation } : {}),
    pendingLeases: inputs.pendingLeases,
    ...(persisted.templateRevision !== undefined ? { templateRevision: persisted.templateRevision } : {}),
    nextOrdinal,
    ...windowStatus(persisted.window),
    startupFailures: persisted.startupFailures,
    ...(persisted.lastStartupFailureTime !== undefined
      ? { lastStartupFailureTime: toTimestamp(persisted.lastStartupFailureTime) }
      : {}),
    ...(persisted.lastCompletedRecycle !== undefined
      ? { lastCompletedRecycle: toTimestamp(persisted.lastCompletedRecycle) }
      : {}),
    ...(inputs.revisions?.current !== undefined ? { currentRevision: inputs.revisions.current } : {}),
    ...(inputs.revisions?.pinned !== undefined ? { pinnedRevision: inputs.revisions.pinned } : {}),
    ...(inputs.forecast !== undefined ? { forecast: inputs.forecast } : {}),
    ...inputs.objectives,
    ...inputs.schedules,
  };
}

/**
 * The set's status after the executor applied `plan`: every counter and condition, ReplicaFailure from
 * the outcome, and `nextOrdinal` past the creates that landed. Undefined when the set is not this
 * controller's to report on.
 */
export function finalizeStatus(plan: Plan, outcome: ObservedOutcome): ExporterSetStatus | undefined {
  return plan.statusInputs ? statusOf(plan.statusInputs, outcome) : undefined;
}
