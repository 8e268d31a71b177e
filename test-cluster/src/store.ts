/**
 * The in-memory storage of the test cluster: the API server's semantics below HTTP (SPEC §5). The
 * HTTP layer maps requests onto it; simulators and tests may call it directly. The rules, each as a
 * real API server applies it:
 *
 * - create: namespaced kinds need an existing, non-terminating namespace (404 / 403; namespaces are
 *   never created on demand — seed them with `ensureNamespace` or the `namespaces` option); missing
 *   apiVersion/kind are filled from the resource, wrong ones are 400; `generateName` gets a random
 *   5-character suffix; the server sets uid, creationTimestamp (whole seconds), resourceVersion (one
 *   global counter) and generation 1, and drops status when the kind has a status subresource;
 *   invalid names, labels, annotations and admission findings are 422 Invalid with causes.
 * - update and patch: a stale `metadata.resourceVersion` is 409 Conflict (absent: last write wins for
 *   built-in kinds, 422 for custom resources, as in kube-apiserver);
 *   the main resource ignores status when the kind has a status subresource and /status changes only
 *   status; uid, name, namespace, creationTimestamp and deletionTimestamp stay the server's;
 *   generation grows only when something outside metadata (and status, with a status subresource)
 *   changes; a write that changes nothing keeps the resourceVersion and emits no event; no finalizer
 *   may be added while deleting; removing the last finalizer of a deleting object deletes it.
 * - /scale reads and writes the replicas and selector paths of the kind as an `autoscaling/v1` Scale.
 * - delete: preconditions (409), then with finalizers (or `Orphan`/`Foreground`, which add the
 *   `orphan`/`foregroundDeletion` finalizer) the object gets a deletionTimestamp (and generation + 1),
 *   otherwise it is removed; the garbage collector (gc.ts) then handles dependents. A namespace
 *   becomes `Terminating` and goes once everything in it is gone.
 * - list: sorted by namespace and name; `limit`/`continue` pages read one snapshot (list-pages.ts).
 * - watch: events in commit order, delivered synchronously; `resourceVersion` absent or "0" starts
 *   with a synthetic ADDED per current object; a resourceVersion older than the kept window
 *   (`watchWindow` events) is 410 Expired; an object that stops (starts) matching the watch's
 *   selectors is seen as DELETED (ADDED), as the API server's watch cache shows it.
 * - every object handed out (results, events) is a deep copy, and inputs are copied on the way in.
 */
import { randomInt, randomUUID } from 'node:crypto';
import {
  badRequest,
  conflict,
  etcdKey,
  invalid,
  invalidCause,
  kindConflict,
  noSuchSubresource,
  notFound,
  qualifiedResource,
  resourceDetails,
  STALE,
} from './api-errors';
import { realClock } from './clock';
import { FOREGROUND_FINALIZER, GarbageCollector, ORPHAN_FINALIZER, type GcHost, type StoredRef } from './gc';
import { cloneJson, isJsonMap, jsonEqual, stringifyJson } from './json-values';
import { MAX_OBJECT_BYTES } from './limits';
import {
  compareStorageKeys,
  cutPage,
  decodeContinue,
  expiredToken,
  relativeKey,
  storageKey,
  tooLargeResourceVersion,
} from './list-pages';
import { metadataCauses, OMIT_EMPTY, SERVER_FIELDS } from './object-meta';
import { applyPatch } from './patch';
import { scaleOf, writePath } from './scale';
import { objectFilter } from './selectors';
import {
  ApiError,
  type AdmissionCause,
  apiVersionOf,
  type Clock,
  type DeleteOptions,
  type KubeObject,
  type PagedListOptions,
  type ObjectStore,
  type PatchType,
  type ResourceRegistry,
  type ResourceType,
  type Subresource,
  type WatchEvent,
  type WatchOptions,
} from './types';

export interface StoreOptions {
  readonly registry: ResourceRegistry;
  /** @default realClock() */
  readonly clock?: Clock;
  /**
   * How many recent events are kept for watches that resume from a resourceVersion; a watch from a
   * version older than the window gets 410 Expired.
   * @default 10000
   */
  readonly watchWindow?: number;
  /**
   * Namespaces created at once (namespaced objects need an existing namespace).
   * @default []
   */
  readonly namespaces?: readonly string[];
}

/** A running watch. */
export interface StoreWatch {
  stop(): void;
  /**
   * Sends a BOOKMARK (an object of the watched kind carrying only the current resourceVersion) when the
   * watch allows bookmarks; the HTTP layer calls it periodically.
   */
  bookmark(): void;
}

/** The store with its extras for the server, the simulators and tests. */
export interface MemoryStore extends ObjectStore {
  watch(
    rt: ResourceType,
    namespace: string | undefined,
    options: WatchOptions,
    onEvent: (event: WatchEvent) => void,
  ): StoreWatch;
  /** Creates namespace `name` unless it exists; returns it. */
  ensureNamespace(name: string): KubeObject;
  /** Runs the garbage collector now until it has nothing left to do (tests, shutdown). */
  collectGarbage(): void;
  /** Stops the garbage collector's timer and every watch. */
  close(): void;
}

const DEFAULT_WATCH_WINDOW = 10_000;
/** Kubernetes' alphabet and length for generateName suffixes (no vowels, no look-alikes). */
const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const NAME_SUFFIX_LENGTH = 5;
const MAX_GENERATE_NAME_BASE = 58;

interface Collection {
  readonly rt: ResourceType;
  readonly objects: Map<string, KubeObject>;
  /** The same objects by namespace ('' for cluster-scoped), so a namespaced list reads only its own. */
  readonly byNamespace: Map<string, Map<string, KubeObject>>;
  readonly watchers: Set<Watcher>;
}

interface LogEntry {
  readonly rv: number;
  readonly collection: Collection;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  /** The new state (the last state, with the deletion's resourceVersion, for DELETED). */
  readonly object: KubeObject;
  readonly previous?: KubeObject;
}

interface Watcher {
  readonly collection: Collection;
  readonly namespace: string | undefined;
  readonly filter: (object: KubeObject) => boolean;
  readonly onEvent: (event: WatchEvent) => void;
  readonly allowBookmarks: boolean;
  /** Live events up to this version reached the watcher through its initial list or replay. */
  readonly startRv: number;
  stopped: boolean;
}

// ---- the store ----

/** etcd's order: by `<namespace>/<name>` as bytes (list-pages.ts). */
const byStorageKey = (a: KubeObject, b: KubeObject): number =>
  compareStorageKeys(storageKey(a), storageKey(b));

/** Creates an empty store (plus the `namespaces` given) over `registry`. */
export function createStore(options: StoreOptions): MemoryStore {
  const { registry } = options;
  const clock = options.clock ?? realClock();
  const window = Math.max(1, options.watchWindow ?? DEFAULT_WATCH_WINDOW);
  const namespaceType = registry.get('', 'v1', 'namespaces');
  const isNamespace = (rt: ResourceType) => rt.group === '' && rt.plural === 'namespaces';

  const collections = new Map<string, Collection>();
  const uids = new Map<string, { collection: Collection; key: string }>();
  const dependents = new Map<string, Set<string>>();
  let rv = 0;
  const log: LogEntry[] = [];
  let logStart = 0;
  /** The oldest version a watch may resume from: every event after it is still in the log. */
  let compactedRv = 0;
  const tasks: (() => void)[] = [];
  const serialized = new WeakMap<KubeObject, string>();
  let draining = false;

  const stamp = () => new Date(clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
  const keyOf = (namespace: string | undefined, name: string) =>
    namespace === undefined ? name : `${namespace}/${name}`;

  function collection(rt: ResourceType): Collection {
    const id = `${rt.group}/${rt.plural}`;
    let c = collections.get(id);
    if (!c) {
      c = { rt, objects: new Map(), byNamespace: new Map(), watchers: new Set() };
      collections.set(id, c);
    }
    return c;
  }

  /**
   * A caller's copy of a stored object. Stored objects never change once committed, so each is
   * serialized once however many results and watch events copy it.
   */
  function output(rt: ResourceType, object: KubeObject): KubeObject {
    let json = serialized.get(object);
    if (json === undefined) {
      json = stringifyJson(object)!;
      serialized.set(object, json);
    }
    const copy = JSON.parse(json) as KubeObject;
    copy.apiVersion = apiVersionOf(rt);
    return copy;
  }

  /** The namespace a request on `rt` addresses; 400 when it is missing or not allowed. */
  function scope(rt: ResourceType, namespace: string | undefined, object?: unknown): string | undefined {
    const given = isJsonMap(object) && isJsonMap(object.metadata) ? object.metadata.namespace : undefined;
    if (!rt.namespaced) {
      if (namespace)
        throw badRequest(
          `${qualifiedResource(rt)} are cluster-scoped: a request for them takes no namespace (got "${namespace}")`,
        );
      return undefined;
    }
    if (!namespace)
      throw badRequest(`${qualifiedResource(rt)} are namespaced: the request needs a namespace`);
    if (given !== undefined && given !== '' && given !== namespace) {
      throw badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    }
    return namespace;
  }

  function requireNamespace(rt: ResourceType, namespace: string, name: string): void {
    if (!namespaceType) return;
    const ns = collection(namespaceType).objects.get(namespace);
    if (!ns)
      throw new ApiError(404, 'NotFound', `namespaces "${namespace}" not found`, {
        name: namespace,
        kind: 'namespaces',
      });
    if (ns.metadata.deletionTimestamp) {
      throw new ApiError(
        403,
        'Forbidden',
        `${qualifiedResource(rt)} "${name}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`,
        resourceDetails(rt, name),
      );
    }
  }

  /**
   * A private copy of a request body (`owned`: already one) with type meta checked and omitempty
   * fields normalized.
   */
  function prepareInput(rt: ResourceType, input: unknown, name?: string, owned = false): KubeObject {
    if (!isJsonMap(input)) throw badRequest('the request body must be a JSON object (a Kubernetes object)');
    const object = (owned ? input : cloneJson(input)) as KubeObject;
    if (object.metadata === undefined || object.metadata === null) object.metadata = {};
    if (!isJsonMap(object.metadata)) throw badRequest('metadata must be an object');
    const apiVersion = apiVersionOf(rt);
    if (object.apiVersion === undefined || object.apiVersion === '') object.apiVersion = apiVersion;
    if (object.kind === undefined || object.kind === '') object.kind = rt.kind;
    if (object.apiVersion !== apiVersion || object.kind !== rt.kind) {
      throw badRequest(
        `the object is a ${String(object.kind)} (${String(object.apiVersion)}), but ${qualifiedResource(rt)} holds ${rt.kind} (${apiVersion})`,
      );
    }
    const meta = object.metadata;
    if (name !== undefined) {
      if (meta.name !== undefined && meta.name !== '' && meta.name !== name) {
        throw badRequest(
          `the name of the object (${meta.name}) does not match the name on the URL (${name})`,
        );
      }
      meta.name = name;
    }
    for (const field of OMIT_EMPTY) {
      const v = meta[field];
      if ((Array.isArray(v) && v.length === 0) || (isJsonMap(v) && Object.keys(v).length === 0))
        delete meta[field];
    }
    return object;
  }

  /**
   * Admission of a write: the ObjectMeta causes found before (`prior`) and the kind's own admission
   * (custom resources), reported together in one 422 as kube-apiserver reports them.
   */
  function admit(
    rt: ResourceType,
    object: KubeObject,
    old?: KubeObject,
    options: { statusWrite?: boolean; prior?: AdmissionCause[] } = {},
  ): KubeObject {
    const prior = options.prior ?? [];
    if (!rt.admission) {
      if (prior.length > 0) throw invalid(rt.kind, rt.group, object.metadata.name ?? '', prior);
      return object;
    }
    const { object: admitted, causes } = rt.admission.admit(object, old, { ...options, prior });
    if (prior.length + causes.length > 0) {
      throw invalid(rt.kind, rt.group, object.metadata.name ?? '', [...prior, ...causes]);
    }
    return admitted;
  }

  // ---- commit: the one place state changes ----

  function ownerUids(object: KubeObject | undefined): string[] {
    return (object?.metadata.ownerReferences ?? []).map((o) => o.uid);
  }

  function reindex(
    previous: KubeObject | undefined,
    next: KubeObject | undefined,
    c: Collection,
    key: string,
  ) {
    const uid = (next ?? previous)?.metadata.uid;
    if (!uid) return;
    if (next) uids.set(uid, { collection: c, key });
    else uids.delete(uid);
    const before = ownerUids(previous);
    const after = ownerUids(next);
    for (const owner of before) {
      if (after.includes(owner)) continue;
      const set = dependents.get(owner);
      set?.delete(uid);
      if (set?.size === 0) dependents.delete(owner);
    }
    for (const owner of after) {
      let set = dependents.get(owner);
      if (!set) dependents.set(owner, (set = new Set()));
      set.add(uid);
    }
  }

  /** Tells the garbage collector what this change may concern. */
  function notifyGc(entry: LogEntry): void {
    const { object, previous } = entry;
    const uid = object.metadata.uid;
    if (entry.type === 'DELETED') {
      for (const d of dependents.get(uid ?? '') ?? []) gc.enqueue(d);
      for (const owner of ownerUids(object)) gc.enqueue(owner);
      const ns = object.metadata.namespace;
      const namespace = ns && namespaceType ? collection(namespaceType).objects.get(ns) : undefined;
      if (namespace?.metadata.deletionTimestamp) gc.enqueue(namespace.metadata.uid);
      return;
    }
    const owners = object.metadata.ownerReferences ?? [];
    if (owners.length > 0 && !jsonEqual(owners, previous?.metadata.ownerReferences)) gc.enqueue(uid);
    const deleting = object.metadata.deletionTimestamp !== undefined;
    if (
      deleting &&
      (!previous?.metadata.deletionTimestamp ||
        !jsonEqual(previous.metadata.finalizers, object.metadata.finalizers))
    ) {
      gc.enqueue(uid);
      if ((object.metadata.finalizers ?? []).includes(FOREGROUND_FINALIZER)) {
        for (const d of dependents.get(uid ?? '') ?? []) gc.enqueue(d);
      }
    }
  }

  /** Stores `next` under `key` (or removes the object, whose last state is `last`), issues the next resourceVersion, logs and publishes the event. */
  function commit(c: Collection, key: string, next: KubeObject | undefined, last?: KubeObject): KubeObject {
    const previous = c.objects.get(key);
    if (next) {
      // What etcd answers past its request limit, and kube-apiserver passes on (limits.ts).
      if (Buffer.byteLength(stringifyJson(next)!) > MAX_OBJECT_BYTES) {
        throw new ApiError(500, 'InternalError', 'etcdserver: request is too large');
      }
      next.metadata.resourceVersion = String(rv + 1);
    }
    rv += 1;
    let entry: LogEntry;
    if (next) {
      c.objects.set(key, next);
      const ns = next.metadata.namespace ?? '';
      let inNamespace = c.byNamespace.get(ns);
      if (!inNamespace) c.byNamespace.set(ns, (inNamespace = new Map()));
      inNamespace.set(key, next);
      entry = {
        rv,
        collection: c,
        type: previous ? 'MODIFIED' : 'ADDED',
        object: next,
        ...(previous ? { previous } : {}),
      };
    } else {
      const gone = cloneJson(last ?? previous!);
      gone.metadata.resourceVersion = String(rv);
      c.objects.delete(key);
      const ns = gone.metadata.namespace ?? '';
      const inNamespace = c.byNamespace.get(ns);
      inNamespace?.delete(key);
      if (inNamespace?.size === 0) c.byNamespace.delete(ns);
      entry = { rv, collection: c, type: 'DELETED', object: gone, ...(previous ? { previous } : {}) };
    }
    reindex(previous, next, c, key);
    log.push(entry);
    if (log.length - logStart > window) {
      compactedRv = log[logStart].rv;
      logStart += 1;
      if (logStart > 1024 && logStart * 2 > log.length) {
        log.splice(0, logStart);
        logStart = 0;
      }
    }
    notifyGc(entry);
    for (const w of c.watchers) schedule(() => deliverLive(w, entry));
    drain();
    return entry.object;
  }

  // ---- watch delivery ----

  /** Runs delivery tasks in order; a write made by a watcher's callback queues behind the current event. */
  function schedule(task: () => void): void {
    tasks.push(task);
  }

  function drain(): void {
    if (draining) return;
    draining = true;
    try {
      for (let task = tasks.shift(); task; task = tasks.shift()) task();
    } finally {
      draining = false;
    }
  }

  function send(w: Watcher, event: WatchEvent): void {
    if (w.stopped) return;
    try {
      w.onEvent(event);
    } catch (err) {
      // A watcher's bug must not break the write that triggered it, nor stay silent.
      queueMicrotask(() => {
        throw err;
      });
    }
  }

  const copyOf = (entry: LogEntry) => output(entry.collection.rt, entry.object);

  function matches(w: Watcher, object: KubeObject): boolean {
    return (w.namespace === undefined || object.metadata.namespace === w.namespace) && w.filter(object);
  }

  function deliver(w: Watcher, entry: LogEntry): void {
    if (entry.type !== 'MODIFIED') {
      if (matches(w, entry.object)) send(w, { type: entry.type, object: copyOf(entry) });
      return;
    }
    const now = matches(w, entry.object);
    const before = entry.previous !== undefined && matches(w, entry.previous);
    if (now) send(w, { type: before ? 'MODIFIED' : 'ADDED', object: copyOf(entry) });
    else if (before) {
      const gone = output(entry.collection.rt, entry.previous!);
      gone.metadata.resourceVersion = String(entry.rv);
      send(w, { type: 'DELETED', object: gone });
    }
  }

  function deliverLive(w: Watcher, entry: LogEntry): void {
    if (entry.rv > w.startRv) deliver(w, entry);
  }

  /** The stored objects of `namespace` (all when undefined). */
  function objectsIn(c: Collection, namespace: string | undefined): Iterable<KubeObject> {
    return namespace === undefined ? c.objects.values() : (c.byNamespace.get(namespace)?.values() ?? []);
  }

  /**
   * The objects of `namespace` as they were at version `at` (every event after it is in the log): the
   * current ones with the collection's later events undone, newest first.
   */
  function objectsAsOf(c: Collection, namespace: string | undefined, at: number): Iterable<KubeObject> {
    const state = new Map<string, KubeObject>();
    for (const object of objectsIn(c, namespace))
      state.set(keyOf(object.metadata.namespace, object.metadata.name ?? ''), object);
    const later = eventsAfter(c, at);
    for (let i = later.length - 1; i >= 0; i -= 1) {
      const { object, previous } = later[i];
      if (namespace !== undefined && object.metadata.namespace !== namespace) continue;
      const key = keyOf(object.metadata.namespace, object.metadata.name ?? '');
      if (previous) state.set(key, previous);
      else state.delete(key);
    }
    return state.values();
  }

  function eventsAfter(c: Collection, from: number): LogEntry[] {
    let lo = logStart;
    let hi = log.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (log[mid].rv <= from) lo = mid + 1;
      else hi = mid;
    }
    return log.slice(lo).filter((e) => e.collection === c);
  }

  // ---- writes shared by update, patch and scale ----

  /** Applies an update (`object` is a private copy) of the main resource or its status. */
  function write(
    rt: ResourceType,
    c: Collection,
    key: string,
    existing: KubeObject,
    object: KubeObject,
    subresource?: 'status',
  ): KubeObject {
    const name = existing.metadata.name ?? '';
    const given = object.metadata.resourceVersion;
    if (rt.custom && (given === undefined || given === '')) {
      // kube-apiserver words it with the resource for the kind.
      throw invalid(rt.plural, rt.group, name, [
        invalidCause('metadata.resourceVersion', 0, 'must be specified for an update'),
      ]);
    }
    if (given !== undefined && given !== '' && given !== existing.metadata.resourceVersion)
      throw conflict(rt, name, STALE);
    if (object.metadata.uid && object.metadata.uid !== existing.metadata.uid) {
      // An update's uid is a precondition; kube-apiserver passes on etcd's words.
      throw conflict(
        rt,
        name,
        `StorageError: invalid object, Code: 4, Key: ${etcdKey(rt, existing.metadata.namespace, name)}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${object.metadata.uid}, UID in object meta: ${existing.metadata.uid}`,
      );
    }
    let next: KubeObject;
    let prior: AdmissionCause[] = [];
    if (subresource === 'status') {
      next = cloneJson(existing);
      if (object.status !== undefined) next.status = object.status;
      else delete next.status;
    } else {
      next = object;
      if (rt.statusSubresource) {
        if (existing.status !== undefined) next.status = cloneJson(existing.status);
        else delete next.status;
      }
      const meta: Record<string, unknown> = next.metadata;
      for (const field of SERVER_FIELDS) {
        if (existing.metadata[field] !== undefined) meta[field] = existing.metadata[field];
        else delete meta[field];
      }
      if (existing.metadata.deletionTimestamp) {
        const had = existing.metadata.finalizers ?? [];
        const added = (next.metadata.finalizers ?? []).filter((f) => !had.includes(f));
        if (added.length > 0) {
          throw invalid(rt.kind, rt.group, name, [
            {
              field: 'metadata.finalizers',
              message: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers ${JSON.stringify(added)}`,
              reason: 'FieldValueForbidden',
            },
          ]);
        }
      }
      prior = metadataCauses(rt, next, false);
    }
    next = admit(rt, next, existing, { statusWrite: subresource === 'status', prior });
    const spec = (o: KubeObject) => ({
      ...o,
      metadata: undefined,
      ...(rt.statusSubresource ? { status: undefined } : {}),
    });
    if (subresource !== 'status' && !jsonEqual(spec(next), spec(existing))) {
      next.metadata.generation = (existing.metadata.generation ?? 0) + 1;
    }
    if (jsonEqual(next, existing)) return existing;
    if (
      next.metadata.deletionTimestamp &&
      (next.metadata.finalizers ?? []).length === 0 &&
      !isNamespace(rt)
    ) {
      return commit(c, key, undefined, next);
    }
    return commit(c, key, next);
  }

  function writeScale(
    rt: ResourceType,
    c: Collection,
    key: string,
    existing: KubeObject,
    input: unknown,
  ): KubeObject {
    const name = existing.metadata.name ?? '';
    if (!isJsonMap(input)) throw badRequest('the request body must be an autoscaling/v1 Scale');
    const meta = isJsonMap(input.metadata) ? input.metadata : {};
    if (meta.name !== undefined && meta.name !== '' && meta.name !== name) {
      throw badRequest(
        `the name of the object (${String(meta.name)}) does not match the name on the URL (${name})`,
      );
    }
    const replicas = isJsonMap(input.spec) ? input.spec.replicas : undefined;
    if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
      throw invalid('Scale', 'autoscaling', name, [
        invalidCause('spec.replicas', replicas ?? null, 'must be an integer greater than or equal to 0'),
      ]);
    }
    const given = meta.resourceVersion;
    if (given !== undefined && given !== '' && given !== existing.metadata.resourceVersion)
      throw conflict(rt, name, STALE);
    const next = cloneJson(existing);
    writePath(next, rt.scale!.specReplicasPath, replicas);
    return scaleOf(rt, write(rt, c, key, existing, next));
  }

  function existingOf(rt: ResourceType, namespace: string | undefined, name: string) {
    const c = collection(rt);
    const key = keyOf(namespace, name);
    const existing = c.objects.get(key);
    if (!existing) throw notFound(rt, name);
    return { c, key, existing };
  }

  function checkSubresource(rt: ResourceType, subresource: Subresource | undefined): void {
    if (subresource === 'status' && !rt.statusSubresource) throw noSuchSubresource();
    if (subresource === 'scale' && !rt.scale) throw noSuchSubresource();
  }

  function generateName(c: Collection, namespace: string | undefined, prefix: string): string {
    const base = prefix.slice(0, MAX_GENERATE_NAME_BASE);
    for (let attempt = 0; attempt < 8; attempt++) {
      let suffix = '';
      for (let i = 0; i < NAME_SUFFIX_LENGTH; i++) suffix += NAME_ALPHABET[randomInt(NAME_ALPHABET.length)];
      if (!c.objects.has(keyOf(namespace, base + suffix))) return base + suffix;
    }
    throw conflict(c.rt, prefix, 'could not generate a free name; try again');
  }

  // ---- the garbage collector's view ----

  function refOf(uid: string): StoredRef | undefined {
    const at = uids.get(uid);
    const object = at?.collection.objects.get(at.key);
    return at && object ? { rt: at.collection.rt, object } : undefined;
  }

  /** The collector races with clients like a real one; a write that lost the race is simply dropped. */
  function ignoringApiErrors(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
  }

  const host: GcHost = {
    registry,
    byUid: refOf,
    dependentsOf: (uid) => [...(dependents.get(uid) ?? [])].flatMap((d) => refOf(d) ?? []),
    contentsOf(ns) {
      const found: StoredRef[] = [];
      for (const c of collections.values()) {
        if (!c.rt.namespaced) continue;
        for (const object of c.byNamespace.get(ns)?.values() ?? []) found.push({ rt: c.rt, object });
      }
      return found;
    },
    isNamespace,
    delete: (ref, options) =>
      ignoringApiErrors(() =>
        store.delete(ref.rt, ref.object.metadata.namespace, ref.object.metadata.name ?? '', options),
      ),
    update: (ref, object) =>
      ignoringApiErrors(() =>
        store.update(ref.rt, ref.object.metadata.namespace, ref.object.metadata.name ?? '', object),
      ),
    removeNamespace(ref) {
      const c = collection(ref.rt);
      const key = keyOf(undefined, ref.object.metadata.name ?? '');
      if (c.objects.get(key) === ref.object) commit(c, key, undefined);
    },
  };
  const gc = new GarbageCollector(host, clock);

  // ---- the ObjectStore ----

  const store: MemoryStore = {
    registry,
    clock,

    create(rt, namespace, input) {
      const ns = scope(rt, namespace, input);
      const object = prepareInput(rt, input);
      const meta = object.metadata;
      const c = collection(rt);
      if (!meta.name) {
        if (!meta.generateName) {
          throw invalid(rt.kind, rt.group, '', [
            {
              field: 'metadata.name',
              message: 'Required value: name or generateName is required',
              reason: 'FieldValueRequired',
            },
          ]);
        }
        meta.name = generateName(c, ns, meta.generateName);
      }
      const name = meta.name;
      if (ns !== undefined) requireNamespace(rt, ns, name);
      const prior = metadataCauses(rt, object, true);
      for (const field of SERVER_FIELDS) if (field !== 'name') delete meta[field];
      if (ns !== undefined) meta.namespace = ns;
      meta.uid = randomUUID();
      meta.creationTimestamp = stamp();
      meta.generation = 1;
      if (rt.statusSubresource) delete object.status;
      if (isNamespace(rt)) object.status = { phase: 'Active' };
      const admitted = admit(rt, object, undefined, { prior });
      const key = keyOf(ns, name);
      if (c.objects.has(key)) {
        throw new ApiError(
          409,
          'AlreadyExists',
          `${qualifiedResource(rt)} "${name}" already exists`,
          resourceDetails(rt, name),
        );
      }
      return output(rt, commit(c, key, admitted));
    },

    get(rt, namespace, name, subresource) {
      const ns = scope(rt, namespace);
      checkSubresource(rt, subresource);
      const { existing } = existingOf(rt, ns, name);
      return subresource === 'scale' ? scaleOf(rt, existing) : output(rt, existing);
    },

    list(rt, namespace, options: PagedListOptions = {}) {
      if (!rt.namespaced && namespace) scope(rt, namespace);
      const filter = objectFilter(options);
      const c = collection(rt);
      const ns = rt.namespaced ? namespace : undefined;
      const acrossNamespaces = rt.namespaced && ns === undefined;
      const token = options.continue ? decodeContinue(options.continue) : undefined;
      if (token && token.rv > rv) throw tooLargeResourceVersion(token.rv, rv);
      // A negative snapshot continues from the latest state (kube-apiserver's inconsistent continue).
      const snapshotRv = token && token.rv > 0 ? token.rv : rv;
      if (token && snapshotRv < compactedRv) throw expiredToken(token);
      const source = snapshotRv < rv ? objectsAsOf(c, ns, snapshotRv) : objectsIn(c, ns);
      const sorted = [...source]
        .filter(
          (o) =>
            filter(o) && (!token || compareStorageKeys(relativeKey(o, acrossNamespaces), token.start) >= 0),
        )
        .sort(byStorageKey);
      const limit = options.limit !== undefined && options.limit > 0 ? options.limit : undefined;
      const selected = options.labelSelector !== undefined || options.fieldSelector !== undefined;
      const page = cutPage(sorted, limit, snapshotRv, !selected, acrossNamespaces);
      return {
        ...page,
        items: page.items.map((o) => output(rt, o)),
        resourceVersion: String(snapshotRv),
      };
    },

    update(rt, namespace, name, input, subresource) {
      const ns = scope(rt, namespace, input);
      checkSubresource(rt, subresource);
      if (subresource === 'scale') {
        const { c, key, existing } = existingOf(rt, ns, name);
        return writeScale(rt, c, key, existing, input);
      }
      const object = prepareInput(rt, input, name);
      const { c, key, existing } = existingOf(rt, ns, name);
      return output(rt, write(rt, c, key, existing, object, subresource));
    },

    patch(rt, namespace, name, type: PatchType, patch, subresource) {
      const ns = scope(rt, namespace);
      checkSubresource(rt, subresource);
      const { c, key, existing } = existingOf(rt, ns, name);
      if (subresource === 'scale')
        return writeScale(rt, c, key, existing, applyPatch(type, scaleOf(rt, existing), patch));
      const patched = applyPatch(type, existing, patch);
      scope(rt, ns, patched);
      const uid = isJsonMap(patched) && isJsonMap(patched.metadata) ? patched.metadata.uid : undefined;
      if (uid !== undefined && uid !== existing.metadata.uid) {
        // A patch's uid is no precondition: changing it is an invalid update.
        throw invalid(rt.kind, rt.group, name, [invalidCause('metadata.uid', uid, 'field is immutable')]);
      }
      return output(rt, write(rt, c, key, existing, prepareInput(rt, patched, name, true), subresource));
    },

    delete(rt, namespace, name, options: DeleteOptions = {}) {
      const ns = scope(rt, namespace);
      const { c, key, existing } = existingOf(rt, ns, name);
      const { uid, resourceVersion } = options.preconditions ?? {};
      if (uid !== undefined && uid !== existing.metadata.uid) {
        throw kindConflict(
          rt,
          name,
          `the UID in the precondition (${uid}) does not match the UID in record (${existing.metadata.uid}). The object might have been deleted and then recreated`,
        );
      }
      if (resourceVersion !== undefined && resourceVersion !== existing.metadata.resourceVersion) {
        throw kindConflict(
          rt,
          name,
          `the ResourceVersion in the precondition (${resourceVersion}) does not match the ResourceVersion in record (${existing.metadata.resourceVersion}). The object might have been modified`,
        );
      }
      // An explicit policy sets the collector's finalizers as the API server does; none keeps them.
      let finalizers = existing.metadata.finalizers ?? [];
      const policy = options.propagationPolicy;
      if (policy !== undefined) {
        finalizers = finalizers.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
        if (policy === 'Orphan') finalizers = [...finalizers, ORPHAN_FINALIZER];
        if (policy === 'Foreground') finalizers = [...finalizers, FOREGROUND_FINALIZER];
      }
      if (finalizers.length === 0 && !isNamespace(rt)) return output(rt, commit(c, key, undefined, existing));
      const next = cloneJson(existing);
      if (finalizers.length > 0) next.metadata.finalizers = finalizers;
      else delete next.metadata.finalizers;
      if (!existing.metadata.deletionTimestamp) {
        next.metadata.deletionTimestamp = stamp();
        next.metadata.deletionGracePeriodSeconds = 0;
        next.metadata.generation = (existing.metadata.generation ?? 0) + 1;
      }
      if (isNamespace(rt))
        next.status = { ...(isJsonMap(next.status) ? next.status : {}), phase: 'Terminating' };
      if (jsonEqual(next, existing)) return output(rt, existing);
      return output(rt, commit(c, key, next));
    },

    watch(rt, namespace, options, onEvent) {
      const filter = objectFilter(options);
      const c = collection(rt);
      const from = options.resourceVersion;
      let initial: (() => void)[] = [];
      const w: Watcher = {
        collection: c,
        namespace: rt.namespaced ? namespace : undefined,
        filter,
        onEvent,
        allowBookmarks: options.allowBookmarks === true,
        startRv: rv,
        stopped: false,
      };
      if (from === undefined || from === '' || from === '0') {
        const current = [...c.objects.values()].filter((o) => matches(w, o)).sort(byStorageKey);
        initial = current.map((o) => () => send(w, { type: 'ADDED', object: output(rt, o) }));
      } else {
        if (!/^\d+$/.test(from))
          throw badRequest(`invalid resource version "${from}": it must be an integer`);
        const since = Number(from);
        if (since < compactedRv) {
          throw new ApiError(410, 'Expired', `too old resource version: ${since} (${compactedRv})`);
        }
        initial = eventsAfter(c, since).map((e) => () => deliver(w, e));
      }
      c.watchers.add(w);
      for (const task of initial) schedule(task);
      drain();
      return {
        stop() {
          w.stopped = true;
          c.watchers.delete(w);
        },
        bookmark() {
          if (!w.allowBookmarks || w.stopped) return;
          const object: KubeObject = {
            apiVersion: apiVersionOf(rt),
            kind: rt.kind,
            metadata: { resourceVersion: String(rv) },
          };
          schedule(() => send(w, { type: 'BOOKMARK', object }));
          drain();
        },
      };
    },

    resourceVersion: () => String(rv),

    ensureNamespace(name) {
      if (!namespaceType) throw new Error('the registry has no core v1 namespaces');
      const found = collection(namespaceType).objects.get(name);
      if (found) return output(namespaceType, found);
      return store.create(namespaceType, undefined, {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name },
      });
    },

    collectGarbage: () => gc.drain(),

    close() {
      gc.close();
      for (const c of collections.values()) {
        for (const w of c.watchers) w.stopped = true;
        c.watchers.clear();
      }
    },
  };

  for (const name of options.namespaces ?? []) store.ensureNamespace(name);
  return store;
}
