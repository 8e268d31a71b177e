/**
 * The ListWatch of one namespace (or of all) behind an informer, with what client-node leaves to the
 * caller: a restart with exponential backoff after any error (reset by the next successful list or
 * watch event; a restart resumes from the last resourceVersion, and a 410 then makes it re-list), a
 * paged list that is applied whole or not at all, the keep filter and the transform, `synced` once the
 * first list is in the cache, and a `stop()` that waits for every request in flight.
 */
import { ListWatch, type KubernetesListObject, type KubernetesObject } from '@kubernetes/client-node';
import { systemClock } from '../queue/clock';
import { isGone } from './api-errors';
import { GuardedWatch, type WatchGuard } from './guarded-watch';
import {
  DEFAULT_LIST_PAGE_SIZE,
  DEFAULT_RESTART_BACKOFF,
  type InformerErrorContext,
  type InformerOptions,
  type InformerSource,
  type ListOf,
  type WireObject,
} from './informer-contract';

/** How often a paged list starts over when its continue token expired (410) before the error counts. */
const EXPIRED_LIST_RESTARTS = 3;

/** The ListWatch of one namespace (or of all), with its restart loop. */
export class Reflector implements WatchGuard {
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
