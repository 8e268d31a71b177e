/**
 * Reading fields of objects other controllers and people write (Exporters, Leases, Pods, a status read
 * back) without trusting their shape: a looser or hand-installed CRD lets through conditions that are
 * not a list, null entries, references that are not strings and counts that are not numbers. One such
 * object is read by the pass of every set in its namespace, so reading it must never throw; an odd
 * field reads as absent.
 */

/** A count from the wire: a finite number ≥ 0 (floored), else `fallback`. */
export function count(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : fallback;
}

/** The object entries of a list field; anything that is not a list reads as empty. */
export function listOf<T extends object>(value: unknown): T[] {
  return Array.isArray(value) ? (value.filter((v) => typeof v === 'object' && v !== null) as T[]) : [];
}

/** The `name` of a reference (`exporterRef`, `leaseRef`, `credential`) when it is a string. */
export function nameOf(ref: unknown): string | undefined {
  if (typeof ref !== 'object' || ref === null) return undefined;
  const name = (ref as { name?: unknown }).name;
  return typeof name === 'string' ? name : undefined;
}

/** Whether a list of conditions holds `type` with status True. */
export function conditionIsTrue(conditions: unknown, type: string): boolean {
  return listOf<{ type?: unknown; status?: unknown }>(conditions).some(
    (c) => c.type === type && c.status === 'True',
  );
}
