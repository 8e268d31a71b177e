/**
 * What a pass applied, as the status and the events read it (`Execution`), and its record while the
 * executor applies the actions: each outcome either took effect (its expected effect is recorded until
 * the cache shows it, effects.ts) or failed. A failed create or delete is the ReplicaFailure condition
 * with the API server's message; any other failed write is an error, so the key backs off.
 */
import { ConditionReasons } from 'virtual-exporters/internal';
import type { Action } from '../planner';
import type { ActionOutcome } from './apply-action';
import { effectOf } from './effects';
import type { Expectations } from './expectations';

export interface ReplicaFailure {
  readonly reason: typeof ConditionReasons.FailedCreate | typeof ConditionReasons.FailedDelete;
  readonly message: string;
}

export interface Execution {
  /** The actions that took effect (or had already), in order. */
  readonly applied: readonly Action[];
  /** Whether the pass sent Exporter creates or deletes (ReplicaFailure then reflects this pass). */
  readonly changedReplicas: boolean;
  readonly replicaFailure?: ReplicaFailure;
  /** Other failed writes: the pass is retried with backoff. */
  readonly errors: readonly unknown[];
}

export class ExecutionRecord {
  private readonly applied: Action[] = [];
  private readonly errors: unknown[] = [];
  private replicaFailure: ReplicaFailure | undefined;
  private changedReplicas = false;

  constructor(
    private readonly key: string,
    private readonly expectations: Expectations,
  ) {}

  /** Records the outcome of `action` (a failed create is the caller's: slow start picks its message). */
  add(action: Action, outcome: ActionOutcome): void {
    if (action.type === 'CreateExporter' || action.type === 'DeleteExporter') this.changedReplicas = true;
    if (outcome.kind === 'failed') {
      if (action.type === 'DeleteExporter') this.fail(ConditionReasons.FailedDelete, outcome.message);
      else if (action.type !== 'CreateExporter') this.errors.push(outcome.error);
      return;
    }
    const effect = effectOf(action);
    if (effect) this.expectations.expect(this.key, effect);
    this.applied.push(action);
  }

  /** The pass's ReplicaFailure: the first failure of a create or delete. */
  fail(reason: ReplicaFailure['reason'], message: string): void {
    this.replicaFailure ??= { reason, message };
  }

  result(): Execution {
    const { applied, changedReplicas, replicaFailure, errors } = this;
    return { applied, changedReplicas, ...(replicaFailure ? { replicaFailure } : {}), errors };
  }
}
