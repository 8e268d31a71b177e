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
 * Cached objects are shared, not copied: treat them as read-only.
 */
import {
  ListWatch,
  Watch,
  type KubeConfig,
  type KubernetesListObject,
  type KubernetesObject,
} from '@kubernetes/client-node';
import { systemClock, type Clock } from '../queue/clock';
import { isGone } from './api-errors';
import type { ListPageRequest } from './custom-objects';

/** The least an informer needs of an object: its metadata. */
export interface WireObject {
  readonly metadata?: {
    readonly name?: string;
    readonly namespace?: string;
    readonly labels?: Readonly<Record<string, string>>;
    readonly resourceVersion?: string;
  };
}

/** Where an informer lists and watches. */
export interface InformerSource<T> {
  /** Plural resource name, for errors and logs. */
  readonly resource: string;
  /** The collection's watch path in `namespace` (all namespaces when undefined). */
  path(namespace: string | undefined): string;
  /** Lists one page of the collection in `namespace` (all when undefined) as wire objects. */
  list(
    namespace: string | undefined,
    labelSelector: string | undefined,
    page: ListPageRequest,
  ): Promise<ListOf<T>>;
}

export interface ListOf<T> {
  /** `continue`: the next page's token; absent on the last page. */
  readonly metadata?: { readonly resourceVersion?: string; readonly continue?: string };
  readonly items: T[];
}

/** Where an informer error came from; `retryInMs` is set when a restart was scheduled. */
export interface InformerErrorContext {
  readonly resource: string;
  /** Undefined for an all-namespaces informer. */
  readonly namespace?: string;
  readonly retryInMs?: number;
  /** `handler` when an event handler threw (the informer goes on). */
  readonly source: 'watch' | 'handler';
}

export interface InformerOptions {
  readonly kubeConfig: KubeConfig;
  /** Namespaces to watch, one watch each; undefined or empty: one watch across all namespaces. */
  readonly namespaces?: readonly string[];
  /** Server-side label filter of the list and the watch. */
  readonly labelSelector?: string;
  /**
   * Client-side filter: only objects it keeps enter the cache (and reach the handlers). An object that
   * stops being kept (a label or owner removed) leaves the cache as a deletion, as one that stops
   * matching a server-side label selector does.
   */
  readonly keep?: (object: WireObject) => boolean;
  /**
   * Cuts each kept object (of a list or a watch event) down before it enters the cache and reaches the
   * handlers. It must keep `metadata.name`, `namespace` and `resourceVersion`, and return a new object
   * rather than change its argument. @default none: objects are cached as received
   */
  readonly transform?: (object: WireObject) => WireObject;
  /**
   * Items per list request: the informer lists in pages, so it never holds a whole collection's response
   * at once (one list response of a large collection can be tens of megabytes, and would set the
   * controller's resident memory).
   * 0: one request for everything. @default DEFAULT_LIST_PAGE_SIZE
   */
  readonly listPageSize?: number;
  /** Timeline of restart backoffs. @default systemClock */
  readonly clock?: Clock;
  /** Restart backoff after an error. @default 500 ms doubling to 30 s */
  readonly restartBackoff?: { readonly initialMs?: number; readonly maxMs?: number };
  readonly onError?: (error: unknown, context: InformerErrorContext) => void;
}

export type InformerEvent = 'add' | 'update' | 'delete';
export type ObjectHandler<T> = (object: T) => void;

/** Read access to an informer's cache. */
export interface CacheView<T> {
  /** Objects in `namespace`, or in every watched namespace when undefined. */
  list(namespace?: string): T[];
  get(namespace: string, name: string): T | undefined;
  /** Objects whose label `key` equals `value`, in `namespace` or everywhere. */
  byLabel(key: string, value: string, namespace?: string): T[];
}

export const DEFAULT_RESTART_BACKOFF = { initialMs: 500, maxMs: 30_000 } as const;
/** client-go's reflector pages its lists by 500 too. */
export const DEFAULT_LIST_PAGE_SIZE = 500;
/** How often a paged list starts over when its continue token expired (410) before the error counts. */
const EXPIRED_LIST_RESTARTS = 3;

/** A `Watch` that opens nothing once its informer is stopped and reports what it sees. */
class GuardedWatch extends Watch {
  constructor(
    config: KubeConfig,
    private readonly reflector: Reflector,
  ) {
    super(config);
  }

  override async watch(
    path: string,
    queryParams: Record<string, string | number | boolean | undefined>,
    callback: (phase: string, apiObj: unknown, watchObj?: unknown) => void,
    done: (err: unknown) => void,
  ): Promise<AbortController> {
    const reflector = this.reflector;
    if (reflector.stopped) {
      const aborted = new AbortController();
      aborted.abort();
      return aborted;
    }
    // ListWatch opens its watch right after it applied a list to its cache: the cache is synced now.
    reflector.watchOpening();
    const opening = super.watch(
      path,
      queryParams,
      (phase, apiObj, watchObj) => {
        reflector.progressed();
        if (reflector.keeps(apiObj)) {
          callback(phase, reflector.transformed(apiObj), watchObj);
          return;
        }
        // No longer kept (a label or owner removed): it leaves the cache as a deletion, as an object
        // that stops matching a server-side selector does, with the cached version (what the handlers
        // last saw of it, so they know whom to tell) at the event's resourceVersion (where a restarted
        // watch resumes).
        const cached =
          phase === 'MODIFIED' ? (reflector.cached(apiObj) as WireObject | undefined) : undefined;
        if (cached !== undefined) {
          const resourceVersion = (apiObj as WireObject).metadata?.resourceVersion;
          callback('DELETED', { ...cached, metadata: { ...cached.metadata, resourceVersion } }, watchObj);
        }
      },
      done,
    );
    const controller = await reflector.track(opening);
    if (reflector.stopped) controller.abort();
    return controller;
  }
}

/** The ListWatch of one namespace (or of all), with its restart loop. */
class Reflector {
  readonly listWatch: ListWatch<KubernetesObject>;
  stopped = false;
  private listedSinceWatch = false;
  private synced = false;
  private readonly inFlight = new Set<Promise<unknown>>();
  private cancelRestart?: () => void;
  private nextBackoffMs: number;
  private resolveSynced!: () => void;
  readonly syncedPromise = new Promise<void>((resolve) => (this.resolveSynced = resolve));

  constructor(
    private readonly options: InformerOptions,
    private readonly source: InformerSource<unknown>,
    readonly namespace: string | undefined,
    private readonly onErrorReport: (error: unknown, context: InformerErrorContext) => void,
    private readonly onListed: () => void,
  ) {
    this.nextBackoffMs = this.backoff.initialMs;
    const listFn = async (): Promise<KubernetesListObject<KubernetesObject>> => {
      const list = await this.track(this.listAll());
      this.listedSinceWatch = true;
      this.progressed();
      this.onListed();
      return list as KubernetesListObject<KubernetesObject>;
    };
    this.listWatch = new ListWatch(
      source.path(namespace),
      new GuardedWatch(options.kubeConfig, this),
      listFn,
      false,
      options.labelSelector,
    );
    this.listWatch.on('error', (error: unknown) => this.failed(error));
  }

  private get backoff() {
    return {
      initialMs: this.options.restartBackoff?.initialMs ?? DEFAULT_RESTART_BACKOFF.initialMs,
      maxMs: this.options.restartBackoff?.maxMs ?? DEFAULT_RESTART_BACKOFF.maxMs,
    };
  }

  get hasSynced(): boolean {
    return this.synced;
  }

  /**
   * The whole collection, page by page, each page cut down to what the cache keeps before the next is
   * asked for. Every page comes from the snapshot of the first (the API server guarantees it), so the
   * result is one consistent list at one resourceVersion, from which the watch resumes. When the
   * snapshot expires between pages (410), the list starts over: a partial list must never be applied.
   */
  private async listAll(): Promise<ListOf<unknown>> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.listPages();
      } catch (error) {
        if (!isGone(error) || attempt > EXPIRED_LIST_RESTARTS) throw error;
      }
    }
  }

  private async listPages(): Promise<ListOf<unknown>> {
    const pageSize = this.options.listPageSize ?? DEFAULT_LIST_PAGE_SIZE;
    const items: unknown[] = [];
    let token: string | undefined;
    let resourceVersion: string | undefined;
    do {
      if (this.stopped) throw new Error(`the ${this.source.resource} informer stopped while listing`);
      const page = await this.source.list(this.namespace, this.options.labelSelector, {
        ...(pageSize > 0 ? { limit: pageSize } : {}),
        ...(token !== undefined ? { continue: token } : {}),
      });
      for (const item of page.items) if (this.keeps(item)) items.push(this.transformed(item));
      resourceVersion = page.metadata?.resourceVersion;
      token = page.metadata?.continue || undefined;
    } while (token !== undefined);
    return { metadata: resourceVersion !== undefined ? { resourceVersion } : {}, items };
  }

  /** Whether an object (of a list or a watch event) enters the cache; BOOKMARK and ERROR bodies pass. */
  keeps(object: unknown): boolean {
    const keep = this.options.keep;
    const metadata = (object as WireObject | undefined)?.metadata;
    if (!keep || (object as { kind?: string })?.kind === 'Status' || metadata?.name === undefined)
      return true;
    return keep(object as WireObject);
  }

  /** The cached version of a watched object, if the cache holds one. */
  cached(object: unknown): unknown {
    const metadata = (object as WireObject | undefined)?.metadata;
    if (metadata?.name === undefined) return undefined;
    return this.listWatch.get(metadata.name, metadata.namespace);
  }

  /** The object as the cache keeps it (see `InformerOptions.transform`); Status bodies pass as they are. */
  transformed(object: unknown): unknown {
    const transform = this.options.transform;
    const metadata = (object as WireObject | undefined)?.metadata;
    if (!transform || (object as { kind?: string })?.kind === 'Status' || metadata?.name === undefined)
      return object;
    return transform(object as WireObject);
  }

  start(): void {
    this.launch();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelRestart?.();
    this.cancelRestart = undefined;
    await this.listWatch.stop();
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Keeps `promise` in the set `stop()` waits for. */
  track<P>(promise: Promise<P>): Promise<P> {
    this.inFlight.add(promise);
    const untrack = () => void this.inFlight.delete(promise);
    promise.then(untrack, untrack);
    return promise;
  }

  watchOpening(): void {
    if (this.listedSinceWatch && !this.synced) {
      this.synced = true;
      this.resolveSynced();
    }
    this.listedSinceWatch = false;
  }

  /** A list or a watch event came through: the next failure starts the backoff over. */
  progressed(): void {
    this.nextBackoffMs = this.backoff.initialMs;
  }

  private launch(): void {
    if (this.stopped) return;
    // start() reports failures through the `error` event; a throw here (no current cluster) too.
    this.listWatch.start().catch((error: unknown) => this.failed(error));
  }

  private failed(error: unknown): void {
    if (this.stopped || this.cancelRestart) return; // stop() aborts with an error; one restart at a time
    const retryInMs = this.nextBackoffMs;
    this.nextBackoffMs = Math.min(this.nextBackoffMs * 2, this.backoff.maxMs);
    const clock = this.options.clock ?? systemClock;
    this.cancelRestart = clock.setTimeout(() => {
      this.cancelRestart = undefined;
      this.launch();
    }, retryInMs);
    this.onErrorReport(error, {
      resource: this.source.resource,
      ...(this.namespace !== undefined ? { namespace: this.namespace } : {}),
      retryInMs,
      source: 'watch',
    });
  }
}

export class ResourceInformer<T extends WireObject> implements CacheView<T> {
  private readonly reflectors: Reflector[];
  private readonly byNamespace = new Map<string, Reflector>();
  private readonly handlers: Record<InformerEvent, ObjectHandler<T>[]> = { add: [], update: [], delete: [] };
  private readonly listedHandlers: (() => void)[] = [];
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
