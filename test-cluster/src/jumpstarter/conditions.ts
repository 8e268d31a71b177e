/**
 * metav1.Condition bookkeeping for the simulators' status writes: a condition keeps its
 * `lastTransitionTime` while its status stays the same (reason and message may change), as
 * `meta.SetStatusCondition` does, so watchers can tell a real transition from a rewrite.
 */
import type { Condition, ConditionStatus } from 'virtual-exporters/internal';

/** What a writer says about one condition; the transition time is managed here. */
export interface ConditionUpdate {
  readonly type: string;
  readonly status: ConditionStatus;
  readonly reason: string;
  readonly message: string;
}

/** RFC 3339 text of a clock reading (milliseconds kept: simulated delays are often shorter than 1 s). */
export function timestamp(ms: number): string {
  return new Date(ms).toISOString();
}

/** The conditions with `update` applied (a new array; the input is not modified). */
export function setCondition(
  conditions: readonly Condition[] | undefined,
  update: ConditionUpdate,
  now: number,
): Condition[] {
  const list = [...(conditions ?? [])];
  const index = list.findIndex((c) => c.type === update.type);
  const old = index >= 0 ? list[index] : undefined;
  const lastTransitionTime =
    old !== undefined && old.status === update.status ? old.lastTransitionTime : timestamp(now);
  const next: Condition = { ...update, lastTransitionTime };
  if (index >= 0) list[index] = next;
  else list.push(next);
  return list;
}

export function findCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

export function isConditionTrue(conditions: readonly Condition[] | undefined, type: string): boolean {
  return findCondition(conditions, type)?.status === 'True';
}
