/**
 * JSON value helpers for the store, admission and patches. Stored objects are plain JSON, so a JSON
 * round trip is the cheapest full copy (and drops `undefined` members, as serialization would), and
 * equality ignores key order because defaulting and patches may reorder keys.
 */

export type JsonMap = Record<string, unknown>;

export const isJsonMap = (v: unknown): v is JsonMap =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A deep copy of JSON data. */
export function cloneJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** Deep equality of JSON data; key order does not matter, `undefined` members count as absent. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (!isJsonMap(a) || !isJsonMap(b) || Array.isArray(b)) return false;
  const keysA = Object.keys(a).filter((k) => a[k] !== undefined);
  const keysB = Object.keys(b).filter((k) => b[k] !== undefined);
  return keysA.length === keysB.length && keysA.every((k) => jsonEqual(a[k], b[k]));
}
