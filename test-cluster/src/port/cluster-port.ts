/**
 * What the simulators need of an API server, and nothing more: reads of the few kinds they work on from
 * a watch-fed view, change notices, and writes. Two adapters implement it — `storePort` on the test
 * cluster's own store (in process, synchronous) and `startRemotePort` over HTTP(S) with client-node
 * (any API server; writes are Promises) — so the simulators' logic exists once (`coroutine.ts` says
 * how the same code runs synchronously on one and asynchronously on the other).
 *
 * Every failure is an `ApiError` with the HTTP code, whichever adapter raised it, so the simulators
 * tell a 404 (the object is gone) and a 409 (someone wrote first) apart the same way in both modes.
 */
import type { KubeObject } from '../types';

/** The kinds the simulators read and write. */
export type SimulatedKind = 'Exporter' | 'Lease' | 'Secret' | 'Pod';

export type PortEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface PortEvent {
  readonly type: PortEventType;
  /** The object as stored: shared with the view, treat it as read-only. */
  readonly object: KubeObject;
}

/** A value now (in process) or later (over HTTP). */
export type Awaitable<T> = T | PromiseLike<T>;

/** How a simulator's API answers: `sync` in process, `async` against a remote API server. */
export type Mode = 'sync' | 'async';

/**
 * `T` in `sync` mode, a Promise of it in `async` mode, and either for `Mode` itself, so code written
 * against both modes `await`s every call.
 */
export type Returns<T, M extends Mode> = M extends 'sync' ? T : Promise<T>;

export interface ClusterPort {
  /** The object as the port last saw it (in process: as stored), or undefined when it does not exist. */
  get(kind: SimulatedKind, namespace: string, name: string): KubeObject | undefined;
  /** The objects of a namespace (or of every namespace the port sees) in namespace and name order. */
  list(kind: SimulatedKind, namespace?: string): KubeObject[];
  /**
   * Calls `handler` with an ADDED event for every object that exists now (in namespace and name
   * order), then with every change, in the order the port learns of them. Handlers must only note
   * and schedule work: they are called in the middle of writes. Returns the unsubscribe function.
   */
  watch(kind: SimulatedKind, handler: (event: PortEvent) => void): () => void;
  /** Creates the object (`metadata.generateName` is honoured); 409 AlreadyExists when the name is taken. */
  create(kind: SimulatedKind, namespace: string, object: KubeObject): Awaitable<KubeObject>;
  /**
   * A JSON merge patch (RFC 7386) of the object, or of its status subresource. A
   * `metadata.resourceVersion` in the patch is a precondition (409 when the object moved on).
   */
  patch(
    kind: SimulatedKind,
    namespace: string,
    name: string,
    patch: object,
    subresource?: 'status',
  ): Awaitable<KubeObject>;
  /**
   * Replaces the status with `object.status`, on the condition that the object is still at
   * `object.metadata.resourceVersion` (409 otherwise).
   */
  replaceStatus(kind: SimulatedKind, object: KubeObject): Awaitable<KubeObject>;
}
