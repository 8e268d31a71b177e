/**
 * Fault injection for the test cluster: the failures a real API server and network produce, on
 * demand, so tests can prove the controller survives them — added latency, error responses
 * (403/409/422/429/500/503 with proper `Status` bodies), watches that drop or are cut mid-line, and watches
 * refused with 410 Gone. Rules match requests by verb, resource and identity; whether a rule fires is
 * drawn from a seeded generator, so a test with rates below 1 replays identically.
 *
 * Latency is real time (not the cluster clock): it models a slow network and server as the client
 * experiences them, and a manual test clock would otherwise hold every request forever.
 */
import type { RequestAttributes, Verb } from './counters';
import { ApiError } from './types';

/** Which requests a rule applies to; every given field must match (arrays: any of). */
export interface FaultMatch {
  readonly verb?: Verb | readonly Verb[];
  /** `''` for the core group. */
  readonly group?: string;
  /** Plural resource name, e.g. `exportersets`. */
  readonly resource?: string | readonly string[];
  /** `status`, `scale`, or `''` for the main resource only. */
  readonly subresource?: string;
  readonly namespace?: string;
  readonly identity?: string | readonly string[];
}

interface FaultFiring {
  /**
   * Probability that the rule fires on a matching request.
   * @default 1
   */
  readonly rate?: number;
  /**
   * The rule fires at most this many times, then stays inert (e.g. one forced 410, after which the
   * informer's re-list succeeds).
   * @default unlimited
   */
  readonly times?: number;
}

/** Delays matching requests before they are served. */
export interface LatencyFault extends FaultMatch, FaultFiring {
  readonly kind: 'latency';
  /** Real milliseconds added to the request. */
  readonly ms: number;
  /**
   * Up to this many more milliseconds, drawn uniformly.
   * @default 0
   */
  readonly jitterMs?: number;
}

/** Answers matching requests with an error instead of serving them (nothing is written). */
export interface ErrorFault extends FaultMatch, FaultFiring {
  readonly kind: 'error';
  /** 403: RBAC refuses the verb; 422: the object is refused as invalid (as one over a size limit is). */
  readonly code: 403 | 409 | 422 | 429 | 500 | 503;
  /**
   * Seconds in the `Retry-After` header and `details.retryAfterSeconds` (429 and 503).
   * @default 1
   */
  readonly retryAfterSeconds?: number;
}

/** Ends matching watch streams early, as a proxy or server restart does. */
export interface DropWatchFault extends FaultMatch, FaultFiring {
  readonly kind: 'dropWatch';
  /** End the stream after this many events were sent. */
  readonly afterEvents?: number;
  /** End the stream this many real milliseconds after it started. */
  readonly afterMs?: number;
  /**
   * Reset the connection instead of ending the response cleanly (the client sees an error, not an
   * orderly end of stream).
   * @default false
   */
  readonly abrupt?: boolean;
}

/** Cuts a matching watch stream in the middle of an event line, then ends it. */
export interface TruncateWatchFault extends FaultMatch, FaultFiring {
  readonly kind: 'truncateWatch';
  /**
   * Complete events sent before the one that is cut.
   * @default 0
   */
  readonly afterEvents?: number;
}

/** Refuses matching watches at once with an ERROR event carrying a 410 Expired `Status`. */
export interface ExpireWatchFault extends FaultMatch, FaultFiring {
  readonly kind: 'expireWatch';
}

export type FaultRule = LatencyFault | ErrorFault | DropWatchFault | TruncateWatchFault | ExpireWatchFault;

/** A rule as added, with its id and how often it fired. */
export type ActiveFault = FaultRule & { readonly id: string; readonly hits: number };

/** How the watch of one request must misbehave, decided when it starts. */
export type WatchFault =
  | { readonly kind: 'expire' }
  | {
      readonly kind: 'drop';
      readonly afterEvents?: number;
      readonly afterMs?: number;
      readonly abrupt: boolean;
    }
  | { readonly kind: 'truncate'; readonly afterEvents: number };

export interface FaultInjectorOptions {
  /**
   * Seed of the generator that decides rates and jitter.
   * @default 1
   */
  readonly seed?: number;
}

export class FaultInjector {
  private readonly active = new Map<string, { rule: FaultRule; hits: number }>();
  private nextId = 1;
  /** The seeded generator; the server also draws watch timeouts from it. */
  readonly random: () => number;

  constructor(options: FaultInjectorOptions = {}) {
    this.random = seededRandom(options.seed ?? 1);
  }

  /** Adds a rule; returns its id for `remove` and `hits`. */
  add(rule: FaultRule): string {
    if (rule.rate !== undefined && !(rule.rate >= 0 && rule.rate <= 1)) {
      throw new RangeError(`fault rate must be between 0 and 1, got ${rule.rate}`);
    }
    const id = `fault-${this.nextId++}`;
    this.active.set(id, { rule: { ...rule }, hits: 0 });
    return id;
  }

  /** Removes one rule; false when there was none with this id. */
  remove(id: string): boolean {
    return this.active.delete(id);
  }

  /** Removes every rule. */
  clear(): void {
    this.active.clear();
  }

  /** The rules in the order they were added, with their hit counts. */
  rules(): ActiveFault[] {
    return [...this.active.entries()].map(([id, { rule, hits }]) => ({ ...rule, id, hits }));
  }

  /** How many times the rule fired (0 for an unknown id). */
  hits(id: string): number {
    return this.active.get(id)?.hits ?? 0;
  }

  /** Real milliseconds to delay this request: the sum of every latency rule that fires. */
  latencyFor(request: RequestAttributes): number {
    let ms = 0;
    for (const rule of this.firing(request, 'latency')) {
      ms += rule.ms + (rule.jitterMs ? this.random() * rule.jitterMs : 0);
    }
    return ms;
  }

  /** The error to answer this request with, from the first error rule that fires. */
  errorFor(request: RequestAttributes): ApiError | undefined {
    const [rule] = this.firing(request, 'error', true);
    return rule ? injectedError(rule, request) : undefined;
  }

  /** How this watch must misbehave, from the first watch rule that fires. */
  watchFaultFor(request: RequestAttributes): WatchFault | undefined {
    const [rule] = this.firing(request, ['expireWatch', 'dropWatch', 'truncateWatch'], true);
    if (!rule) return undefined;
    switch (rule.kind) {
      case 'expireWatch':
        return { kind: 'expire' };
      case 'dropWatch':
        return {
          kind: 'drop',
          afterEvents: rule.afterEvents,
          afterMs: rule.afterMs,
          abrupt: rule.abrupt ?? false,
        };
      case 'truncateWatch':
        return { kind: 'truncate', afterEvents: rule.afterEvents ?? 0 };
    }
  }

  /** Matching rules of the given kinds that fire now (each counted as a hit); `first` stops at one. */
  private firing<K extends FaultRule['kind']>(
    request: RequestAttributes,
    kinds: K | K[],
    first = false,
  ): Extract<FaultRule, { kind: K }>[] {
    const wanted: string[] = Array.isArray(kinds) ? kinds : [kinds];
    const fired: Extract<FaultRule, { kind: K }>[] = [];
    for (const entry of this.active.values()) {
      const { rule } = entry;
      if (!wanted.includes(rule.kind) || !requestMatches(rule, request)) continue;
      if (rule.times !== undefined && entry.hits >= rule.times) continue;
      if (rule.rate !== undefined && rule.rate < 1 && this.random() >= rule.rate) continue;
      entry.hits += 1;
      fired.push(rule as Extract<FaultRule, { kind: K }>);
      if (first) break;
    }
    return fired;
  }
}

/** Whether `request` is one `rule` applies to (request hooks match the same way, request-hooks.ts). */
export function requestMatches(rule: FaultMatch, request: RequestAttributes): boolean {
  return (
    oneOf(rule.verb, request.verb) &&
    oneOf(rule.group, request.group) &&
    oneOf(rule.resource, request.resource) &&
    oneOf(rule.subresource, request.subresource) &&
    oneOf(rule.namespace, request.namespace) &&
    oneOf(rule.identity, request.identity)
  );
}

function oneOf<T>(wanted: T | readonly T[] | undefined, actual: T): boolean {
  if (wanted === undefined) return true;
  return Array.isArray(wanted) ? (wanted as readonly T[]).includes(actual) : wanted === actual;
}

/** The `Status` a real server sends for each injected code, so clients take their usual paths. */
function injectedError(rule: ErrorFault, request: RequestAttributes): ApiError {
  const retryAfterSeconds = rule.retryAfterSeconds ?? 1;
  const target = request.group ? `${request.resource}.${request.group}` : request.resource;
  const details = { name: request.name || undefined, group: request.group, kind: request.resource };
  switch (rule.code) {
    case 403:
      return new ApiError(
        403,
        'Forbidden',
        `${target}${request.name ? ` "${request.name}"` : ''} is forbidden: User "${request.identity}" cannot ${request.verb} resource "${request.resource}" in API group "${request.group}" in the namespace "${request.namespace}" (injected by the test cluster)`,
        details,
      );
    case 422:
      return new ApiError(
        422,
        'Invalid',
        `${target}${request.name ? ` "${request.name}"` : ''} is invalid: data: Too long: may not be more than 1048576 bytes (injected by the test cluster)`,
        details,
      );
    case 409:
      return new ApiError(
        409,
        'Conflict',
        `Operation cannot be fulfilled on ${target} "${request.name}": the object has been modified; please apply your changes to the latest version and try again (injected by the test cluster)`,
        details,
      );
    case 429:
      return new ApiError(
        429,
        'TooManyRequests',
        'Too many requests, please try again later. (injected by the test cluster)',
        {
          ...details,
          retryAfterSeconds,
        },
      );
    case 500:
      return new ApiError(
        500,
        'InternalError',
        'Internal error occurred: injected by the test cluster',
        details,
      );
    case 503:
      return new ApiError(
        503,
        'ServiceUnavailable',
        'the server is currently unable to handle the request (injected by the test cluster)',
        { ...details, retryAfterSeconds },
      );
  }
}

/** A small seeded PRNG (mulberry32): uniform in [0, 1), same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
