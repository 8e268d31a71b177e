/**
 * The pure planner of an ExporterOperation: snapshot in, plan out. See plan.ts for its rules in
 * priority order. It reads the ExporterSet planner's helpers through that planner's entry only.
 */
export { childOperationName } from './child-operation';
export { isSupportedOperation } from './decide';
export { isFinished } from './outcome';
export { planOperation } from './plan';
export type { OperationAction, OperationPlan } from './plan-result';
export type { OperationSnapshot, OperationTarget } from './snapshot';
export { operationStatusEquals } from './status';
