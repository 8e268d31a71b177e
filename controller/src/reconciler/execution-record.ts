/**
 * The record of a pass while the executor applies its actions, which becomes the pass's `Execution`
 * (execution.ts): each outcome either took effect (its expected effect is recorded until the cache
 * shows it, effects.ts), found its name taken, found its Exporter changed since the decision (a delete
 * refused by its preconditions: neither a write that landed nor a failure), or failed. Every failed
 * write is reported (SPEC §3.18): the ReplicaFailure condition has the reason of the pass's first
 * failure and the API server's message, and names every other kind that failed, and the pass is
 * retried with the key's backoff.
 */
import { ConditionReasons as R } from 'virtual-exporters/internal';
import type { Action } from '../planner';
import { effectOf } from './effects';
import type { ActionOutcome, Execution, InstanceWriteFailure, ReplicaFailure } from './execution';
import type { Expectations } from './expectations';
import { boundedMessage, writeReasonOf, type WriteFailureReason } from './write-failure';

/** Writes reported under the action's own reason, with the API's message as it is. */
const REPLICA_WRITES: ReadonlySet<Action['type']> = new Set(['CreateExporter', 'DeleteExporter']);

export class ExecutionRecord {
  private readonly applied: Action[] = [];
  private readonly errors: string[] = [];
  private readonly sent = new Set<string>();
  private readonly failedKinds = new Set<string>();
  private readonly instanceFailures: InstanceWriteFailure[] = [];
  private readonly taken: { name: string; owner: string }[] = [];
  private readonly changed: { name: string; message: string }[] = [];
  /** The first failure of each kind, in the order they came. */
  private readonly failures = new Map<WriteFailureReason, string>();
  private changedReplicas = false;

  constructor(
    private readonly key: string,
    private readonly expectations: Expectations,
  ) {}

  /** Records the outcome of `action` (a failed create is the caller's too: slow start stops on it). */
  add(action: Action, outcome: ActionOutcome): void {
    if (outcome.kind === 'changed') {
      this.changed.push({ name: 'name' in action ? action.name : '', message: outcome.message });
      return;
    }
    if (REPLICA_WRITES.has(action.type)) this.changedReplicas = true;
    this.sent.add(writeReasonOf(action.type));
    if (outcome.kind === 'failed') {
      const name = 'name' in action ? action.name : undefined;
      const message = boundedMessage(
        REPLICA_WRITES.has(action.type) || name === undefined
          ? outcome.message
          : `instance ${name}: ${outcome.message}`,
      );
      this.fail(outcome.reason, message);
      this.failedKinds.add(outcome.reason);
      if (name !== undefined && !REPLICA_WRITES.has(action.type)) {
        this.instanceFailures.push({ name, reason: outcome.reason, message });
      }
      return;
    }
    if (outcome.kind === 'taken') {
      this.taken.push({ name: action.type === 'CreateExporter' ? action.name : '', owner: outcome.owner });
      return;
    }
    // A revision found recorded (or gone) already: the pass that recorded (or pruned) it said so, and
    // a cache behind it must not say so twice.
    const revision = action.type === 'RecordRevision' || action.type === 'DeleteRevision';
    if (revision && outcome.kind === 'done-already') return;
    const effect = effectOf(action);
    if (effect) this.expectations.expect(this.key, effect);
    this.applied.push(action);
  }

  /**
   * A failed write: the pass is retried. Its ReplicaFailure has the reason of its first failure and a
   * message naming every other kind that failed too, so a write failing on every pass is never
   * hidden behind another that fails first.
   */
  fail(reason: WriteFailureReason, message: string): void {
    if (!this.failures.has(reason)) this.failures.set(reason, message);
    this.errors.push(message);
  }

  result(): Execution {
    const { applied, changed, changedReplicas, errors, instanceFailures, taken } = this;
    const replicaFailure = replicaFailureOf(this.failures);
    // A RenderInstance is a render, a Secret create and a Pod create: all of them went through.
    const sent = new Set(this.sent);
    if (sent.has(R.FailedRender)) for (const k of [R.FailedCreateSecret, R.FailedCreatePod]) sent.add(k);
    const succeeded = new Set([...sent].filter((k) => !this.failedKinds.has(k)));
    return {
      applied,
      changedReplicas,
      succeeded,
      ...(replicaFailure ? { replicaFailure } : {}),
      instanceFailures,
      taken,
      changed,
      errors,
    };
  }
}

/** Characters of the first message, and of each further one, in a ReplicaFailure that names several. */
const FIRST_WITH_OTHERS = 400;
const OTHER_MESSAGE = 200;

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/**
 * The ReplicaFailure of a pass's failures (the first of each kind, in order): the first one's reason,
 * and its message followed by `(also <Reason>: <message>; …)` for the other kinds. Each part is cut
 * first, so one long message cannot push the other kinds out of the bound.
 */
export function replicaFailureOf(
  failures: ReadonlyMap<WriteFailureReason, string>,
): ReplicaFailure | undefined {
  const [first, ...others] = [...failures];
  if (first === undefined) return undefined;
  const [reason, message] = first;
  if (others.length === 0) return { reason, message };
  const also = others.map(([r, m]) => `${r}: ${cut(m, OTHER_MESSAGE)}`).join('; ');
  return { reason, message: boundedMessage(`${cut(message, FIRST_WITH_OTHERS)} (also ${also})`) };
}
