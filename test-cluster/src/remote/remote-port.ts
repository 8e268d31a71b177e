/**
 * The remote adapter of `ClusterPort`: the simulators as clients of any API server, over HTTP(S) with
 * client-node. Reads come from a view of each kind fed by list+watch (`reflector.ts`), one watch per
 * kind across all namespaces or one per namespace given. Writes are requests; each answer goes into the
 * view at once (so the simulators see their own writes before the watch brings them, as they do in
 * process), and a 409 reads the object fresh into the view before it is passed on, so the retried step
 * decides on what the server holds. A 404 is passed on as it is: the watch tells when an object is gone.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { ClusterPort, SimulatedKind } from '../port';
import { ApiError, type KubeObject } from '../types';
import { createObjectCache, type ObjectCache } from './object-cache';
import { startReflector, type Reflector } from './reflector';
import { resourceApis, type ResourceApi } from './resource-api';

export interface RemotePortOptions {
  readonly kubeConfig: KubeConfig;
  /** The kinds to list and watch. */
  readonly kinds: readonly SimulatedKind[];
  /** @default every namespace (one watch per kind) */
  readonly namespaces?: readonly string[];
  /** A list or watch failure, retried after a backoff. */
  readonly onWatchError?: (error: unknown, kind: SimulatedKind, namespace: string | undefined) => void;
}

export interface RemotePort extends ClusterPort {
  create(kind: SimulatedKind, namespace: string, object: KubeObject): Promise<KubeObject>;
  patch(
    kind: SimulatedKind,
    namespace: string,
    name: string,
    patch: object,
    subresource?: 'status',
  ): Promise<KubeObject>;
  replaceStatus(kind: SimulatedKind, object: KubeObject): Promise<KubeObject>;
  /** Reads the object from the server (into the view, too); undefined when it does not exist. */
  read(kind: SimulatedKind, namespace: string, name: string): Promise<KubeObject | undefined>;
  /** Lists from the server, of a namespace or of all. */
  fetchList(kind: SimulatedKind, namespace?: string): Promise<KubeObject[]>;
  /** Resolves once every kind has been listed; rejects after `timeoutMs` saying what failed. */
  synced(timeoutMs?: number): Promise<void>;
  /** True when no request of the port is in flight. */
  idle(): boolean;
  /**
   * Stops every watch and waits until none is open and no request is in flight; writes asked for from
   * now on are refused (a step that was waiting for one ends at its next write).
   */
  stop(): Promise<void>;
}

/** How long `stop()` waits for requests in flight. */
const STOP_TIMEOUT_MS = 5000;

const isConflict = (error: unknown): boolean => error instanceof ApiError && error.code === 409;

export function startRemotePort(options: RemotePortOptions): RemotePort {
  const apis = resourceApis(options.kubeConfig);
  const caches = new Map<SimulatedKind, ObjectCache>();
  const reflectors: { kind: SimulatedKind; namespace?: string; reflector: Reflector }[] = [];
  const scopes: (string | undefined)[] =
    options.namespaces !== undefined && options.namespaces.length > 0 ? [...options.namespaces] : [undefined];
  for (const kind of new Set(options.kinds)) {
    const cache = createObjectCache();
    caches.set(kind, cache);
    for (const namespace of scopes) {
      const reflector = startReflector({
        kubeConfig: options.kubeConfig,
        api: apis[kind],
        cache,
        ...(namespace !== undefined ? { namespace } : {}),
        onError: (error) => options.onWatchError?.(error, kind, namespace),
      });
      reflectors.push({ kind, ...(namespace !== undefined ? { namespace } : {}), reflector });
    }
  }
  let inFlight = 0;
  let stopped = false;

  const cacheOf = (kind: SimulatedKind): ObjectCache => {
    const cache = caches.get(kind);
    if (cache === undefined) throw new Error(`the remote port does not watch ${kind}s; list it in 'kinds'`);
    return cache;
  };

  async function track<T>(request: Promise<T>): Promise<T> {
    inFlight += 1;
    try {
      return await request;
    } finally {
      inFlight -= 1;
    }
  }

  async function read(kind: SimulatedKind, namespace: string, name: string): Promise<KubeObject | undefined> {
    try {
      const object = await track(apis[kind].get(namespace, name));
      caches.get(kind)?.put(object);
      return object;
    } catch (error) {
      if (error instanceof ApiError && error.code === 404) return undefined;
      throw error;
    }
  }

  /** A write whose answer goes into the view; a conflict refreshes the object first. */
  async function write(
    kind: SimulatedKind,
    namespace: string,
    name: string | undefined,
    request: (api: ResourceApi) => Promise<KubeObject>,
  ): Promise<KubeObject> {
    if (stopped) throw new Error(`the remote port is stopped: no ${kind} is written any more`);
    try {
      const written = await track(request(apis[kind]));
      caches.get(kind)?.put(written);
      return written;
    } catch (error) {
      if (isConflict(error) && name !== undefined) await read(kind, namespace, name).catch(() => undefined);
      throw error;
    }
  }

  return {
    get: (kind, namespace, name) => cacheOf(kind).get(namespace, name),
    list: (kind, namespace) => cacheOf(kind).list(namespace),
    watch: (kind, handler) => cacheOf(kind).subscribe(handler),
    create: (kind, namespace, object) =>
      write(kind, namespace, object.metadata.name, (api) => api.create(namespace, object)),
    patch: (kind, namespace, name, patch, subresource) =>
      write(kind, namespace, name, (api) => api.patch(namespace, name, patch, subresource)),
    replaceStatus(kind, object) {
      // A merge patch that replaces: `null` for what the status held and no longer does, and the
      // resourceVersion read as its precondition (the server answers 409 when the object moved on).
      const namespace = object.metadata.namespace ?? '';
      const name = object.metadata.name ?? '';
      const version = object.metadata.resourceVersion;
      const seen = caches.get(kind)?.get(namespace, name);
      const before = seen?.metadata.resourceVersion === version ? (seen?.status ?? {}) : {};
      const status: Record<string, unknown> = {};
      for (const key of Object.keys(before as object)) status[key] = null;
      Object.assign(status, object.status ?? {});
      const patch = { metadata: { resourceVersion: version }, status };
      return write(kind, namespace, name, (api) => api.patch(namespace, name, patch, 'status'));
    },
    read,
    async fetchList(kind, namespace) {
      return (await track(apis[kind].list(namespace))).items;
    },
    async synced(timeoutMs = 30_000) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const failing = reflectors
            .filter((r) => r.reflector.lastError() !== undefined)
            .map(
              (r) =>
                `${r.kind}s${r.namespace !== undefined ? ` in ${r.namespace}` : ''}: ${String(r.reflector.lastError())}`,
            );
          reject(
            new Error(
              `the simulators could not list and watch within ${timeoutMs} ms` +
                (failing.length > 0 ? ` (${failing.join('; ')})` : '') +
                '; check the kubeconfig, the RBAC of its user and that the CRDs are installed',
            ),
          );
        }, timeoutMs);
      });
      try {
        await Promise.race([Promise.all(reflectors.map((r) => r.reflector.synced)), timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    idle: () => inFlight === 0,
    async stop() {
      stopped = true;
      await Promise.all(reflectors.map((r) => r.reflector.stop()));
      const deadline = Date.now() + STOP_TIMEOUT_MS;
      while (inFlight > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    },
  };
}
