/**
 * What an informer is given and what it serves: where it lists and watches (`InformerSource`), how
 * (`InformerOptions`), what it reports when something fails (`InformerErrorContext`), and the read
 * access to its cache (`CacheView`) that the reconciler's snapshot and the handlers use.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Clock } from '../queue/clock';
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

/** Read access to an informer's cache. */
export interface CacheView<T> {
  /** Objects in `namespace`, or in every watched namespace when undefined. */
  list(namespace?: string): T[];
  get(namespace: string, name: string): T | undefined;
  /** Objects whose label `key` equals `value`, in `namespace` or everywhere. */
  byLabel(key: string, value: string, namespace?: string): T[];
  /** Objects under `key` in the index `name` (object-index.ts); throws for an index not kept. */
  byIndex(name: string, key: string): T[];
}

export const DEFAULT_RESTART_BACKOFF = { initialMs: 500, maxMs: 30_000 } as const;
/** client-go's reflector pages its lists by 500 too. */
export const DEFAULT_LIST_PAGE_SIZE = 500;
