/**
 * Work-queue keys: an ExporterSet is queued as `namespace/name` (controller-runtime's
 * NamespacedName). Both parts are DNS names, which contain no `/`, so the key splits back exactly.
 */
export interface ObjectRef {
  readonly namespace: string;
  readonly name: string;
}

export function objectKey(ref: ObjectRef): string {
  return `${ref.namespace}/${ref.name}`;
}

/** The namespace and name of a key made by `objectKey`; throws on anything else. */
export function parseObjectKey(key: string): ObjectRef {
  const slash = key.indexOf('/');
  if (slash <= 0 || slash === key.length - 1 || key.indexOf('/', slash + 1) !== -1) {
    throw new Error(`"${key}" is not a namespace/name key`);
  }
  return { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
