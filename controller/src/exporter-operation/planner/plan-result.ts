/** What the operation planner returns: the writes to make, the status to report, events and a timer. */
import type { ExporterOperation, ExporterOperationStatus } from 'virtual-exporters/internal';
import type { ExporterMergePatch, PlanEvent } from '../../planner';

export type OperationAction =
  | {
      readonly type: 'PatchExporter';
      readonly name: string;
      readonly uid?: string;
      readonly patch: ExporterMergePatch;
    }
  | { readonly type: 'CreateOperation'; readonly operation: ExporterOperation }
  | { readonly type: 'DeleteOperation'; readonly uid?: string };

export interface OperationPlan {
  /** Why the operation is not this controller's; nothing else is set then. */
  readonly ignored?: string;
  readonly actions: readonly OperationAction[];
  /** The status once the actions are applied; undefined: leave it as it is. */
  readonly status?: ExporterOperationStatus;
  readonly events: readonly PlanEvent[];
  readonly requeueAfterMs?: number;
}
