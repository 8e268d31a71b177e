/**
 * A remote port's view of one kind: the objects as the list, the watch and the answers to the port's
 * own writes last showed them. Those three race — a write's answer can arrive before or after the
 * watch event of the same change, a re-list can be older than a write just answered — so the view
 * only ever moves forward: it keeps the newest resourceVersion of each object (and, for a while, of
 * each deleted one), and a stale arrival changes nothing and tells no one.
 *
 * resourceVersions are compared as numbers when both are integers, as every etcd-backed API server's
 * (and the test cluster's) are; client-go treats them as opaque, and so does this view when one is
 * not an integer (it then takes whatever came last).
 */
import type { PortEvent } from '../port';
import type { KubeObject } from '../types';

/** Whether resourceVersion `a` is newer than `b`. */
export function isNewer(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return true;
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) return BigInt(a) > BigInt(b);
  return a !== b;
}

/** How many deletions the view remembers (to refuse a late answer about a deleted object). */
const TOMBSTONES = 10_000;

export interface ObjectCache {
  get(namespace: string, name: string): KubeObject | undefined;
  /** In namespace and name order; of one namespace, or of all. */
  list(namespace?: string): KubeObject[];
  /** The object is now `object` (a watch event, a list item, a write's answer): taken if newer. */
  put(object: KubeObject): void;
  /** The object was deleted (a watch's DELETED carries the deletion's resourceVersion). */
  remove(object: KubeObject): void;
  /**
   * A list's `items` at `resourceVersion`, of `namespace` (undefined: every namespace): what is not in
   * it and not newer than it was deleted meanwhile.
   */
  replace(items: readonly KubeObject[], resourceVersion: string, namespace?: string): void;
  /** Replays the current objects as ADDED, then tells every change. Returns the unsubscribe function. */
  subscribe(listener: (event: PortEvent) => void): () => void;
}

const keyOf = (namespace: string | undefined, name: string | undefined): string =>
  `${namespace ?? ''}/${name ?? ''}`;
const order = (a: KubeObject, b: KubeObject): number => {
  const x = keyOf(a.metadata.namespace, a.metadata.name);
  const y = keyOf(b.metadata.namespace, b.metadata.name);
  return x < y ? -1 : x > y ? 1 : 0;
};

export function createObjectCache(): ObjectCache {
  const objects = new Map<string, KubeObject>();
  const deleted = new Map<string, string | undefined>();
  const listeners = new Set<(event: PortEvent) => void>();
  const tell = (event: PortEvent): void => {
    for (const listener of [...listeners]) listener(event);
  };

  const cache: ObjectCache = {
    get: (namespace, name) => objects.get(keyOf(namespace, name)),
    list(namespace) {
      const all = [...objects.values()];
      return (namespace === undefined ? all : all.filter((o) => o.metadata.namespace === namespace)).sort(
        order,
      );
    },
    put(object) {
      const key = keyOf(object.metadata.namespace, object.metadata.name);
      const version = object.metadata.resourceVersion;
      const existing = objects.get(key);
      if (existing !== undefined && !isNewer(version, existing.metadata.resourceVersion)) return;
      if (existing === undefined && deleted.has(key)) {
        if (!isNewer(version, deleted.get(key))) return;
        deleted.delete(key);
      }
      objects.set(key, object);
      tell({ type: existing === undefined ? 'ADDED' : 'MODIFIED', object });
    },
    remove(object) {
      const key = keyOf(object.metadata.namespace, object.metadata.name);
      const version = object.metadata.resourceVersion;
      const existing = objects.get(key);
      // A DELETED older than what the view holds is of an earlier incarnation: the name was reused.
      if (existing !== undefined && isNewer(existing.metadata.resourceVersion, version)) return;
      if (deleted.size >= TOMBSTONES) deleted.delete(deleted.keys().next().value!);
      deleted.set(key, version ?? existing?.metadata.resourceVersion);
      if (existing === undefined) return;
      objects.delete(key);
      tell({ type: 'DELETED', object });
    },
    replace(items, resourceVersion, namespace) {
      const listed = new Set(items.map((o) => keyOf(o.metadata.namespace, o.metadata.name)));
      for (const [key, object] of [...objects]) {
        if (namespace !== undefined && object.metadata.namespace !== namespace) continue;
        if (listed.has(key) || isNewer(object.metadata.resourceVersion, resourceVersion)) continue;
        cache.remove({ ...object, metadata: { ...object.metadata, resourceVersion } });
      }
      for (const item of items) cache.put(item);
    },
    subscribe(listener) {
      for (const object of cache.list()) listener({ type: 'ADDED', object });
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return cache;
}
