/**
 * ExporterOperation: operations such as Recycle or Drain on a set's instances. `planner/` decides (pure,
 * see planner/plan.ts for the rules), `reconciler/` reads the caches, applies the writes and reports the
 * status; the manager runs it on a work queue of its own.
 */
export {
  childOperationName,
  isFinished,
  isSupportedOperation,
  operationStatusEquals,
  planOperation,
  type OperationAction,
  type OperationPlan,
  type OperationSnapshot,
  type OperationTarget,
} from './planner';
export {
  operationKeys,
  operationsWhere,
  registerOperationHandlers,
  type OperationHandlerInformers,
} from './reconciler/operation-handlers';
export { OperationReconciler, type OperationReconcilerDeps } from './reconciler/operation-reconciler';
export { leaseOf, readOperationWorld, type OperationCaches } from './reconciler/operation-world';
