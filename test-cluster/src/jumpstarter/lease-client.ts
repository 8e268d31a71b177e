/**
 * What a Jumpstarter client (`jmp create lease`, `jmp release`) does to Leases: tests and the lab use
 * it to create demand and to wait for the simulator's answer. In process it answers at once
 * (`LeaseClient`); against a remote API server with Promises (`RemoteLeaseClient`, `../remote`).
 * Code written against `AnyLeaseClient` `await`s every call and runs in both modes.
 */
import { JUMPSTARTER_API_VERSION, Kinds, type LabelSelector, type Lease } from 'virtual-exporters/internal';
import type { Mode, Returns } from '../port';
import { ApiError, type KubeObject, type ObjectStore, type ResourceType } from '../types';

export interface LeaseRequest {
  readonly namespace: string;
  /** @default a generated name `lease-xxxxx` */
  readonly name?: string;
  /** @default {} (then `exporterRef` is required) */
  readonly selector?: LabelSelector;
  /** Pins the lease to this Exporter. */
  readonly exporterRef?: string;
  readonly allowDisabled?: boolean;
  /** Go duration, e.g. `30m`. */
  readonly duration?: string;
  readonly beginTime?: string | Date;
  readonly endTime?: string | Date;
  /** @default 'test-client' */
  readonly clientName?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly tags?: Readonly<Record<string, string>>;
}

/** A lease client whose calls answer now (`sync`) or with Promises (`async`). */
export interface LeaseClientOf<M extends Mode> {
  /** Creates the Lease (through admission: an empty selector without a pin is rejected with 422). */
  create(request: LeaseRequest): Returns<Lease, M>;
  /** Sets `spec.release`; the simulator ends the lease. */
  release(namespace: string, name: string): Returns<Lease, M>;
  get(namespace: string, name: string): Returns<Lease | undefined, M>;
  /** All Leases of a namespace, or of every namespace. */
  list(namespace?: string): Returns<Lease[], M>;
  /**
   * Resolves with the Lease once `predicate` holds for it; rejects after `timeoutMs` of WALL-clock
   * time (a test's patience, not cluster time) with the Lease's last state in the message.
   */
  waitFor(
    namespace: string,
    name: string,
    predicate: (lease: Lease) => boolean,
    timeoutMs?: number,
  ): Promise<Lease>;
}

/** The in-process lease client. */
export type LeaseClient = LeaseClientOf<'sync'>;
/** The lease client of a remote API server. */
export type RemoteLeaseClient = LeaseClientOf<'async'>;
/** Either: `await` every call. */
export type AnyLeaseClient = LeaseClientOf<Mode>;

/** Predicates for `waitFor`. */
export const LeaseState = {
  assigned: (lease: Lease): boolean => !!lease.status?.exporterRef && lease.status.ended !== true,
  ended: (lease: Lease): boolean => lease.status?.ended === true,
  pending: (lease: Lease): boolean =>
    lease.status?.ended !== true &&
    !lease.status?.exporterRef &&
    (lease.status?.conditions ?? []).some((c) => c.type === 'Pending' && c.status === 'True'),
} as const;

const toTime = (time: string | Date | undefined): string | undefined =>
  time === undefined ? undefined : typeof time === 'string' ? time : time.toISOString();

/** The Lease a client creates for `request`. */
export function leaseObject(request: LeaseRequest): KubeObject {
  const spec: Record<string, unknown> = {
    clientRef: { name: request.clientName ?? 'test-client' },
    selector: request.selector ?? {},
  };
  if (request.exporterRef !== undefined) spec.exporterRef = { name: request.exporterRef };
  if (request.allowDisabled !== undefined) spec.allowDisabled = request.allowDisabled;
  if (request.duration !== undefined) spec.duration = request.duration;
  if (request.beginTime !== undefined) spec.beginTime = toTime(request.beginTime);
  if (request.endTime !== undefined) spec.endTime = toTime(request.endTime);
  if (request.tags !== undefined) spec.tags = { ...request.tags };
  const metadata: KubeObject['metadata'] = {
    namespace: request.namespace,
    ...(request.name !== undefined ? { name: request.name } : { generateName: 'lease-' }),
    ...(request.labels !== undefined ? { labels: { ...request.labels } } : {}),
  };
  return { apiVersion: JUMPSTARTER_API_VERSION, kind: Kinds.Lease, metadata, spec };
}

function resourceType(store: ObjectStore, apiVersion: string, kind: string): ResourceType {
  const rt = store.registry.byKind(apiVersion, kind);
  if (rt === undefined) {
    throw new Error(`the test cluster does not serve ${kind} (${apiVersion}); give it Jumpstarter's CRDs`);
  }
  return rt;
}

/**
 * Resolves with the object once `predicate` holds for it (checked now and on every watch event);
 * rejects after `timeoutMs` of wall-clock time.
 */
export function waitForObject<T>(
  store: ObjectStore,
  rt: ResourceType,
  namespace: string | undefined,
  name: string,
  predicate: (object: T) => boolean,
  timeoutMs = 5000,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let last: KubeObject | undefined;
    let done = false;
    let watch: { stop(): void } | undefined;
    const finish = (): void => {
      done = true;
      clearTimeout(timer);
      watch?.stop();
    };
    const timer = setTimeout(() => {
      if (done) return;
      finish();
      const state = last === undefined ? 'it does not exist' : `its last state: ${JSON.stringify(last)}`;
      reject(
        new Error(
          `${rt.kind} ${namespace ?? ''}/${name}: condition not met within ${timeoutMs} ms; ${state}`,
        ),
      );
    }, timeoutMs);
    const check = (object: KubeObject | undefined): void => {
      if (done) return;
      last = object;
      let ok = false;
      try {
        ok = object !== undefined && predicate(object as unknown as T);
      } catch (error) {
        finish();
        reject(error);
        return;
      }
      if (ok) {
        finish();
        resolve(object as unknown as T);
      }
    };
    try {
      watch = store.watch(rt, namespace, { fieldSelector: `metadata.name=${name}` }, (event) => {
        if (event.type === 'BOOKMARK') return;
        check(event.type === 'DELETED' ? undefined : event.object);
      });
      if (done) watch.stop();
      else check(tryGet(store, rt, namespace, name));
    } catch (error) {
      finish();
      reject(error);
    }
  });
}

function tryGet(
  store: ObjectStore,
  rt: ResourceType,
  namespace: string | undefined,
  name: string,
): KubeObject | undefined {
  try {
    return store.get(rt, namespace, name);
  } catch (error) {
    if (error instanceof ApiError && error.code === 404) return undefined;
    throw error;
  }
}

export function createLeaseClient(store: ObjectStore): LeaseClient {
  const rt = resourceType(store, JUMPSTARTER_API_VERSION, Kinds.Lease);
  const asLease = (object: KubeObject): Lease => object as unknown as Lease;
  return {
    create(request) {
      return asLease(store.create(rt, request.namespace, leaseObject(request)));
    },
    release(namespace, name) {
      return asLease(store.patch(rt, namespace, name, 'merge', { spec: { release: true } }));
    },
    get(namespace, name) {
      const object = tryGet(store, rt, namespace, name);
      return object === undefined ? undefined : asLease(object);
    },
    list(namespace) {
      return store.list(rt, namespace).items.map(asLease);
    },
    waitFor(namespace, name, predicate, timeoutMs) {
      return waitForObject<Lease>(store, rt, namespace, name, predicate, timeoutMs);
    },
  };
}
