/**
 * What the executor reports back about a plan, as `finalizeStatus` (status.ts) reads it. The
 * reconciler's `Execution` satisfies it structurally; the planner never imports the reconciler.
 */
import type { Action } from './actions';

export interface ExecutionOutcome {
  /** The actions that took effect (or had already), in order. */
  readonly applied: readonly Action[];
  /** Whether the pass sent Exporter creates or deletes (ReplicaFailure then reflects this pass). */
  readonly changedReplicas: boolean;
  /** A failed Exporter create or delete (FailedCreate / FailedDelete) with the API's message. */
  readonly replicaFailure?: { readonly reason: string; readonly message: string };
}
