/**
 * What writes came to: the outcome of one applied action (`ActionOutcome`, apply-action.ts) and what a
 * whole pass applied (`Execution`, built by execution-record.ts), as the status, the events and the Pod
 * waits read it. Types only, so every step of the pass can name them without importing another.
 */
import type { Action } from '../planner';
import type { WriteFailureReason } from './write-failure';

export type ActionOutcome =
  | { readonly kind: 'applied' }
  | { readonly kind: 'done-already' }
  /** CreateExporter: the name belongs to an Exporter the set does not own (`owner`: whose, in words). */
  | { readonly kind: 'taken'; readonly owner: string }
  /**
   * DeleteExporter: the Exporter changed since the pass decided on it (a delete precondition failed,
   * 409): nothing was deleted, and the next pass decides again on what it has become.
   */
  | { readonly kind: 'changed'; readonly message: string }
  | {
      readonly kind: 'failed';
      readonly error: unknown;
      readonly reason: WriteFailureReason;
      readonly message: string;
    };

export interface ReplicaFailure {
  readonly reason: WriteFailureReason;
  readonly message: string;
}

/** A failed write of one instance's objects (not the set's own), for the Pod wait (pod-wait-tracker.ts). */
export interface InstanceWriteFailure extends ReplicaFailure {
  readonly name: string;
}

export interface Execution {
  /** The actions that took effect (or had already), in order. */
  readonly applied: readonly Action[];
  /** Whether the pass sent Exporter creates or deletes (ReplicaFailure then reflects this pass). */
  readonly changedReplicas: boolean;
  /** The kinds of write this pass sent that all succeeded (a ReplicaFailure of one of them clears). */
  readonly succeeded: ReadonlySet<string>;
  readonly replicaFailure?: ReplicaFailure;
  /** Every failed write of an instance, by instance. */
  readonly instanceFailures: readonly InstanceWriteFailure[];
  /** Exporter names a create found taken by an Exporter the set does not own: skipped, never retried. */
  readonly taken: readonly { readonly name: string; readonly owner: string }[];
  /** Exporters whose delete found them changed since the pass decided on them: kept, looked at again. */
  readonly changed: readonly { readonly name: string; readonly message: string }[];
  /** The messages of every failed write: the pass is retried with backoff. */
  readonly errors: readonly string[];
}
