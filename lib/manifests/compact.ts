/**
 * Drops `undefined` members (recursively, through plain objects and arrays) so builders can write
 * `{ a: props.a }` and still produce the minimal, deterministic object a GitOps diff expects.
 */
export function compact<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => compact(v)) as T;
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v !== undefined) out[k] = compact(v);
    }
    return out as T;
  }
  return value;
}

// Null-prototype records (what a pollution-safe merge returns) become ordinary objects here.
function isRecord(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** `undefined` for an empty record, so empty label maps are left out of manifests. */
export function nonEmpty<T extends object>(record: T | undefined): T | undefined {
  return record && Object.keys(record).length > 0 ? record : undefined;
}
