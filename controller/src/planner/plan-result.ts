/**
 * The plan a pass returns, assembled in one place: the actions in the order the executor applies them
 * (actions.ts), the status (status.ts), the events, and — §3.15 idle is quiet — no timer but the next
 * real deadline (cooldown end, backoff end, a lease's beginTime, a startup timeout).
 */
import type { ExporterSetStatus } from 'virtual-exporters/internal';
import { ACTION_ORDER, type Action } from './actions';
import { actionEvents, conditionEvents, type PlanEvent } from './events';
import { scheduleEvents } from './schedule-report';
import { correctionEvents } from './status-read';
import type { World } from './observe';
import { confirmDeletes } from './scale-down';
import { statusOf, type StatusInputs } from './status';

export interface Plan {
  /** The writes, in the order to apply them (see actions.ts). */
  readonly actions: readonly Action[];
  /** The whole desired status; undefined when the set is not this controller's to report on. */
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
 * (§3.7; the status still counts them as this pass's writes, as the executor used to skip them), the
 * status, events and the next deadline.
 */
export function finishPlan(
  world: World,
  planned: readonly Action[],
  planInputs: StatusInputs,
  extraEvents: readonly PlanEvent[],
  timers: readonly (number | undefined)[],
): Plan {
  const confirmed = confirmDeletes(planned, world.leaseCheck);
  const { actions } = confirmed;
  const inputs = confirmed.failure ? { ...planInputs, deleteFailure: confirmed.failure } : planInputs;
  const ordered = [...actions].sort((a, b) => ACTION_ORDER.indexOf(a.type) - ACTION_ORDER.indexOf(b.type));
  // A window warming, opening or closing is a deadline too: idle is quiet, but not past a schedule.
  const due = [...timers, world.schedules.nextChangeAt].filter(
    (t): t is number => t !== undefined && t > world.now,
  );
  const status = statusOf(inputs);
  return {
    actions: ordered,
    status,
    statusInputs: inputs,
    ...(due.length > 0 ? { requeueAfterMs: Math.min(...due) - world.now } : {}),
    events: [
      ...actionEvents(ordered),
      ...extraEvents,
      ...scheduleEvents(world, inputs.schedules ?? {}),
      ...correctionEvents(world.corrections),
      ...conditionEvents(world.set.status?.conditions, status.conditions ?? []),
    ],
  };
}
