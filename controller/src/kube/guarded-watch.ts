/**
 * The watch an informer opens: client-node's `Watch`, guarded so that nothing is opened once the
 * informer is stopped and one being opened is aborted, and filtered so that only the objects the cache
 * keeps reach it, each as the cache keeps it (`InformerOptions.keep`, `transform`).
 */
import { Watch, type KubeConfig } from '@kubernetes/client-node';
import type { WireObject } from './informer-contract';

/** What a guarded watch asks of the reflector that opens it (reflector.ts). */
export interface WatchGuard {
  readonly stopped: boolean;
  /** The watch is being opened, so the list before it is in the cache. */
  watchOpening(): void;
  /** A watch event came through. */
  progressed(): void;
  keeps(object: unknown): boolean;
  transformed(object: unknown): unknown;
  cached(object: unknown): unknown;
  track<P>(promise: Promise<P>): Promise<P>;
}

/** A `Watch` that opens nothing once its informer is stopped and reports what it sees. */
export class GuardedWatch extends Watch {
  constructor(
    config: KubeConfig,
    private readonly reflector: WatchGuard,
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
