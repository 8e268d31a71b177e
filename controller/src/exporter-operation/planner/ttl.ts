/** A finished operation (Complete or Failed) is deleted `ttlSecondsAfterFinished` after it finished. */
import { toMillis } from '../../planner';
import type { OperationPlan } from './plan-result';
import type { OperationSnapshot } from './snapshot';

/** Deleted once its TTL passed, looked at again when it will have; without a TTL, left alone. */
export function planFinished(s: OperationSnapshot): OperationPlan {
  const ttl = s.operation.spec.ttlSecondsAfterFinished;
  if (ttl === undefined) return { actions: [], events: [] };
  const finishedAt = toMillis(s.operation.status?.completionTime) ?? s.now;
  const due = Math.min(finishedAt, s.now) + ttl * 1000;
  if (s.now >= due) {
    const uid = s.operation.metadata?.uid;
    return { actions: [{ type: 'DeleteOperation', ...(uid !== undefined ? { uid } : {}) }], events: [] };
  }
  return { actions: [], events: [], requeueAfterMs: due - s.now };
}
