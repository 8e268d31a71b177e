/**
 * List, then watch from the list's resourceVersion, of one kind in one namespace (or in all), into a
 * remote port's view (`object-cache.ts`), with client-node's `Watch`. A watch that ends is opened
 * again from the last resourceVersion it delivered (BOOKMARKs included); a 410 (the version is too old,
 * as an `ERROR` event or an answer) lists again; any other failure lists again after a backoff (500 ms
 * doubling to 30 s, reset by the next successful list). `stop()` aborts the open watch and waits for
 * the loop to end, so nothing is left open.
 */
import { Watch, type KubeConfig } from '@kubernetes/client-node';
import { ApiError, type KubeObject } from '../types';
import type { ObjectCache } from './object-cache';
import { toApiError, typed, type ResourceApi } from './resource-api';

export interface ReflectorOptions {
  readonly kubeConfig: KubeConfig;
  readonly api: ResourceApi;
  readonly cache: ObjectCache;
  /** @default every namespace */
  readonly namespace?: string;
  /** @default { initialMs: 500, maxMs: 30000 } */
  readonly backoff?: { readonly initialMs?: number; readonly maxMs?: number };
  /** A failure the reflector retries after the backoff. */
  readonly onError?: (error: unknown) => void;
}

export interface Reflector {
  /** Resolves once the first list is in the view. */
  readonly synced: Promise<void>;
  /** The last failure, while the reflector has not listed since (for errors that say why it is not synced). */
  lastError(): unknown;
  stop(): Promise<void>;
}

type WatchEnd = { readonly gone: boolean; readonly error?: unknown };

const isGone = (error: unknown): boolean => error instanceof ApiError && error.code === 410;

export function startReflector(options: ReflectorOptions): Reflector {
  const { api, cache, namespace } = options;
  const initialMs = options.backoff?.initialMs ?? 500;
  const maxMs = options.backoff?.maxMs ?? 30_000;
  const watcher = new Watch(options.kubeConfig);
  let stopped = false;
  let abort: AbortController | undefined;
  let wakeUp: (() => void) | undefined;
  let failure: unknown;
  let markSynced!: () => void;
  const synced = new Promise<void>((resolve) => (markSynced = resolve));

  /** Watches from `resourceVersion` until the stream ends; `onVersion` follows the delivered versions. */
  function watchFrom(resourceVersion: string, onVersion: (version: string) => void): Promise<WatchEnd> {
    return new Promise<WatchEnd>((resolve) => {
      let gone = false;
      let eventError: unknown;
      const query = { resourceVersion, allowWatchBookmarks: true };
      const opened = watcher.watch(
        api.path(namespace),
        query,
        (type: string, object: unknown) => {
          const event = object as KubeObject;
          if (type === 'ERROR') {
            const code = (object as { code?: unknown } | undefined)?.code;
            if (code === 410) gone = true;
            else eventError = toApiError({ code, body: object });
            return;
          }
          const version = event?.metadata?.resourceVersion;
          if (type === 'ADDED' || type === 'MODIFIED') cache.put(typed(api.kind, event));
          else if (type === 'DELETED') cache.remove(event);
          if (version !== undefined) onVersion(version);
        },
        (error: unknown) => resolve({ gone, error: error ?? eventError }),
      );
      opened.then(
        (controller) => {
          abort = controller;
          if (stopped) controller.abort();
        },
        (error: unknown) => resolve({ gone, error }),
      );
    });
  }

  function pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  async function loop(): Promise<void> {
    let resourceVersion: string | undefined;
    let backoffMs = initialMs;
    while (!stopped) {
      try {
        if (resourceVersion === undefined) {
          const page = await api.list(namespace);
          if (stopped) return;
          cache.replace(page.items, page.resourceVersion, namespace);
          resourceVersion = page.resourceVersion;
          failure = undefined;
          backoffMs = initialMs;
          markSynced();
        }
        const end = await watchFrom(resourceVersion, (version) => (resourceVersion = version));
        abort = undefined;
        if (stopped) return;
        if (end.gone) resourceVersion = undefined;
        else if (end.error !== undefined) throw toApiError(end.error);
      } catch (error) {
        if (stopped) return;
        if (isGone(error)) {
          resourceVersion = undefined;
          continue;
        }
        failure = error;
        options.onError?.(error);
        await pause(backoffMs);
        backoffMs = Math.min(backoffMs * 2, maxMs);
      }
    }
  }

  const running = loop();
  return {
    synced,
    lastError: () => failure,
    async stop() {
      stopped = true;
      abort?.abort();
      wakeUp?.();
      await running;
    },
  };
}
