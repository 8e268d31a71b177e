/**
 * One resource's informer: client-node's `ListWatch` (list, then watch from the list's
 * resourceVersion, re-list on 410 Gone) made fit for a long-running controller.
 *
 * What client-node leaves to the caller, and this adds:
 * - **Restart on error.** `ListWatch` re-watches after a clean end of stream and re-lists after a
 *   410, but any other failure (a failed list, a refused or reset watch) emits `error` and stops it
 *   for good. Here every such error schedules a restart with exponential backoff (reset by the next
 *   successful list or watch event); a restart resumes from the last resourceVersion, and a 410 then
 *   makes it re-list.
 * - **A clean stop.** `ListWatch.stop()` during a list still opens the watch afterwards, and a watch
 *   whose connection is being opened is not aborted. Here the watch is guarded: after `stop()` no
 *   watch is opened and one being opened is aborted, and `stop()` waits for requests in flight, so
 *   nothing is left open.
 * - **`synced`.** Resolves once every watched namespace has been listed into the cache (the
 *   controller must not plan from an empty cache: it would create twins of what it cannot see).
 * - **A typed cache view** over one or several namespaces: one watch for all namespaces, or one per
 *   namespace when the controller is limited to some (`--namespace`).
 * - **A transform** (controller-runtime's cache transform): each object is cut down to what the
 *   controller reads before it enters the cache, so 10,000 Pods do not keep 10,000 Pod specs in memory.
 *
 * This file is the informer over its namespaces (handlers, `synced`, the cache view); one namespace's
 * list, watch and restarts are reflector.ts, the guarded watch guarded-watch.ts, and what an informer is
 * given and serves informer-contract.ts. Cached objects are shared, not copied: treat them as read-only.
 */
import { ObjectIndex, type IndexKeys } from './object-index';
import { Reflector } from './reflector';
import type {
  CacheView,
  InformerErrorContext,
  InformerOptions,
  InformerSource,
  WireObject,
} from './informer-contract';

export type InformerEvent = 'add' | 'update' | 'delete';
export type ObjectHandler<T> = (object: T) => void;

export class ResourceInformer<T extends WireObject> implements CacheView<T> {
  private readonly reflectors: Reflector[];
  private readonly byNamespace = new Map<string, Reflector>();
  private readonly handlers: Record<InformerEvent, ObjectHandler<T>[]> = { add: [], update: [], delete: [] };
  private readonly listedHandlers: (() => void)[] = [];
  private readonly indexes = new Map<string, ObjectIndex<T>>();
  private readonly syncedPromise: Promise<void>;
  private started = false;
  private rejectSynced?: (error: Error) => void;

  constructor(
    readonly source: InformerSource<T>,
    options: InformerOptions,
  ) {
    const namespaces = [...new Set(options.namespaces ?? [])];
    const report = (error: unknown, context: InformerErrorContext) => {
      try {
        options.onError?.(error, context);
      } catch {
        // A failing reporter must not break the informer.
      }
    };
    const scopes = namespaces.length > 0 ? namespaces : [undefined];
    const listed = () => {
      for (const handler of this.listedHandlers) {
        try {
          handler();
        } catch {
          // A failing observer must not break the informer.
        }
      }
    };
    this.reflectors = scopes.map((ns) => new Reflector(options, source, ns, report, listed));
    for (const reflector of this.reflectors) {
      if (reflector.namespace !== undefined) this.byNamespace.set(reflector.namespace, reflector);
      for (const event of ['add', 'update', 'delete'] as const) {
        reflector.listWatch.on(event, (object) => this.dispatch(event, object as T, reflector, report));
      }
    }
    const all = Promise.all(this.reflectors.map((r) => r.syncedPromise)).then(() => undefined);
    this.syncedPromise = Promise.race([all, new Promise<never>((_, reject) => (this.rejectSynced = reject))]);
    this.syncedPromise.catch(() => undefined); // rejection is for awaiters only, never unhandled
  }

  /** Plural resource name. */
  get resource(): string {
    return this.source.resource;
  }

  /** Handlers run synchronously on every cache change, in registration order; register before `start`. */
  on(event: InformerEvent, handler: ObjectHandler<T>): void {
    this.handlers[event].push(handler);
  }

  /**
   * `handler` runs after every successful list of the collection (of any watched namespace): the API
   * serves the resource again after errors (the first list of all namespaces syncs the cache).
   */
  onListed(handler: () => void): void {
    this.listedHandlers.push(handler);
  }

  /** Starts listing and watching (idempotent). */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const reflector of this.reflectors) reflector.start();
  }

  /** Resolves when every watched namespace is listed into the cache; rejects if stopped first. */
  get synced(): Promise<void> {
    return this.syncedPromise;
  }

  hasSynced(): boolean {
    return this.reflectors.every((r) => r.hasSynced);
  }

  /** Stops every watch and waits for the requests in flight. */
  async stop(): Promise<void> {
    this.rejectSynced?.(new Error(`the ${this.resource} informer stopped before its cache synced`));
    await Promise.all(this.reflectors.map((r) => r.stop()));
  }

  list(namespace?: string): T[] {
    if (namespace === undefined) return this.reflectors.flatMap((r) => this.itemsOf(r));
    const reflector = this.reflectorFor(namespace);
    return reflector ? this.itemsOf(reflector, namespace) : [];
  }

  get(namespace: string, name: string): T | undefined {
    return this.reflectorFor(namespace)?.listWatch.get(name, namespace) as T | undefined;
  }

  byLabel(key: string, value: string, namespace?: string): T[] {
    return this.list(namespace).filter((object) => object.metadata?.labels?.[key] === value);
  }

  /**
   * Keeps an index `name` of the cache by the keys `keysOf` gives each object (object-index.ts), from
   * the objects cached now on; kept up to date before any handler runs, so handlers read it current.
   */
  addIndex(name: string, keysOf: IndexKeys<T>): void {
    const index = new ObjectIndex(keysOf);
    for (const object of this.list()) index.put(object);
    this.indexes.set(name, index);
  }

  byIndex(name: string, key: string): T[] {
    const index = this.indexes.get(name);
    if (!index) throw new Error(`the ${this.resource} informer keeps no index ${name}; addIndex it first`);
    return index.get(key);
  }

  private reflectorFor(namespace: string): Reflector | undefined {
    return this.byNamespace.size > 0 ? this.byNamespace.get(namespace) : this.reflectors[0];
  }

  private itemsOf(reflector: Reflector, namespace?: string): T[] {
    return reflector.listWatch.list(namespace) as unknown as T[];
  }

  private dispatch(
    event: InformerEvent,
    object: T,
    reflector: Reflector,
    report: (error: unknown, context: InformerErrorContext) => void,
  ): void {
    for (const index of this.indexes.values()) {
      try {
        if (event === 'delete') index.remove(object);
        else index.put(object);
      } catch (error) {
        report(error, {
          resource: this.resource,
          ...(reflector.namespace !== undefined ? { namespace: reflector.namespace } : {}),
          source: 'handler',
        });
      }
    }
    for (const handler of this.handlers[event]) {
      try {
        handler(object);
      } catch (error) {
        // Thrown into ListWatch, a handler error would be swallowed by the watch's line parser.
        report(error, {
          resource: this.resource,
          ...(reflector.namespace !== undefined ? { namespace: reflector.namespace } : {}),
          source: 'handler',
        });
      }
    }
  }
}
