/**
 * The status, the pipeline's last step: `calculateStatus` is the one function that makes a set's
 * status — every counter (counters.ts), every condition (set-conditions.ts), the persisted fields
 * (§3.7 window, §3.9 failures, §3.10 next ordinal, template revision), the recorded revisions, the
 * forecast, the lease-wait objectives and the schedules — from one input: the pass's World and what it
 * decided (`PassFacts`, pass-facts.ts), and, once the executor ran, its outcome (ReplicaFailure, the
 * ordinals that landed). The plan's own `status` is the same function before any outcome
 * (plan-result.ts). `statusEquals` decides whether a write is needed (§3.15).
 */
import {
  canonicalJson,
  selectorToString,
  type ExporterSet,
  type ExporterSetStatus,
} from 'virtual-exporters/internal';
import { windowStatus, type DeleteFailure } from '../decide/scale/scale-down';
import { forecastStatus } from '../demand/forecast-buffer';
import { issuedNextOrdinal } from '../model/ordinals';
import { toTimestamp } from '../model/time';
import type { World } from '../observe/world';
import { pinCondition } from '../spec/pinning';
import { revisionStatus } from '../spec/revision-history';
import type { ConditionInputs } from './condition-inputs';
import { statusCounters, type StatusCounters } from './counters';
import type { ExecutionOutcome } from './outcome';
import type { PassFacts } from './pass-facts';
import { podFailures } from './pod-failures';
import { switchConditionOf } from './provisioner-switch';
import { outstandingWrites, withOutcome } from './replica-failure';
import { scheduleReport } from './schedule-report';
import { setConditions } from './set-conditions';

/** Everything the status is made from: what a pass found and what it decided. */
export interface StatusInputs {
  readonly world: World;
  readonly facts: PassFacts;
  /** The live Lease list failed: this pass deletes nothing (decide/scale/scale-down.ts `confirmDeletes`). */
  readonly deleteFailure?: DeleteFailure;
}

/** What the executor did, and when it was seen (the time ReplicaFailure changes carry). */
export interface ObservedOutcome extends ExecutionOutcome {
  readonly now: number;
}

/** Whether two statuses say the same (key order ignored): equal means no write (SPEC §3.15). */
export function statusEquals(a: ExporterSetStatus | undefined, b: ExporterSetStatus | undefined): boolean {
  return canonicalJson(a ?? null) === canonicalJson(b ?? null);
}

/** Each condition's input, from the pass's facts and what the instances and the spec say. */
function conditionInputs(world: World, facts: PassFacts, counters: StatusCounters): ConditionInputs {
  const { spec } = world;
  const booting = counters.startingReplicas ?? 0;
  const { startingNow, ...scaling } = facts.scaling;
  const classMissing = facts.classMissing?.finding;
  return {
    upstream: {
      counters,
      minReplicas: spec.minReplicas,
      maxReplicas: spec.maxReplicas,
      minAvailable: spec.minAvailable,
      ...(facts.classMissing !== undefined ? { classMissing: facts.classMissing.name } : {}),
      podFailures: podFailures(world, facts.health),
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
    switched: switchConditionOf(world),
  };
}

function selectorText(set: ExporterSet): string {
  try {
    return selectorToString(set.spec?.selector);
  } catch {
    return '';
  }
}

/** The set's status from a pass's inputs and, when the executor ran, its outcome. */
export function calculateStatus(inputs: StatusInputs, outcome?: ObservedOutcome): ExporterSetStatus {
  const { world, facts } = inputs;
  const { set, now } = world;
  const { persisted } = facts;
  const counters = statusCounters(world.owned);
  const generation = set.metadata?.generation;
  const planned = setConditions(
    set.status?.conditions,
    conditionInputs(world, facts, counters),
    now,
    generation,
  );
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
      outcome?.now ?? now,
      generation,
    ),
  ];
  const nextOrdinal = outcome
    ? issuedNextOrdinal(persisted.nextOrdinal, set.status?.nextOrdinal, facts.creates, [
        ...outcome.applied,
        ...(outcome.taken ?? []).map((t) => ({ type: 'CreateExporter', name: t.name })),
      ])
    : persisted.nextOrdinal;
  const revisions = revisionStatus(world.historyTracked, set, {
    target: world.revision,
    pinned: world.pin.kind === 'found' ? world.pin.revision : undefined,
    recorded: world.revisions,
    inUse: world.inUse,
    creating: facts.creates.length > 0,
  });
  const forecast = forecastStatus(world.forecast, set.status, now);
  return {
    ...counters,
    selector: selectorText(set),
    conditions,
    ...(generation !== undefined ? { observedGeneration: generation } : {}),
    pendingLeases: world.demand.pending.length,
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
    ...(revisions.current !== undefined ? { currentRevision: revisions.current } : {}),
    ...(revisions.pinned !== undefined ? { pinnedRevision: revisions.pinned } : {}),
    ...(forecast !== undefined ? { forecast } : {}),
    ...world.objectives,
    ...scheduleReport(world),
  };
}
