/**
 * Each chosen instance through its child operation: a missing child is created (unless it finished and
 * was deleted since), an existing one's state, reason and message are the instance's result.
 */
import {
  OperationEventReasons as E,
  OperationReasons as R,
  type OperationInstanceResult,
} from 'virtual-exporters/internal';
import type { PlanEvent } from '../../../planner';
import { childOperation, childOperationName } from '../child-operation';
import { isFinishedState } from '../outcome';
import type { OperationAction } from '../plan-result';
import type { OperationSnapshot } from '../snapshot';

export interface ChildResults {
  readonly instances: readonly OperationInstanceResult[];
  readonly actions: readonly OperationAction[];
  readonly events: readonly PlanEvent[];
}

export function childResults(
  s: OperationSnapshot,
  targets: readonly OperationInstanceResult[],
  start: number,
): ChildResults {
  const op = s.operation;
  const parentName = op.metadata?.name ?? '';
  const children = new Map(
    (s.children ?? [])
      .filter((c) => (c.metadata?.ownerReferences ?? []).some((r) => r.uid === op.metadata?.uid))
      .map((c) => [c.metadata?.name ?? '', c]),
  );
  const actions: OperationAction[] = [];
  const events: PlanEvent[] = [];
  const instances = targets.map((t): OperationInstanceResult => {
    const childName = t.operationName ?? childOperationName(parentName, t.exporterName);
    const child = children.get(childName);
    if (child === undefined) {
      if (isFinishedState(t.state)) return t; // its child was deleted after it finished
      actions.push({
        type: 'CreateOperation',
        operation: childOperation(op, t.exporterName, childName, s.now, start),
      });
      events.push({
        type: 'Normal',
        reason: E.ChildCreated,
        message: `created ExporterOperation ${childName} for instance ${t.exporterName}`,
      });
      return {
        ...t,
        operationName: childName,
        state: 'Pending',
        reason: R.Created,
        message: `child operation ${childName} created`,
      };
    }
    const cs = child.status;
    return {
      exporterName: t.exporterName,
      ...(t.uid !== undefined ? { uid: t.uid } : {}),
      operationName: childName,
      state: cs?.state ?? 'Pending',
      ...(cs?.reason !== undefined ? { reason: cs.reason } : {}),
      ...(cs?.message !== undefined ? { message: cs.message } : {}),
    };
  });
  return { instances, actions, events };
}
