/**
 * `activeDeadlineSeconds` after the start, an unfinished operation fails (DeadlineExceeded), with the
 * instances not finished by then; the planner looks again when the deadline falls due.
 */
import { OperationReasons as R, type ExporterOperationSpec } from 'virtual-exporters/internal';
import { failed, isFinishedState, type Outcome } from './outcome';

/** When the operation's deadline falls due, if it has one. */
export function deadlineOf(spec: ExporterOperationSpec, start: number): number | undefined {
  return spec.activeDeadlineSeconds !== undefined ? start + spec.activeDeadlineSeconds * 1000 : undefined;
}

/** The outcome failed for its deadline: nothing more is done. */
export function deadlineExceeded(spec: ExporterOperationSpec, outcome: Outcome): Outcome {
  const message = `activeDeadlineSeconds (${spec.activeDeadlineSeconds} s) passed before the operation finished: ${outcome.message}; nothing more is done`;
  // The instances not finished by then failed with the operation.
  const instances = outcome.instances.map((i) =>
    isFinishedState(i.state)
      ? i
      : { ...i, state: 'Failed' as const, reason: R.DeadlineExceeded, message: i.message ?? message },
  );
  return failed(R.DeadlineExceeded, message, instances);
}
