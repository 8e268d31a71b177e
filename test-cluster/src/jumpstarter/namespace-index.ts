/**
 * The Jumpstarter simulator's view of one kind, by namespace and name, kept in step with the port's
 * watch events. A pass reads its namespace from here rather than listing it: a list scans every
 * object of the kind and copies the namespace's, on every event.
 */
import type { PortEventType } from '../port';

interface Named {
  readonly metadata: { readonly name?: string };
}

export const nameOf = (object: Named): string => object.metadata.name ?? '';

const byName = (a: Named, b: Named): number => (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0);

export interface NamespaceIndex<T extends Named> {
  /** Applies a watch event of an object in `namespace`. */
  apply(namespace: string, type: PortEventType, object: T): void;
  /** The namespace's objects in name order (the order a list returns them in). */
  sorted(namespace: string): T[];
}

export function createNamespaceIndex<T extends Named>(): NamespaceIndex<T> {
  const index = new Map<string, Map<string, T>>();
  return {
    apply(namespace, type, object) {
      let names = index.get(namespace);
      if (type === 'DELETED') {
        names?.delete(nameOf(object));
        if (names?.size === 0) index.delete(namespace);
        return;
      }
      if (names === undefined) index.set(namespace, (names = new Map()));
      names.set(nameOf(object), object);
    },
    sorted(namespace) {
      return [...(index.get(namespace)?.values() ?? [])].sort(byName);
    },
  };
}
