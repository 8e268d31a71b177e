/**
 * One watch response: a chunked stream of JSON lines `{"type": ..., "object": ...}` fed by a store
 * watch, as kube-apiserver sends it. Headers are flushed at once (client-node waits for them before
 * it reads events). A resourceVersion older than the store's event window gets, like a real server,
 * a 200 with one ERROR event carrying a 410 Expired `Status`, and the stream ends; client-node's
 * informer then re-lists. The stream also ends at the server-side timeout, when the client goes, and
 * when an injected fault drops or truncates it. The store watch is stopped whenever the stream ends.
 * With `allowWatchBookmarks`, a BOOKMARK precedes the end at the timeout (when the store offers
 * `bookmark()`, as the in-memory store does).
 */
import type { ServerResponse } from 'node:http';
import type { WatchFault } from './faults';
import { stringifyJson } from './json-values';
import {
  ApiError,
  apiVersionOf,
  type KubeObject,
  type ObjectStore,
  type ResourceType,
  type WatchEvent,
  type WatchOptions,
} from './types';

export interface WatchStreamOptions {
  readonly store: ObjectStore;
  readonly type: ResourceType;
  readonly namespace: string | undefined;
  readonly options: WatchOptions;
  /** Real milliseconds after which the server ends the stream. */
  readonly timeoutMs: number;
  readonly fault?: WatchFault;
  /** Called once with the HTTP code when the response starts (200), for the request counters. */
  readonly onStart: (code: number) => void;
  /** Answers the request with an error instead (the watch could not start); the stream is then unused. */
  readonly onRefused: (error: unknown) => void;
}

/** A running watch stream; `close()` ends it cleanly (the server is stopping). */
export interface WatchStream {
  close(): void;
  /** Resolves when the stream has ended, for whatever reason. */
  readonly done: Promise<void>;
}

export function serveWatch(res: ServerResponse, o: WatchStreamOptions): WatchStream {
  let started = false;
  let ended = false;
  let sent = 0;
  let storeWatch: { stop(): void; bookmark?: () => void } | undefined;
  const timers: NodeJS.Timeout[] = [];
  let resolveDone: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));

  const start = (): void => {
    if (started) return;
    started = true;
    o.onStart(200);
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' });
    res.flushHeaders();
  };
  /** Stops everything; `how` says what to do with the response if it is still open. */
  const finish = (how: 'end' | 'reset' | 'none'): void => {
    if (ended) return;
    ended = true;
    for (const timer of timers) clearTimeout(timer);
    storeWatch?.stop();
    storeWatch = undefined;
    // Close the connection under the response (what was written is still sent): the client sees the
    // stream end without its final chunk, an error, as when a proxy or the server dies.
    if (how === 'reset') res.socket?.end();
    else if (how === 'end' && !res.writableEnded) {
      start();
      res.end();
    }
    resolveDone();
  };
  const after = (ms: number, fn: () => void): void => {
    const timer = setTimeout(fn, ms);
    timer.unref();
    timers.push(timer);
  };
  const expire = (error: ApiError): void => {
    start();
    res.write(JSON.stringify({ type: 'ERROR', object: error.toStatus() }) + '\n');
    finish('end');
  };

  const fault = o.fault;
  const onEvent = (event: WatchEvent): void => {
    if (ended) return;
    const line = stringifyJson({ type: event.type, object: withTypeMeta(event.object, o.type) })!;
    start();
    if (fault?.kind === 'truncate' && sent >= fault.afterEvents) {
      res.write(line.slice(0, Math.ceil(line.length / 2)));
      finish('end');
      return;
    }
    res.write(line + '\n');
    sent += 1;
    if (fault?.kind === 'drop' && fault.afterEvents !== undefined && sent >= fault.afterEvents) {
      finish(fault.abrupt ? 'reset' : 'end');
    }
  };

  // The client went away (or the response ended): release the store watch.
  res.on('close', () => finish('none'));

  if (fault?.kind === 'expire') {
    expire(
      new ApiError(410, 'Expired', `too old resource version: ${o.options.resourceVersion ?? ''} (injected)`),
    );
    return { close: () => undefined, done };
  }
  try {
    const handle = o.store.watch(o.type, o.namespace, o.options, onEvent);
    if (ended) handle.stop();
    else storeWatch = handle;
  } catch (error) {
    if (error instanceof ApiError && error.code === 410) {
      expire(error);
    } else if (!started) {
      ended = true;
      resolveDone();
      o.onRefused(error);
    } else {
      finish('end');
    }
    return { close: () => undefined, done };
  }
  if (!ended) {
    start();
    after(o.timeoutMs, () => {
      // As kube-apiserver does, a watch that allows bookmarks gets one just before the timeout ends
      // it, so the client resumes from a current version.
      if (o.options.allowBookmarks) storeWatch?.bookmark?.();
      finish('end');
    });
    if (fault?.kind === 'drop' && fault.afterMs !== undefined) {
      const abrupt = fault.abrupt;
      after(fault.afterMs, () => finish(abrupt ? 'reset' : 'end'));
    }
  }
  return { close: () => finish('end'), done };
}

/** Watch events and list items carry `apiVersion` and `kind`, as a real server sends them. */
export function withTypeMeta(object: KubeObject, type: ResourceType): KubeObject {
  if (object.apiVersion && object.kind) return object;
  return { ...object, apiVersion: object.apiVersion || apiVersionOf(type), kind: object.kind || type.kind };
}
