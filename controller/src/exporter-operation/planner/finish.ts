/**
 * A pass's plan from its outcome: the writes, the status when it changed, the events (WaitingForLease
 * when the wait begins, OperationComplete or OperationFailed when it finishes) and the next look — the
 * TTL once finished, else the deadline.
 */
import { OperationEventReasons as E, OperationConditionTypes as C } from 'virtual-exporters/internal';
import type { PlanEvent } from '../../planner';
import { deadlineOf } from './deadline';
import { isFinishedState, type Outcome } from './outcome';
import type { OperationPlan } from './plan-result';
import type { OperationSnapshot } from './snapshot';
import { operationStatus, operationStatusEquals } from './status';

export function finish(s: OperationSnapshot, start: number, outcome: Outcome): OperationPlan {
  const { operation: op, now } = s;
  const old = op.status;
  const finished = isFinishedState(outcome.state);
  const status = operationStatus(s, start, outcome);
  const events: PlanEvent[] = [...(outcome.events ?? [])];
  const wasWaiting = old?.conditions?.some((c) => c.type === C.WaitingForLease && c.status === 'True');
  if (outcome.waiting !== undefined && !wasWaiting) {
    events.push({ type: 'Normal', reason: E.WaitingForLease, message: outcome.waiting });
  }
  if (finished) {
    events.push(
      outcome.state === 'Complete'
        ? { type: 'Normal', reason: E.OperationComplete, message: outcome.message }
        : { type: 'Warning', reason: E.OperationFailed, message: `${outcome.reason}: ${outcome.message}` },
    );
  }
  const deadline = deadlineOf(op.spec, start);
  const ttl = op.spec.ttlSecondsAfterFinished;
  const requeueAfterMs = finished
    ? ttl !== undefined
      ? ttl * 1000
      : undefined
    : deadline !== undefined
      ? Math.max(0, deadline - now)
      : undefined;
  return {
    actions: outcome.actions ?? [],
    ...(operationStatusEquals(old, status) ? {} : { status }),
    events,
    ...(requeueAfterMs !== undefined ? { requeueAfterMs } : {}),
  };
}
