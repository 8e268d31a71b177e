/**
 * Per-key exponential backoff for failed reconciles (controller-runtime's per-item limiter): the
 * n-th consecutive failure of a key waits `baseMs * 2^(n-1)`, capped at `maxMs`. Keys back off
 * independently, so one broken ExporterSet never slows the others; `forget` after a success starts
 * the key over.
 */
export interface BackoffOptions {
  /** @default 5 */
  readonly baseMs?: number;
  /** @default 1_000_000 (1000 s) */
  readonly maxMs?: number;
}

export const DEFAULT_BACKOFF = { baseMs: 5, maxMs: 1_000_000 } as const;

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
