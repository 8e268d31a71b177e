/**
 * The plan a pass returns, assembled in one place: the actions in the order the executor applies them
 * (model/actions.ts), the status (status/calculate-status.ts), the events, and — §3.15 idle is quiet —
 * no timer but the next real deadline (cooldown end, backoff end, a lease's beginTime, a startup
 * timeout, a schedule window, the end of recent Pod failures). `finalizeStatus` makes the status again
 * once the executor ran.
 */
import type { ExporterSetStatus } from 'virtual-exporters/internal';
import { confirmDeletes } from './decide/scale/scale-down';
import { ACTION_ORDER, type Action } from './model/actions';
import { actionEvents, type PlanEvent } from './model/events';
import { correctionEvents } from './observe/status-read';
import type { World } from './observe/world';
import { calculateStatus, type ObservedOutcome, type StatusInputs } from './status/calculate-status';
import { conditionEvents } from './status/condition-events';
import type { PassFacts } from './status/pass-facts';
import { podFailures } from './status/pod-failures';
import { scheduleEvents } from './status/schedule-report';

export interface Plan {
  /** The writes, in the order to apply them (see model/actions.ts). */
  readonly actions: readonly Action[];
  /**
   * The whole desired status; for a set that is not this controller's to report on, only the switch
   * recorded (handover.ts) or undefined.
   */
  readonly status?: ExporterSetStatus;
  /** What the status is made from: `finalizeStatus` adds the executor's outcome. */
  readonly statusInputs?: StatusInputs;
  /** Look at the set again after this long even if nothing changes; undefined: only on changes. */
  readonly requeueAfterMs?: number;
  readonly events: readonly PlanEvent[];
  /** Why the planner left the set alone, when it did. */
  readonly ignored?: string;
}

/** A plan that leaves the set alone. */
export function leaveAlone(why: string): Plan {
  return { actions: [], events: [], ignored: why };
}

/**
 * The plan of a pass: `actions` ordered, the deletes the live Lease list does not confirm taken out
 * (§3.7; the status still counts them as this pass's writes), the status, events and the next deadline.
 */
export function finishPlan(
  world: World,
  planned: readonly Action[],
  facts: PassFacts,
  extraEvents: readonly PlanEvent[],
  timers: readonly (number | undefined)[],
): Plan {
  const confirmed = confirmDeletes(planned, world.leaseCheck);
  const { actions } = confirmed;
  const inputs: StatusInputs = {
    world,
    facts,
    ...(confirmed.failure ? { deleteFailure: confirmed.failure } : {}),
  };
  const ordered = [...actions].sort((a, b) => ACTION_ORDER.indexOf(a.type) - ACTION_ORDER.indexOf(b.type));
  // A window warming, opening or closing is a deadline too: idle is quiet, but not past a schedule.
  // So is the end of recent Pod failures: Degraded then leaves PodsFailing (status/pod-failures.ts).
  const failuresEnd = podFailures(world, facts.health).recentUntil;
  const due = [...timers, world.schedules.nextChangeAt, failuresEnd].filter(
    (t): t is number => t !== undefined && t > world.now,
  );
  const status = calculateStatus(inputs);
  return {
    actions: ordered,
    status,
    statusInputs: inputs,
    ...(due.length > 0 ? { requeueAfterMs: Math.min(...due) - world.now } : {}),
    events: [
      ...actionEvents(ordered),
      ...extraEvents,
      ...scheduleEvents(world, status.schedules),
      ...correctionEvents(world.corrections),
      ...conditionEvents(world.set.status?.conditions, status.conditions ?? []),
    ],
  };
}

/**
 * The set's status after the executor applied `plan`: every counter and condition, ReplicaFailure from
 * the outcome, and `nextOrdinal` past the creates that landed. For a set that is not this controller's
 * to report on, the plan's status as it is (handover.ts: the switch recorded) or undefined.
 */
export function finalizeStatus(plan: Plan, outcome: ObservedOutcome): ExporterSetStatus | undefined {
  // A plan without inputs reports no outcome: a set handed over carries only its recorded switch.
  return plan.statusInputs ? calculateStatus(plan.statusInputs, outcome) : plan.status;
}
