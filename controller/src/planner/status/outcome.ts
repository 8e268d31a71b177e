/**
 * What the executor reports back about a plan, as `finalizeStatus` (plan-result.ts) reads it, and the kinds
 * of write each action makes, by the ReplicaFailure reason a failure of each is reported under (SPEC
 * §3.18). The reconciler's `Execution` satisfies the outcome structurally; the planner never imports
 * the reconciler.
 */
import { ConditionReasons as R } from 'virtual-exporters/internal';
import type { Action, ActionType } from '../model/actions';

/**
 * The failure reasons of each action's writes, the action's own first (a render is a render, a Secret
 * create and a Pod create; a config sync a render and a Secret patch, or create when it is gone).
 */
export const WRITE_REASONS: Readonly<Record<ActionType, readonly string[]>> = {
  AddFinalizer: [R.FailedPatch],
  RemoveFinalizer: [R.FailedPatch],
  CreateExporter: [R.FailedCreate],
  PromoteStandby: [R.FailedPatch],
  DisableExporter: [R.FailedPatch],
  ReleaseExporter: [R.FailedPatch],
  LabelInstance: [R.FailedPatch],
  RenderInstance: [R.FailedRender, R.FailedCreateSecret, R.FailedCreatePod, R.FailedRealise],
  SyncConfigSecret: [R.FailedUpdateSecret, R.FailedRender, R.FailedCreateSecret],
  DeletePod: [R.FailedDeletePod, R.FailedTeardown],
  DeleteExporter: [R.FailedDelete, R.FailedTeardown],
  RecordRevision: [R.FailedRecordRevision],
  DeleteRevision: [R.FailedPruneRevision],
};

/** Each failure reason's write, in words. */
export const WRITE_WORDS: Readonly<Record<string, string>> = {
  [R.FailedCreate]: 'Exporter create or delete',
  [R.FailedDelete]: 'Exporter create or delete',
  [R.FailedPatch]: 'patch',
  [R.FailedRender]: 'render',
  [R.FailedCreateSecret]: 'config Secret create',
  [R.FailedUpdateSecret]: 'config Secret update',
  [R.FailedCreatePod]: 'Pod create',
  [R.FailedDeletePod]: 'Pod delete',
  [R.FailedRealise]: 'realise',
  [R.FailedTeardown]: 'teardown',
  [R.FailedRecordRevision]: 'revision record',
  [R.FailedPruneRevision]: 'revision prune',
};

/** The writes a held-back instance (ceiling, burst, backoff, gate) still wants: its Exporter and Pod. */
export const HELD_BACK_REASONS: readonly string[] = [
  R.FailedCreate,
  R.FailedRender,
  R.FailedCreateSecret,
  R.FailedCreatePod,
  R.FailedRealise,
];

/** Exporter creates and deletes clear each other's failure: both say whether the pool can change. */
export const REPLICA_REASONS: ReadonlySet<string> = new Set([R.FailedCreate, R.FailedDelete]);

/** The failure reasons the writes of `actions` can report. */
export function reasonsOf(actions: readonly Action[]): Set<string> {
  return new Set(actions.flatMap((a) => WRITE_REASONS[a.type]));
}

export interface ExecutionOutcome {
  /** The actions that took effect (or had already), in order. */
  readonly applied: readonly Action[];
  /** Whether the pass sent Exporter creates or deletes (ReplicaFailure then reflects this pass). */
  readonly changedReplicas: boolean;
  /** The kinds of write (by failure reason) the pass sent that all succeeded. */
  readonly succeeded?: ReadonlySet<string>;
  /** The pass's failed writes: the first one's reason, the API's message, and the other kinds named. */
  readonly replicaFailure?: { readonly reason: string; readonly message: string };
  /** Exporter names a create found taken by an Exporter the set does not own: issued, never used. */
  readonly taken?: readonly { readonly name: string }[];
}
