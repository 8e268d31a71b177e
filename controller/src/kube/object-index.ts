/**
 * An index of an informer's cache (client-go's Indexer): the cached objects by the keys a function
 * gives each one, kept up to date on every add, update and delete the cache makes, so a reader asks for
 * the objects of one key without scanning the namespace. A reconcile pass reads its set's Exporters
 * this way: scanning a namespace of 10,000 Exporters on every pass made the passes of all its sets cost
 * the square of its size (bench/README.md, the cost curve).
 */
import type { WireObject } from './informer-contract';

export type IndexKeys<T> = (object: T) => readonly string[];

const idOf = (object: WireObject): string =>
  `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`;

export class ObjectIndex<T extends WireObject> {
  /** Index key → the objects under it, by namespace/name. */
  private readonly objects = new Map<string, Map<string, T>>();
  /** namespace/name → the index keys its object is under now. */
  private readonly keysOfObject = new Map<string, readonly string[]>();

  constructor(private readonly keysOf: IndexKeys<T>) {}

  /** An object entered the cache or changed in it: it moves to the keys it has now. */
  put(object: T): void {
    const id = idOf(object);
    this.remove(object);
    const keys = [...new Set(this.keysOf(object))];
    for (const key of keys) {
      let under = this.objects.get(key);
      if (!under) this.objects.set(key, (under = new Map()));
      under.set(id, object);
    }
    if (keys.length > 0) this.keysOfObject.set(id, keys);
  }

  /** An object left the cache. */
  remove(object: WireObject): void {
    const id = idOf(object);
    for (const key of this.keysOfObject.get(id) ?? []) {
      const under = this.objects.get(key);
      under?.delete(id);
      if (under?.size === 0) this.objects.delete(key);
    }
    this.keysOfObject.delete(id);
  }

  /** The objects under `key` (a new array: the caller may keep it). */
  get(key: string): T[] {
    const under = this.objects.get(key);
    return under ? [...under.values()] : [];
  }
}
