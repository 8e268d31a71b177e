/**
 * The pure planner (SPEC §3): one ExporterSet's world in (a {@link PlannerSnapshot}), the writes to
 * make, the status to report, the events to emit and when to look again out. No I/O and no clock:
 * `snapshot.now` is the time, so a pass replays exactly.
 *
 * The folders are the stages, each importing only the ones before it: model (the snapshot, actions,
 * events, time) → spec (the spec read and checked) → demand (leases owned, forecast, schedules) →
 * observe (the World) → decide (gates, members, scale/) → status → this file and the gate plans.
 * A pass:
 *
 * 1. observe (observe/observe.ts): the spec with defaults, each instance classified
 *    (observe/instances.ts), demand; the warm buffer raised by open schedule windows and the forecast
 *    in mode Apply (demand/warm-buffer-raise.ts), so every later rule plans for the raised spec;
 * 2. gates: a set of another provisioner is left alone but for the instances this controller made
 *    (handover.ts), a set being deleted drains (deletion.ts §3.12), a missing class changes nothing
 *    but the ceiling, nor does a pin to a revision never recorded (standing-still.ts, pin-not-found.ts,
 *    decide/scale/ceiling-hold.ts); invalid
 *    parameters or spec create nothing, the startup backoff starts no Pod (decide/gates.ts §3.13,
 *    decide/startup-failures.ts §3.9);
 * 3. members (decide/members.ts): kept, leaving (decide/leaving.ts) and recycled in place
 *    (decide/recycle.ts §3.8);
 * 4. scale (decide/scale/scale.ts), by the rules below;
 * 5. names (decide/names.ts §3.10);
 * 6. Pods and configs (decide/pods-and-configs.ts), our labels on adopted instances
 *    (decide/adoption.ts §3.16), the revision history: the target revision recorded, unused ones
 *    pruned (spec/revision-history.ts; a pinned set is seen as its revision recorded it from step 1 on,
 *    spec/pinning.ts);
 * 7. status (status/pass-facts.ts → status/calculate-status.ts), events and the next deadline
 *    (plan-result.ts §3.15), with the requested recycle's completion (status/recycle-report.ts).
 *
 * The scaling rules, in priority order (a rule yields to every rule above it):
 *
 * 1. a leased instance is never disabled, deleted or counted as supply (decide/members.ts keeps it);
 * 2. a paused set, invalid parameters or spec create and promote nothing; the startup backoff starts
 *    no Pod (decide/gates.ts, §3.20, §3.13, §3.9);
 * 3. the ceiling (§3.4) bounds the pool and the burst (§3.5) the creates in flight; above the ceiling
 *    idle instances are surplus until the pool fits, no rule waiting for a replacement the ceiling
 *    forbids — a set standing still (missing class, unknown pin) comes down to it too
 *    (decide/scale/ceiling-burst.ts, decide/scale/ceiling-hold.ts);
 * 4. never leave nothing enabled: a standby stays or is made (§3.6, decide/scale/standby.ts); only a
 *    Pod-less standby may stand beyond the ceiling, while every instance filling it is on its way out
 *    (SPEC §2) — a scale-down victim a lease took as it was disabled included, so no running instance
 *    is kept enabled beyond the ceiling for it;
 * 5. the floor, the warm buffer and demand (§3.1–3.3): current standbys promoted first, then instances
 *    created (decide/scale/floor-buffer-demand.ts);
 * 6. outdated instances are replaced without breaking the warm buffer, paced by the update strategy
 *    (§3.14, decide/scale/rollout.ts, spec/update-strategy.ts);
 * 7. idle surplus leaves once it lasted scaleDownCooldown, in victim order (§3.7,
 *    decide/scale/scale-down.ts, decide/scale/victim-order.ts, spec/scale-in-order.ts);
 * 8. an instance whose realisation ended is recycled: replaced in place or leaving (§3.8,
 *    decide/recycle.ts); a requested recycle marks instances outdated (spec/requested-recycle.ts).
 *
 * Scheduled warm buffers act in step 1: the windows of spec.schedules open now or within their lead
 * time (demand/schedules.ts) raise the spec every later step reads; step 7 reports them
 * (status/schedule-report.ts: status, events) and wakes up at the next window change.
 */
import { DRAIN_FINALIZER, type VirtualTargetClass } from 'virtual-exporters/internal';
import { adoptionLabels } from './decide/adoption';
import { gates, notOurs, type Gates } from './decide/gates';
import { leavingActions } from './decide/leaving';
import { sortMembers, type Members } from './decide/members';
import { nameCreates } from './decide/names';
import { podsAndConfigs } from './decide/pods-and-configs';
import { replacePods } from './decide/recycle';
import { burstRoom, ceilingRoom, heldLeaving, promotionRoom } from './decide/scale/ceiling-burst';
import { decideScale } from './decide/scale/scale';
import { persistedWindow } from './decide/scale/scale-down';
import { enabledToKeep, finishPromotions } from './decide/scale/standby';
import type { PlannedRemoval, ScaleDecision } from './decide/scale/types';
import {
  nextStartupDeadline,
  settleStartupFailures,
  startupFailureEvents,
  startupFailuresOf,
} from './decide/startup-failures';
import { planDrain } from './deletion';
import { planHandover } from './handover';
import type { Action } from './model/actions';
import { promotePatch } from './model/exporter';
import type { PlannerSnapshot } from './model/snapshot';
import type { InstanceView } from './observe/instance-view';
import { observe } from './observe/observe';
import type { World } from './observe/world';
import { planPinNotFound } from './pin-not-found';
import { finishPlan, type Plan } from './plan-result';
import { revisionActions } from './spec/revision-history';
import { planClassMissing } from './standing-still';
import { poolFacts } from './status/pass-facts';
import { recycleReport } from './status/recycle-report';

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
  const facts = poolFacts(world, {
    gate,
    decision: scaled.decision,
    removals: scaled.removals,
    removed: scaled.removed,
    leaving: sorted.leaving.length,
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
    facts,
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
    leavingHeld: heldLeaving(world),
    surgePercent: world.options.rolloutSurgePercent,
    update: spec.update,
    window: persistedWindow(world.set.status),
    cooldownMs: spec.cooldownMs,
    now: world.now,
  });
}
