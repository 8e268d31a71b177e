/**
 * JSON value helpers for the store, admission and patches. Stored objects are plain JSON, so a JSON
 * round trip is the cheapest full copy (and drops `undefined` members, as serialization would), and
 * equality ignores key order because defaulting and patches may reorder keys.
 *
 * A real API server stores JSON nested up to 10,000 levels; V8's JSON.stringify recurses and overflows
 * its stack a few thousand levels down. So serialization tries the native one and falls back to an
 * iterative writer for deeper data, and equality walks without recursion.
 */

export type JsonMap = Record<string, unknown>;

export const isJsonMap = (v: unknown): v is JsonMap =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON.stringify for JSON data of any depth; undefined for undefined, as JSON.stringify. */
export function stringifyJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return stringifyDeep(value);
  }
}

/** A deep copy of JSON data. */
export function cloneJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(stringifyJson(value)!) as T);
}

const omitted = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

function scalarText(value: unknown): string {
  if (value === null || omitted(value)) return 'null';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  return JSON.stringify(value);
}

/** JSON.stringify's output for plain JSON data, written with an explicit stack instead of recursion. */
function stringifyDeep(value: unknown): string | undefined {
  if (omitted(value)) return undefined;
  const out: string[] = [];
  // A task is text to write or a value to serialize.
  const tasks: Array<{ readonly text: string } | { readonly value: unknown }> = [{ value }];
  while (tasks.length > 0) {
    const task = tasks.pop()!;
    if ('text' in task) {
      out.push(task.text);
      continue;
    }
    let item = task.value;
    if (isJsonMap(item) && typeof (item as { toJSON?: unknown }).toJSON === 'function') {
      item = (item as { toJSON(): unknown }).toJSON();
    }
    if (typeof item !== 'object' || item === null) {
      out.push(scalarText(item));
      continue;
    }
    const parts: Array<{ readonly text: string } | { readonly value: unknown }> = [];
    if (Array.isArray(item)) {
      parts.push({ text: '[' });
      item.forEach((member: unknown, i) => {
        if (i > 0) parts.push({ text: ',' });
        parts.push({ value: omitted(member) ? null : member });
      });
      parts.push({ text: ']' });
    } else {
      parts.push({ text: '{' });
      let first = true;
      for (const [key, member] of Object.entries(item)) {
        if (omitted(member)) continue;
        parts.push({ text: `${first ? '' : ','}${JSON.stringify(key)}:` }, { value: member });
        first = false;
      }
      parts.push({ text: '}' });
    }
    for (let i = parts.length - 1; i >= 0; i--) tasks.push(parts[i]);
  }
  return out.join('');
}

/** Deep equality of JSON data; key order does not matter, `undefined` members count as absent. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const pairs: Array<readonly [unknown, unknown]> = [[a, b]];
  while (pairs.length > 0) {
    const [x, y] = pairs.pop()!;
    if (x === y) continue;
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      x.forEach((item, i) => pairs.push([item, y[i]]));
      continue;
    }
    if (!isJsonMap(x) || !isJsonMap(y)) return false;
    const keysX = Object.keys(x).filter((k) => x[k] !== undefined);
    const keysY = Object.keys(y).filter((k) => y[k] !== undefined);
    if (keysX.length !== keysY.length) return false;
    for (const k of keysX) pairs.push([x[k], y[k]]);
  }
  return true;
}
