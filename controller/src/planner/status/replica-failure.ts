/**
 * ReplicaFailure (SPEC §3.18): failed writes are reported, and cleared only by a pass that sends a
 * write of the kind that failed and sees it succeed — or by one that wants no such write any more.
 * The plan's side (`replicaFailure`, `outstandingWrites`) and the executor's (`withOutcome`).
 */
import { ConditionReasons as R, ConditionTypes, type Condition } from 'virtual-exporters/internal';
import { findCondition, setCondition, type ConditionInput } from '../model/conditions';
import type { ReplicaFailureInput } from './condition-inputs';
import { HELD_BACK_REASONS, REPLICA_REASONS, WRITE_WORDS, type ExecutionOutcome } from './outcome';

/**
 * ReplicaFailure as the plan sees it: the executor's outcome decides it (`withOutcome`); until then
 * the planner keeps what is there and fills in False when the condition is missing. It also clears a
 * True one when this pass wants no write of the kind that failed (none planned, none held back but
 * by the ceiling): the failed write was retried by a pass whose status was then lost (a failed status
 * write, a controller restart), or is no longer needed (the set shrank, the instance went away or got
 * leased), and nothing else would ever clear it — only a pass that sends such a write does.
 */
export function replicaFailure(
  previous: readonly Condition[] | undefined,
  f: ReplicaFailureInput,
): ConditionInput {
  const type = ConditionTypes.ReplicaFailure;
  const old = findCondition(previous, type);
  if (!old) return { type, status: 'False', reason: R.NoFailures, message: NO_FAILURES };
  if (old.status === 'True' && !f.outstanding.has(old.reason)) {
    return {
      type,
      status: 'False',
      reason: R.NoFailures,
      message: `no ${WRITE_WORDS[old.reason] ?? 'write of that kind'} is outstanding (the earlier ${old.reason} no longer applies)`,
    };
  }
  return { type: old.type, status: old.status, reason: old.reason, message: old.message };
}

const NO_FAILURES = 'the writes for the set succeed';

/**
 * The kinds of write outstanding: the ones this pass sends, and the Exporter and Pod writes of the
 * instances it wants but holds back — unless only the ceiling holds them back with nothing starting
 * (MaxReplicasReached says it). An Exporter create and delete stand for each other.
 */
export function outstandingWrites(f: {
  /** The kinds of write of the pass's actions (outcome.ts `reasonsOf`). */
  readonly planned: ReadonlySet<string>;
  readonly deferred: number;
  readonly limited: boolean;
  /** Instances booting, creates in flight and renders. */
  readonly underway: number;
}): ReadonlySet<string> {
  const kinds = new Set(f.planned);
  if (f.deferred > 0 && !(f.limited && f.underway === 0)) for (const k of HELD_BACK_REASONS) kinds.add(k);
  if ([...REPLICA_REASONS].some((k) => kinds.has(k))) for (const k of REPLICA_REASONS) kinds.add(k);
  return kinds;
}

/**
 * ReplicaFailure after the executor ran: True with the reason and message of the pass's first failed
 * write; False again when this pass sent writes of the kind that had failed and all of them succeeded
 * (an Exporter create or delete for either of those two).
 */
export function withOutcome(
  conditions: readonly Condition[],
  outcome: Pick<ExecutionOutcome, 'changedReplicas' | 'replicaFailure' | 'succeeded'>,
  now: number,
  generation: number | undefined,
): readonly Condition[] {
  const type = ConditionTypes.ReplicaFailure;
  if (outcome.replicaFailure) {
    const { reason, message } = outcome.replicaFailure;
    return setCondition(conditions, { type, status: 'True', reason, message }, now, generation);
  }
  const old = findCondition(conditions, type);
  const retried =
    old !== undefined &&
    ((outcome.changedReplicas && REPLICA_REASONS.has(old.reason)) ||
      outcome.succeeded?.has(old.reason) === true);
  if (retried && old.status === 'True') {
    return setCondition(
      conditions,
      { type, status: 'False', reason: R.NoFailures, message: NO_FAILURES },
      now,
      generation,
    );
  }
  return conditions;
}
