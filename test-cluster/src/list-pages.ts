/**
 * Paginated lists (`limit` / `continue`) with kube-apiserver's semantics: every page of one list is
 * read from the same snapshot — the store as it was at the first page's resourceVersion — so a client
 * that pages through a collection sees each object once, in one consistent state, whatever is written
 * meanwhile. A list is in etcd's key order (`<namespace>/<name>` compared as bytes, so namespace
 * `lab-2` comes before `lab`). The continue token is kube-apiserver's: base64url of
 * `{"v":"meta.k8s.io/v1","rv":<snapshot>,"start":"<key after the last item>"}`, the key relative to
 * the list (`/<name>` in one namespace, `/<namespace>/<name>` across namespaces), so a token of one
 * namespace's list continues after the same name in another namespace, as it does there. A token
 * whose snapshot is older than the store's event window cannot be rebuilt and is 410 Expired, as
 * etcd's compaction makes it on a real cluster; the client starts a new list.
 */
import { posix } from 'node:path';
import { badRequest } from './api-errors';
import { ApiError, type KubeObject } from './types';

/** Where the next page starts: at relative key `start` (inclusive) in the snapshot at `rv`. */
export interface ContinueToken {
  /** The snapshot; negative: the latest (an inconsistent continuation, as kube-apiserver allows). */
  readonly rv: number;
  /** Relative to the list, with a leading `/`; the last key served plus a NUL, so the page starts after it. */
  readonly start: string;
}

/** A page cut from a sorted list. */
export interface ListPage {
  readonly items: KubeObject[];
  /** Present when more items follow. */
  readonly continue?: string;
  /** How many items follow; present with `continue` unless the list was filtered by selectors. */
  readonly remainingItemCount?: number;
}

const TOKEN_VERSION = 'meta.k8s.io/v1';

/** The key etcd orders a list by: `<namespace>/<name>`, or `<name>` for a cluster-scoped object. */
export const storageKey = (o: KubeObject): string =>
  o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name ?? ''}` : (o.metadata.name ?? '');

/** Byte order of two keys (names and namespaces are ASCII, where UTF-16 order is byte order). */
export const compareStorageKeys = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The key of `o` relative to its list: `/<namespace>/<name>` across namespaces, `/<name>` otherwise. */
export const relativeKey = (o: KubeObject, acrossNamespaces: boolean): string =>
  acrossNamespaces ? `/${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}` : `/${o.metadata.name ?? ''}`;

export function encodeContinue(token: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: TOKEN_VERSION, rv: token.rv, start: token.start })).toString(
    'base64url',
  );
}

/** kube-apiserver's words for a token it cannot use: 400 `invalid continue token: continue key is not valid...`. */
const invalidToken = (why?: string) =>
  badRequest(`invalid continue token: continue key is not valid${why === undefined ? '' : `: ${why}`}`);

/** Go's `path.Clean` of a rooted path: `/a/../b` → `/b`, no trailing slash. */
function cleanPath(path: string): string {
  const normal = posix.normalize(path);
  return normal.length > 1 && normal.endsWith('/') ? normal.slice(0, -1) : normal;
}

/** The token a client sent back; 400 with kube-apiserver's message when it is not one. */
export function decodeContinue(value: string): ContinueToken {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch (error) {
    throw invalidToken((error as Error).message);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw invalidToken('not a JSON object');
  }
  const { v, rv, start } = parsed as { v?: unknown; rv?: unknown; start?: unknown };
  if (v !== TOKEN_VERSION) {
    throw invalidToken(`server does not recognize this encoded version ${String(v ?? '')}`);
  }
  if (rv !== undefined && (typeof rv !== 'number' || !Number.isSafeInteger(rv))) {
    throw invalidToken('rv is not a whole number');
  }
  if (start !== undefined && typeof start !== 'string') throw invalidToken('start is not a string');
  if (!rv) throw invalidToken(`incorrect encoded start resourceVersion (version ${TOKEN_VERSION})`);
  if (!start) throw invalidToken(`encoded start key empty (version ${TOKEN_VERSION})`);
  const key = start.startsWith('/') ? start : `/${start}`;
  if (cleanPath(key) !== key) throw invalidToken(start);
  return { rv, start: key };
}

/**
 * 410 for a token whose snapshot the store no longer has (its events left the window), in
 * kube-apiserver's words, with its token for the rest of the list in the latest state (rv -1, the
 * same start key, written without the leading slash as kube-apiserver writes it there).
 */
export function expiredToken(token: ContinueToken): ApiError {
  return new ApiError(
    410,
    'Expired',
    'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
    undefined,
    { continue: encodeContinue({ rv: -1, start: token.start.slice(1) }) },
  );
}

/** 504 for a token from the future, as kube-apiserver answers after waiting for that resourceVersion. */
export function tooLargeResourceVersion(asked: number, current: number): ApiError {
  return new ApiError(504, 'Timeout', `Timeout: Too large resource version: ${asked}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    retryAfterSeconds: 1,
  });
}

/**
 * The page of `sorted` (in storage-key order, already after the token's key) holding at most `limit`
 * items (all when `limit` is undefined); the token of the next page names snapshot `rv` and starts
 * after the last item's key relative to the list.
 */
export function cutPage(
  sorted: readonly KubeObject[],
  limit: number | undefined,
  rv: number,
  countRemaining: boolean,
  acrossNamespaces: boolean,
): ListPage {
  if (limit === undefined || sorted.length <= limit) return { items: [...sorted] };
  const items = sorted.slice(0, limit);
  return {
    items,
    continue: encodeContinue({
      rv,
      start: `${relativeKey(items[items.length - 1], acrossNamespaces)}\u0000`,
    }),
    ...(countRemaining ? { remainingItemCount: sorted.length - limit } : {}),
  };
}
