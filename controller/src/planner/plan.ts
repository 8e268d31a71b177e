/**
 * The pure planner (SPEC §3): one ExporterSet's world in (a {@link PlannerSnapshot}), the writes to
 * make, the status to report, the events to emit and when to look again out. No I/O and no clock:
 * `snapshot.now` is the time, so a pass replays exactly.
 *
 * The pipeline, each step in its own file (ARCHITECTURE.md maps every §3 rule to its file):
 *
 * 1. observe (observe.ts): the spec with defaults, each instance classified (instances.ts), demand;
 *    the warm buffer raised by the forecast in mode Apply (forecast-buffer.ts, warm-buffer-raise.ts),
 *    so every later rule plans for the raised spec;
 * 2. gates (class-and-parameters.ts §3.13, startup-failures.ts §3.9): a set of another provisioner is
 *    left alone but for the instances this controller made (handover.ts), a set being deleted drains (deletion.ts §3.12), a missing class changes nothing,
 *    nor does a pin to a revision never recorded (pin-not-found.ts);
 *    invalid parameters or spec create nothing, the startup backoff starts no Pod;
 * 3. members (members.ts): kept, leaving (leaving.ts) and recycled in place (recycle.ts §3.8);
 * 4. scale (scale.ts): §3.1–3.3 floor-buffer-demand.ts, §3.4–3.5 ceiling-burst.ts, §3.6 standby.ts,
 *    §3.7 scale-down.ts, §3.14 rollout.ts;
 * 5. names (names.ts §3.10);
 * 6. pods and configs (pods-and-configs.ts), our labels on adopted instances (adoption.ts §3.16), the
 *    revision history: the target revision recorded, unused ones pruned (revision-history.ts; a pinned
 *    set is seen as its revision recorded it from step 1 on, pinning.ts);
 * 7. status (status.ts `finalizeStatus`), events and the next deadline (plan-result.ts §3.15), with
 *    the requested recycle's completion (requested-recycle.ts).
 *
 * The pool-operation fields (issue 16) act inside these steps: the scale-in policy orders the victims
 * (scale-in-order.ts, via members.ts), the update strategy paces §3.14 (update-strategy.ts) and a
 * requested recycle marks instances outdated (requested-recycle.ts, via instances.ts).
 *
 * Scheduled warm buffers (issue 17) act in step 1: the windows of spec.schedules open now or within
 * their lead time (schedules.ts) raise the spec every later step reads (warm-buffer-raise.ts); step 7
 * reports them (schedule-report.ts: status, events) and wakes up at the next window change.
 */
import { DRAIN_FINALIZER, type VirtualTargetClass } from 'virtual-exporters/internal';
import type { Action, CreateExporterAction } from './actions';
import { adoptionLabels } from './adoption';
import { burstRoom, ceilingRoom, promotionRoom } from './ceiling-burst';
import { gates, notOurs, planClassMissing, type Gates } from './class-and-parameters';
import { planDrain } from './deletion';
import { startupFailureEvents } from './events';
import { promotePatch } from './exporter';
import { leavingActions } from './leaving';
import { sortMembers, type Members } from './members';
import { nameCreates } from './names';
import { observe, type World } from './observe';
import { reasonsOf } from './outcome';
import { finishPlan, type Plan } from './plan-result';
import { planHandover } from './handover';
import { planPinNotFound } from './pin-not-found';
import { podsAndConfigs } from './pods-and-configs';
import { replacePods } from './recycle';
import { recycleReport, type RecycleReport } from './requested-recycle';
import { revisionActions } from './revision-history';
import { outdatedCount } from './rollout';
import type { InstanceView } from './instances';
import { decideScale, type PlannedRemoval, type ScaleDecision } from './scale';
import { persistedWindow } from './scale-down';
import type { PlannerSnapshot } from './snapshot';
import { enabledToKeep, finishPromotions } from './standby';
import {
  awaitingCredential,
  backoffDelay,
  nextStartupDeadline,
  settleStartupFailures,
  startupFailuresOf,
  type StartupFailureState,
} from './startup-failures';
import { statusInputs, type StatusInputs } from './status';

export type { Plan } from './plan-result';

export function plan(snapshot: PlannerSnapshot): Plan {
  const world = observe(snapshot);
  const switched = notOurs(world);
  if (switched !== undefined) return planHandover(world, switched);
  if (world.set.metadata?.deletionTimestamp !== undefined) return planDrain(world);
  if (world.cls === undefined) return planClassMissing(world);
  if (world.pin.kind === 'unknown') return planPinNotFound(world, world.cls);
  return planPool(world, world.cls);
}

function planPool(world: World, cls: VirtualTargetClass): Plan {
  const startup = startupFailuresOf(world);
  const gate = gates(world, cls, startup);
  const sorted = sortMembers(world);
  const scaled = keepOneEnabled(world, sorted, scale(world, sorted, gate));
  const creates = nameCreates(world, scaled.decision.creates);
  const pods = podsAndConfigs(
    world,
    { canStartPods: gate.canRenderPods, parametersValid: gate.invalidParameters === undefined },
    scaled.removed,
    scaled.promoted,
  );
  const actions: Action[] = [
    // §3.12: a set of ours gets the drain finalizer first (the executor applies nothing else without it).
    ...((world.set.metadata?.finalizers ?? []).includes(DRAIN_FINALIZER)
      ? []
      : [{ type: 'AddFinalizer' } as const]),
    ...creates,
    ...scaled.decision.promote.map(
      ({ name, reason }) => ({ type: 'PromoteStandby', name, reason, patch: promotePatch() }) as const,
    ),
    ...finishPromotions(world, scaled.removed, scaled.promoted),
    ...pods.actions,
    ...adoptionLabels(world, scaled.removed, sorted.leaving),
    ...replacePods(sorted.replacing, scaled.removed),
    ...leavingActions(world, sorted.leaving, scaled.removals, scaled.byName, scaled.kept),
    ...revisionActions(world.historyTracked, {
      set: world.set,
      cls,
      target: world.revision,
      template: world.templateRevision,
      pinned: world.pin.kind === 'found' ? world.pin.revision.hash : undefined,
      recorded: world.revisions,
      inUse: world.inUse,
      creating: creates.length > 0,
      createsInFlight: world.inFlightCreates > 0,
    }),
  ];
  const failures = settleStartupFailures(startup, {
    backoffOver: startup.backoffUntil === undefined,
    wantsPodStart:
      scaled.decision.promote.length > 0 ||
      scaled.decision.creates.some((c) => !c.standby) ||
      // Creates the ceiling holds back start nothing: no crash loop can go on, so the failures may
      // settle (else InstancesHealthy would say "backing off" for as long as the pool is full).
      (scaled.decision.deferred > 0 && !scaled.decision.limited) ||
      pods.rendering > 0,
    anyStartingOrFailed: world.owned.some(
      (v) => v.state === 'starting' || v.state === 'failed' || v.state === 'exited',
    ),
  });
  const recycle = recycleReport(world.set, world.spec.recycle, world.owned);
  const status = poolStatus(world, gate, sorted, scaled, {
    creates,
    actions,
    failures,
    rendering: pods.rendering,
    recycle,
  });
  const window = scaled.decision.window;
  return finishPlan(
    world,
    actions,
    status,
    [...startupFailureEvents(failures.newlyFailed, failures.backoffUntil), ...recycle.events],
    [
      window ? window.start + world.spec.cooldownMs : undefined,
      failures.backoffUntil,
      world.demand.nextBeginTime,
      nextStartupDeadline(world),
      // The forecast's horizon reaches its next hour: a forecast peak warms on time without an event.
      world.forecast?.nextChange,
    ],
  );
}

/** The scale decision with this pass's removals settled. */
interface Scaled {
  readonly decision: ScaleDecision;
  readonly byName: ReadonlyMap<string, InstanceView>;
  /** The instance held back from leaving (§3.6), if any. */
  readonly kept?: string;
  readonly removals: readonly PlannedRemoval[];
  readonly removed: ReadonlySet<string>;
  readonly promoted: ReadonlySet<string>;
}

/** §3.6: when no standby can take over, one of the last enabled instances stays. */
function keepOneEnabled(world: World, sorted: Members, decision: ScaleDecision): Scaled {
  const byName = new Map(world.owned.map((v) => [v.name, v]));
  const { members, leaving } = sorted;
  const kept = enabledToKeep(members, decision.creates.length, decision.removals, leaving, byName);
  const removals = decision.removals.filter((r) => r.name !== kept);
  return {
    decision,
    byName,
    ...(kept !== undefined ? { kept } : {}),
    removals,
    removed: new Set(removals.map((r) => r.name)),
    promoted: new Set(decision.promote.map((p) => p.name)),
  };
}

function poolStatus(
  world: World,
  gate: Gates,
  sorted: Members,
  { decision, removals, removed }: Scaled,
  pass: {
    readonly creates: readonly CreateExporterAction[];
    readonly actions: readonly Action[];
    readonly failures: StartupFailureState;
    readonly rendering: number;
    readonly recycle: RecycleReport;
  },
): StatusInputs {
  const { spec } = world;
  const { window } = decision;
  const { failures } = pass;
  const revision = world.revision ?? '';
  return statusInputs(world, {
    ...(gate.invalidParameters !== undefined ? { invalidParameters: gate.invalidParameters } : {}),
    spec: {
      selectorMatchesTemplate: gate.selectorMatchesTemplate,
      ...(gate.invalidSpec !== undefined ? { invalidSpec: gate.invalidSpec } : {}),
      ...(gate.scheduleFindings !== undefined ? { scheduleFindings: gate.scheduleFindings } : {}),
    },
    scaling: {
      outdated: outdatedCount(world.owned, removed, gate.canCreate, world.spec.update),
      revision,
      ...(world.spec.recycle && pass.recycle.pending > 0
        ? { recycle: { pending: pass.recycle.pending, requestedAt: world.spec.recycle.at } }
        : {}),
      startingNow: decision.creates.length + decision.promote.length,
      rendering: pass.rendering,
      deferred: decision.deferred,
      leaving: removals.length + sorted.leaving.length,
      ...(window
        ? {
            window: {
              ...window,
              dueAt: window.start + spec.cooldownMs,
              surplus: Math.max(0, decision.surplus - removals.length),
            },
          }
        : {}),
      ...(decision.limited ? { limited: { maxReplicas: spec.maxReplicas, wanted: decision.wanted } } : {}),
    },
    health: healthFacts(world, failures),
    plannedWrites: reasonsOf(pass.actions),
    persisted: {
      nextOrdinal: world.firstOrdinal + pass.creates.length,
      ...(window ? { window } : {}),
      startupFailures: failures.failures,
      ...(failures.lastFailureTime !== undefined ? { lastStartupFailureTime: failures.lastFailureTime } : {}),
      templateRevision: revision,
      ...(pass.recycle.lastCompleted !== undefined
        ? { lastCompletedRecycle: pass.recycle.lastCompleted }
        : {}),
    },
    creates: pass.creates,
  });
}

function scale(world: World, { members, leaving }: Members, gate: Gates): ScaleDecision {
  const { spec } = world;
  return decideScale({
    members,
    req: {
      minReplicas: spec.minReplicas,
      minAvailable: spec.minAvailable,
      pending: world.demand.pending.length,
      waitForFirstConsumer: spec.waitForFirstConsumer,
    },
    canCreate: gate.canCreate,
    canStartPods: gate.canStartPods,
    ceilingRoom: ceilingRoom(world),
    promotionRoom: promotionRoom(world, leaving),
    burstRoom: burstRoom(world),
    maxReplicas: spec.maxReplicas,
    leaving: leaving.length,
    surgePercent: world.options.rolloutSurgePercent,
    update: spec.update,
    window: persistedWindow(world.set.status),
    cooldownMs: spec.cooldownMs,
    now: world.now,
  });
}

function healthFacts(world: World, failures: StartupFailureState) {
  const waits = awaitingCredential(world);
  return {
    ...(waits !== undefined ? { awaitingCredential: waits } : {}),
    startupFailures: failures.failures,
    ...(failures.lastFailureTime !== undefined ? { lastStartupFailureTime: failures.lastFailureTime } : {}),
    backoffMs: backoffDelay(failures.failures, world.options),
  };
}
