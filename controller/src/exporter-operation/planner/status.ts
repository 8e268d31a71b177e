/**
 * The operation's status from one pass's outcome: state, reason and message, the start and completion
 * times, each instance's result and the conditions — WaitingForLease always, WriteFailure cleared once
 * the writes succeed, Complete or Failed once finished.
 */
import {
  OperationConditionTypes as C,
  OperationReasons as R,
  canonicalJson,
  type Condition,
  type ExporterOperationStatus,
} from 'virtual-exporters/internal';
import { setCondition, toTimestamp } from '../../planner';
import { isFinishedState, type Outcome } from './outcome';
import type { OperationSnapshot } from './snapshot';

export function operationStatus(
  s: OperationSnapshot,
  start: number,
  outcome: Outcome,
): ExporterOperationStatus {
  const { operation: op, now } = s;
  const old = op.status;
  const generation = op.metadata?.generation;
  const finished = isFinishedState(outcome.state);
  let conditions: Condition[] = setCondition(
    old?.conditions,
    outcome.waiting !== undefined
      ? { type: C.WaitingForLease, status: 'True', reason: R.WaitingForLease, message: outcome.waiting }
      : {
          type: C.WaitingForLease,
          status: 'False',
          reason: R.NotWaiting,
          message: 'no targeted instance is leased',
        },
    now,
    generation,
  );
  // The plan's status is written only once its writes succeeded: a failure reported before is over.
  if (old?.conditions?.some((c) => c.type === C.WriteFailure && c.status === 'True')) {
    conditions = setCondition(
      conditions,
      { type: C.WriteFailure, status: 'False', reason: R.NoFailures, message: 'the last writes succeeded' },
      now,
      generation,
    );
  }
  if (finished) {
    conditions = setCondition(
      conditions,
      {
        type: outcome.state === 'Complete' ? C.Complete : C.Failed,
        status: 'True',
        reason: outcome.reason,
        message: outcome.message,
      },
      now,
      generation,
    );
  }
  return {
    ...(generation !== undefined ? { observedGeneration: generation } : {}),
    state: outcome.state,
    reason: outcome.reason,
    message: outcome.message,
    startTime: old?.startTime ?? toTimestamp(start),
    ...(finished ? { completionTime: toTimestamp(now) } : {}),
    instances: outcome.instances,
    conditions,
  };
}

/** Statuses equal but for key order (a settled operation writes nothing). */
export function operationStatusEquals(
  a: ExporterOperationStatus | undefined,
  b: ExporterOperationStatus | undefined,
): boolean {
  return canonicalJson(a ?? null) === canonicalJson(b ?? null);
}
