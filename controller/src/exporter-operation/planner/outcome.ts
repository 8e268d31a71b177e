/**
 * The decision of one pass before it becomes a status: the operation's state with its reason and
 * message, each instance's result, what it waits for, and the writes and events that go with it.
 */
import type {
  ExporterOperationStatus,
  OperationInstanceResult,
  OperationState,
} from 'virtual-exporters/internal';
import type { PlanEvent } from '../../planner';
import type { OperationAction } from './plan-result';

export interface Outcome {
  readonly state: OperationState;
  readonly reason: string;
  readonly message: string;
  readonly instances: readonly OperationInstanceResult[];
  /** Set while a targeted instance is leased: the message of the WaitingForLease condition. */
  readonly waiting?: string;
  readonly actions?: readonly OperationAction[];
  readonly events?: readonly PlanEvent[];
}

const FINISHED: ReadonlySet<OperationState> = new Set(['Complete', 'Failed']);

/** Complete and Failed are final: nothing more is done but the TTL. */
export function isFinishedState(state: OperationState): boolean {
  return FINISHED.has(state);
}

export function isFinished(status: ExporterOperationStatus | undefined): boolean {
  return status !== undefined && isFinishedState(status.state);
}

export function failed(
  reason: string,
  message: string,
  instances: readonly OperationInstanceResult[],
): Outcome {
  return { state: 'Failed', reason, message, instances };
}
