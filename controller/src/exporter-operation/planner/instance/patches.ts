/** The writes an operation makes on its instance: one merge patch, announced by an event. */
import { Annotations, OperationEventReasons as E } from 'virtual-exporters/internal';
import type { ExporterMergePatch } from '../../../planner';
import type { Outcome } from '../outcome';
import type { InstanceContext } from './context';

/** The patch of the instance (guarded by its uid) and its InstanceMarked event. */
export function patchInstance(
  context: InstanceContext,
  patch: ExporterMergePatch,
  message: string,
): Partial<Outcome> {
  const { name, uid } = context;
  return {
    actions: [{ type: 'PatchExporter', name, ...(uid !== undefined ? { uid } : {}), patch }],
    events: [{ type: 'Normal', reason: E.InstanceMarked, message }],
  };
}

/** The recycle mark: the set replaces the instance as in a rollout, a replacement first. */
export function recycleMark(context: InstanceContext): ExporterMergePatch {
  return {
    metadata: {
      annotations: {
        [Annotations.recycleRequested]: context.snapshot.operation.metadata?.name ?? 'operation',
      },
    },
  };
}
