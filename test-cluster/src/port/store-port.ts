/**
 * The in-process adapter of `ClusterPort`: the test cluster's store itself. Reads are the store's
 * (always current), watches are the store's (delivered as it commits), and writes answer at once, so
 * the simulators run synchronously on it, as they did before there was a port.
 */
import { JUMPSTARTER_API_VERSION } from 'virtual-exporters/internal';
import { ApiError, type ObjectStore, type ResourceType } from '../types';
import type { ClusterPort, SimulatedKind } from './cluster-port';

/** `apiVersion` of each simulated kind. */
export const API_VERSIONS: Readonly<Record<SimulatedKind, string>> = {
  Exporter: JUMPSTARTER_API_VERSION,
  Lease: JUMPSTARTER_API_VERSION,
  Secret: 'v1',
  Pod: 'v1',
};

function resourceTypeOf(store: ObjectStore, kind: SimulatedKind): ResourceType {
  const apiVersion = API_VERSIONS[kind];
  const rt = store.registry.byKind(apiVersion, kind);
  if (rt === undefined) {
    const hint = apiVersion === 'v1' ? '' : "; give it Jumpstarter's CRDs";
    throw new Error(`the test cluster does not serve ${kind} (${apiVersion})${hint}`);
  }
  return rt;
}

/**
 * A port on `store`. The `kinds` a simulator needs are resolved now, so a store that does not serve
 * one of them fails at start (with what to do about it), not at the first event.
 */
export function storePort(store: ObjectStore, kinds: readonly SimulatedKind[]): ClusterPort {
  const types = new Map<SimulatedKind, ResourceType>();
  const rt = (kind: SimulatedKind): ResourceType => {
    let found = types.get(kind);
    if (found === undefined) types.set(kind, (found = resourceTypeOf(store, kind)));
    return found;
  };
  for (const kind of kinds) rt(kind);

  return {
    get(kind, namespace, name) {
      try {
        return store.get(rt(kind), namespace, name);
      } catch (error) {
        if (error instanceof ApiError && error.code === 404) return undefined;
        throw error;
      }
    },
    list(kind, namespace) {
      return store.list(rt(kind), namespace).items;
    },
    watch(kind, handler) {
      const watch = store.watch(rt(kind), undefined, {}, (event) => {
        if (event.type !== 'BOOKMARK') handler({ type: event.type, object: event.object });
      });
      return () => watch.stop();
    },
    create: (kind, namespace, object) => store.create(rt(kind), namespace, object),
    patch: (kind, namespace, name, patch, subresource) =>
      store.patch(rt(kind), namespace, name, 'merge', patch, subresource),
    replaceStatus: (kind, object) =>
      store.update(rt(kind), object.metadata.namespace, object.metadata.name ?? '', object, 'status'),
  };
}
