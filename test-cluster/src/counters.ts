/**
 * Request counters of the test cluster: every request the HTTP server answers, keyed the way RBAC
 * sees it (identity, verb, group, resource, subresource, namespace), with the HTTP codes it got.
 * Benchmarks read them to count API calls per reconcile; the RBAC replay reads the distinct keys of
 * the controller's identity to check its ClusterRole grants exactly what it uses.
 */

/** Kubernetes RBAC verbs of resource requests. */
export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

/** What one request was, in RBAC terms. */
export interface RequestKey {
  /** The identity of the bearer token (`TestCluster.kubeConfigFor(identity)`), or `system:anonymous`. */
  readonly identity: string;
  readonly verb: Verb;
  /** `''` for the core group. */
  readonly group: string;
  /** Plural resource name; `''` for a non-resource request (discovery, `/version`). */
  readonly resource: string;
  /** `status`, `scale` or `''`. */
  readonly subresource: string;
  /** `''` for cluster-scoped resources and for lists and watches across all namespaces. */
  readonly namespace: string;
  /** The URL path of a non-resource request (`/apis`, `/api/v1`); `''` for resource requests. */
  readonly path: string;
}

/** The attributes of a request the server routes: its RBAC key plus what the URL named. */
export interface RequestAttributes extends RequestKey {
  readonly version: string;
  /** Object name of a get/update/patch/delete; `''` for collections. */
  readonly name: string;
}

/** One counter: all requests with the same key. */
export interface CounterEntry extends RequestKey {
  count: number;
  /** Requests per HTTP status code (`200`, `201`, `409`...); a watch counts with the code it started with. */
  byCode: Record<number, number>;
}

/** Matches entries whose fields equal every given field (arrays: any of). */
export type CounterFilter = { readonly [K in keyof RequestKey]?: RequestKey[K] | readonly RequestKey[K][] };

const KEY_FIELDS = ['identity', 'verb', 'group', 'resource', 'subresource', 'namespace', 'path'] as const;

/** Requests in flight at once among those matching a filter (see {@link RequestCounters.trackConcurrency}). */
export interface ConcurrencyTracker {
  /** Requests being served now. */
  readonly current: number;
  /** The most served at once since tracking began. */
  readonly peak: number;
  /** Stops tracking. */
  stop(): void;
}

interface Tracker {
  readonly filter: CounterFilter;
  current: number;
  peak: number;
}

/** Told of each request as the server starts serving it; the server passes its full attributes. */
export type RequestListener = (request: RequestKey & Partial<RequestAttributes>) => void;

export class RequestCounters {
  private readonly entries = new Map<string, CounterEntry>();
  private readonly trackers = new Set<Tracker>();
  private readonly listeners = new Set<RequestListener>();

  /**
   * Calls `listener` as each request arrives (before any latency fault), e.g. so a benchmark can
   * timestamp a controller's create on the server's side. Returns the unsubscribe function.
   */
  onRequest(listener: RequestListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /**
   * Called by the server when it starts serving a request (latency faults included); the returned
   * function when it has answered. Feeds the concurrency trackers and the request listeners.
   */
  begin(key: RequestKey & Partial<RequestAttributes>): () => void {
    for (const listener of this.listeners) listener(key);
    const hit = [...this.trackers].filter((t) => matches(key, t.filter));
    for (const t of hit) {
      t.current += 1;
      t.peak = Math.max(t.peak, t.current);
    }
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      for (const t of hit) t.current -= 1;
    };
  }

  /**
   * Tracks how many requests matching `filter` the server serves at once, from now on: e.g. the
   * Exporter creates a controller has in flight (add a latency fault so they overlap measurably).
   */
  trackConcurrency(filter: CounterFilter): ConcurrencyTracker {
    const tracker: Tracker = { filter, current: 0, peak: 0 };
    this.trackers.add(tracker);
    return {
      get current() {
        return tracker.current;
      },
      get peak() {
        return tracker.peak;
      },
      stop: () => {
        this.trackers.delete(tracker);
      },
    };
  }

  /** Counts one answered request (called by the server once per request). */
  record(key: RequestKey, code: number): void {
    const id = KEY_FIELDS.map((field) => key[field]).join('\u0000');
    let entry = this.entries.get(id);
    if (!entry) {
      entry = { ...pickKey(key), count: 0, byCode: {} };
      this.entries.set(id, entry);
    }
    entry.count += 1;
    entry.byCode[code] = (entry.byCode[code] ?? 0) + 1;
  }

  /** A copy of every counter (optionally only those matching `filter`), in first-seen order. */
  snapshot(filter: CounterFilter = {}): CounterEntry[] {
    return [...this.entries.values()]
      .filter((entry) => matches(entry, filter))
      .map((entry) => ({ ...entry, byCode: { ...entry.byCode } }));
  }

  /** Number of requests matching `filter` (all requests without one). */
  total(filter: CounterFilter = {}): number {
    return this.snapshot(filter).reduce((sum, entry) => sum + entry.count, 0);
  }

  /** Number of requests matching `filter` that were answered with `code`. */
  totalWithCode(code: number, filter: CounterFilter = {}): number {
    return this.snapshot(filter).reduce((sum, entry) => sum + (entry.byCode[code] ?? 0), 0);
  }

  /** Requests matching `filter`, summed per verb (handy in benchmark reports). */
  byVerb(filter: CounterFilter = {}): Partial<Record<Verb, number>> {
    const out: Partial<Record<Verb, number>> = {};
    for (const entry of this.snapshot(filter)) out[entry.verb] = (out[entry.verb] ?? 0) + entry.count;
    return out;
  }

  /** The distinct identities that made requests. */
  identities(): string[] {
    return [...new Set([...this.entries.values()].map((entry) => entry.identity))];
  }

  /** Forgets every count (e.g. between the warm-up and the measured phase of a benchmark). */
  reset(): void {
    this.entries.clear();
  }
}

function pickKey(key: RequestKey): RequestKey {
  const { identity, verb, group, resource, subresource, namespace, path } = key;
  return { identity, verb, group, resource, subresource, namespace, path };
}

function matches(entry: RequestKey, filter: CounterFilter): boolean {
  return KEY_FIELDS.every((field) => {
    const wanted = filter[field];
    if (wanted === undefined) return true;
    return Array.isArray(wanted) ? wanted.includes(entry[field]) : wanted === entry[field];
  });
}
