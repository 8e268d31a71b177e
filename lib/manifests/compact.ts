/**
 * Drops `undefined` members (at any depth, through plain objects and arrays) so builders can write
 * `{ a: props.a }` and still produce the minimal, deterministic object a GitOps diff expects.
 * Iterative: it runs before validation, on user data of any depth.
 */
export function compact<T>(value: T): T {
  const copyOf = (item: unknown): unknown =>
    Array.isArray(item) ? new Array<unknown>(item.length) : isRecord(item) ? {} : item;
  const root = copyOf(value);
  const stack: Array<readonly [unknown, unknown]> = [[value, root]];
  while (stack.length > 0) {
    const [source, target] = stack.pop()!;
    if (source === target) continue; // a scalar
    const entries = Array.isArray(source)
      ? source.map((item, index) => [index, item] as const)
      : Object.entries(source as Record<string, unknown>);
    for (const [key, item] of entries) {
      if (item === undefined && !Array.isArray(source)) continue;
      const copy = copyOf(item);
      (target as Record<string | number, unknown>)[key] = copy;
      if (copy !== item) stack.push([item, copy]);
    }
  }
  return root as T;
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
