/**
 * A failed write, by the reason it shows under on the set's ReplicaFailure condition (SPEC §3.18:
 * nothing fails silently). One action can be several writes (a RenderInstance renders, then creates
 * the config Secret and the Pod), so the step that failed names the reason: `step` tags its error, and
 * the action's own reason (planner/outcome.ts `WRITE_REASONS`) covers the rest.
 */
import type { ConditionReasons as R } from 'virtual-exporters/internal';
import { WRITE_REASONS, type ActionType } from '../planner';

export type WriteFailureReason =
  | typeof R.FailedCreate
  | typeof R.FailedDelete
  | typeof R.FailedPatch
  | typeof R.FailedCreateSecret
  | typeof R.FailedUpdateSecret
  | typeof R.FailedCreatePod
  | typeof R.FailedDeletePod
  | typeof R.FailedRender
  | typeof R.FailedRealise
  | typeof R.FailedTeardown
  | typeof R.FailedRecordRevision
  | typeof R.FailedPruneRevision;

/** The reason of a failed action whose failing step did not name one. */
export function writeReasonOf(type: ActionType): WriteFailureReason {
  return WRITE_REASONS[type][0] as WriteFailureReason;
}

/** An error of one step of an action, tagged with the reason its failure is reported under. */
export class FailedStep extends Error {
  constructor(
    readonly reason: WriteFailureReason,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/** Runs one step of an action; its error is reported under `reason` unless a deeper step named one. */
export async function step<T>(reason: WriteFailureReason, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw error instanceof FailedStep ? error : new FailedStep(reason, error);
  }
}

/**
 * Longest message a condition carries: an API server's message is a sentence or two, but a
 * provisioner's or a webhook's may be anything, and the status must stay small.
 */
const MAX_MESSAGE = 1024;

/** `message`, cut to a size a condition can carry. */
export function boundedMessage(message: string): string {
  return message.length <= MAX_MESSAGE ? message : `${message.slice(0, MAX_MESSAGE - 1)}…`;
}
