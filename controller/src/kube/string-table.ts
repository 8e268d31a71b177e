/**
 * Interning of the strings cached objects repeat: every object parsed from JSON carries its own copy of
 * its namespace, its set's name in labels and owner references, its apiVersion and kind, condition types
 * and reasons. With 10,000 instances (four cached objects each) those copies are a good part of the
 * cache; a table hands out one copy per distinct value instead.
 *
 * Only short strings are interned, and only from fields of low cardinality (never uids, names, versions
 * or timestamps). The table is bounded: when it is full it starts over, so values that come and go in a
 * long-running controller (revisions of a template, names of deleted sets) cannot make it grow forever;
 * the objects that share a string keep it.
 */

/** Longest string interned: longer values are rarely repeated and not worth a lookup. */
const MAX_INTERNED_LENGTH = 100;
const DEFAULT_CAPACITY = 20_000;

export class StringTable {
  private strings = new Map<string, string>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  /** Distinct strings held now. */
  get size(): number {
    return this.strings.size;
  }

  /** The table's copy of `value` when it is a short string; anything else as it is. */
  intern<T>(value: T): T {
    if (typeof value !== 'string' || value.length > MAX_INTERNED_LENGTH) return value;
    const known = this.strings.get(value);
    if (known !== undefined) return known as T;
    if (this.strings.size >= this.capacity) this.strings = new Map();
    this.strings.set(value, value);
    return value;
  }

  /** A copy of a string map (labels, annotations) with its values interned; anything else as it is. */
  internValues<T>(record: T): T {
    if (!isRecord(record)) return record;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(record)) out[key] = this.intern(value);
    return out as T;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
