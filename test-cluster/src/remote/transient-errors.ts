/**
 * Which failures of a remote API server pass by themselves, and when to try again: 429 and 5xx answers
 * (after the server's `Retry-After` when it sent one), and requests that got no answer (a refused or
 * reset connection). The simulators' work queues retry those, 100 ms doubling to 5 s, eight times,
 * before they report the failure; anything else is reported at once (conflicts are retried anyway).
 */
import { ApiError } from '../types';

const MAX_ATTEMPTS = 8;
const INITIAL_MS = 100;
const MAX_MS = 5000;

/** A failure without an HTTP answer: node-fetch's `FetchError`, or a system error code (`ECONNRESET`). */
function isNetworkError(error: unknown): boolean {
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  return name === 'FetchError' || (typeof code === 'string' && /^E[A-Z]+$/.test(code));
}

/** After how many ms to retry after `attempt` failures, or undefined when the failure is not transient. */
export function retryTransient(error: unknown, attempt: number): number | undefined {
  if (attempt > MAX_ATTEMPTS) return undefined;
  const backoff = Math.min(INITIAL_MS * 2 ** (attempt - 1), MAX_MS);
  if (error instanceof ApiError) {
    if (error.code !== 429 && error.code < 500) return undefined;
    const retryAfter = error.details?.retryAfterSeconds;
    return retryAfter !== undefined ? Math.max(retryAfter * 1000, backoff) : backoff;
  }
  return isNetworkError(error) ? backoff : undefined;
}
