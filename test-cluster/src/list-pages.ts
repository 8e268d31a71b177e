/**
 * Paginated lists (`limit` / `continue`) with kube-apiserver's semantics: every page of one list is
 * read from the same snapshot — the store as it was at the first page's resourceVersion — so a client
 * that pages through a collection sees each object once, in one consistent state, whatever is written
 * meanwhile. The continue token is opaque to clients: it carries the snapshot's resourceVersion and the
 * last key served. A token whose snapshot is older than the store's event window cannot be rebuilt and
 * is 410 Expired, as etcd's compaction makes it on a real cluster; the client starts a new list.
 */
import { badRequest } from './api-errors';
import { ApiError, type KubeObject } from './types';

/** Where the next page starts: after `key` ([namespace, name]) in the snapshot at `rv`. */
export interface ContinueToken {
  readonly rv: number;
  readonly key: readonly [string, string];
}

/** A page cut from a sorted list. */
export interface ListPage {
  readonly items: KubeObject[];
  /** Present when more items follow. */
  readonly continue?: string;
  /** How many items follow; present with `continue` unless the list was filtered by selectors. */
  readonly remainingItemCount?: number;
}

/** The sort key of a list: namespace, then name (kube-apiserver lists in etcd key order). */
export const listKey = (o: KubeObject): [string, string] => [
  o.metadata.namespace ?? '',
  o.metadata.name ?? '',
];

export function compareKeys(a: readonly [string, string], b: readonly [string, string]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}

export function encodeContinue(token: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: 1, rv: token.rv, key: token.key })).toString('base64url');
}

const invalidToken = (why: string) =>
  badRequest(`continue key is not valid: ${why}; start the list again without the continue parameter`);

/**
 * The token a client sent back; 400 when it is not one of ours or belongs to another namespace's list
 * (`namespace`: the list's namespace, undefined for all namespaces or a cluster-scoped kind).
 */
export function decodeContinue(value: string, namespace: string | undefined): ContinueToken {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw invalidToken('not a token this server issued');
  }
  const { v, rv, key } = (parsed ?? {}) as { v?: unknown; rv?: unknown; key?: unknown };
  if (
    v !== 1 ||
    typeof rv !== 'number' ||
    !Number.isSafeInteger(rv) ||
    rv < 1 ||
    !Array.isArray(key) ||
    key.length !== 2 ||
    !key.every((part) => typeof part === 'string')
  ) {
    throw invalidToken('not a token this server issued');
  }
  if (namespace !== undefined && key[0] !== namespace) {
    throw invalidToken(`it continues a list of namespace "${String(key[0])}", not "${namespace}"`);
  }
  return { rv, key: [key[0] as string, key[1] as string] };
}

/** 410 for a token whose snapshot the store no longer has (its events left the window). */
export function expiredToken(): ApiError {
  return new ApiError(
    410,
    'Expired',
    'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.',
  );
}

/**
 * The page of `sorted` (sorted by `listKey`, already after the token's key) holding at most `limit`
 * items (all when `limit` is undefined); the token of the next page names snapshot `rv`.
 */
export function cutPage(
  sorted: readonly KubeObject[],
  limit: number | undefined,
  rv: number,
  countRemaining: boolean,
): ListPage {
  if (limit === undefined || sorted.length <= limit) return { items: [...sorted] };
  const items = sorted.slice(0, limit);
  return {
    items,
    continue: encodeContinue({ rv, key: listKey(items[items.length - 1]) }),
    ...(countRemaining ? { remainingItemCount: sorted.length - limit } : {}),
  };
}
