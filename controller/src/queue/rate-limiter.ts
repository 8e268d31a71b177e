/**
 * Per-key exponential backoff for failed reconciles (controller-runtime's per-item limiter): the
 * n-th consecutive failure of a key waits `baseMs * 2^(n-1)`, capped at `maxMs`. The cap is one minute,
 * not controller-runtime's 1000 s: a set whose writes were refused for a while (an RBAC rule, a quota)
 * is retried within a minute of the cause being fixed, even when nothing else about it changes, and a
 * set that keeps failing costs one pass a minute. Keys back off
 * independently, so one broken ExporterSet never slows the others; `forget` after a success starts
 * the key over.
 */
export interface BackoffOptions {
  /** @default 5 */
  readonly baseMs?: number;
  /** @default 60_000 (1 min) */
  readonly maxMs?: number;
}

export const DEFAULT_BACKOFF = { baseMs: 5, maxMs: 60_000 } as const;

export class ExponentialBackoff {
  private readonly failures = new Map<string, number>();
  private readonly baseMs: number;
  private readonly maxMs: number;

  constructor(options: BackoffOptions = {}) {
    this.baseMs = options.baseMs ?? DEFAULT_BACKOFF.baseMs;
    this.maxMs = options.maxMs ?? DEFAULT_BACKOFF.maxMs;
    if (!(this.baseMs > 0) || !(this.maxMs >= this.baseMs)) {
      throw new RangeError(`backoff needs 0 < baseMs <= maxMs (got ${this.baseMs}, ${this.maxMs})`);
    }
  }

  /** Records one more failure of `key` and returns how long it must wait. */
  next(key: string): number {
    const exponent = this.failures.get(key) ?? 0;
    this.failures.set(key, exponent + 1);
    // 2^exponent overflows to Infinity long after the cap; min() keeps it finite either way.
    return Math.min(this.baseMs * 2 ** exponent, this.maxMs);
  }

  /** Consecutive failures recorded for `key` since it was last forgotten. */
  failuresOf(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  /** Starts `key` over (after a successful reconcile). */
  forget(key: string): void {
    this.failures.delete(key);
  }
}
