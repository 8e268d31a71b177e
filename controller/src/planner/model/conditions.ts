/**
 * metav1.Condition bookkeeping for the set's status: a condition keeps its `lastTransitionTime` while
 * its status stays the same (as `meta.SetStatusCondition` does), so rewriting an unchanged condition
 * changes nothing and a settled set's status compares equal to the one it has.
 */
import type { Condition, ConditionStatus } from 'virtual-exporters/internal';
import { toTimestamp } from './time';

/** A condition as a rule states it; the transition time and generation are filled in here. */
export interface ConditionInput {
  readonly type: string;
  readonly status: ConditionStatus;
  readonly reason: string;
  readonly message: string;
}

/**
 * `conditions` with `next` set (a new list; the input is not modified). The transition time is kept
 * when the status did not change, else it is `now`.
 */
export function setCondition(
  conditions: readonly Condition[] | undefined,
  next: ConditionInput,
  now: number,
  observedGeneration?: number,
): Condition[] {
  const list = [...(conditions ?? [])];
  const index = list.findIndex((c) => c.type === next.type);
  const old = index >= 0 ? list[index] : undefined;
  const condition: Condition = {
    type: next.type,
    status: next.status,
    reason: next.reason,
    message: next.message,
    lastTransitionTime:
      old !== undefined && old.status === next.status ? old.lastTransitionTime : toTimestamp(now),
    ...(observedGeneration !== undefined ? { observedGeneration } : {}),
  };
  if (index >= 0) list[index] = condition;
  else list.push(condition);
  return list;
}

export function findCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}
