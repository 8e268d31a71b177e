/**
 * Per-host backoff after an SSH failure (unreachable, refused, authentication, host key): a host that
 * failed is skipped for a while when another host has room, and the wait doubles with each failure in a
 * row, up to a ceiling. A success clears it. The clock is passed in, so it is tested without waiting.
 */

export const BACKOFF_INITIAL_MS = 5_000;
export const BACKOFF_MAX_MS = 300_000;

export interface HostFailure {
  /** The SSH error in words (never the key). */
  readonly error: string;
  /** Failures in a row. */
  readonly count: number;
  /** Until when (clock ms) the host is skipped. */
  readonly until: number;
}

export class HostBackoff {
  private readonly failures = new Map<string, HostFailure>();

  constructor(
    private readonly initialMs = BACKOFF_INITIAL_MS,
    private readonly maxMs = BACKOFF_MAX_MS,
  ) {}

  /** Records a failure of `host` at `now`; returns the new state. */
  fail(host: string, error: string, now: number): HostFailure {
    const count = (this.failures.get(host)?.count ?? 0) + 1;
    const wait = Math.min(this.maxMs, this.initialMs * 2 ** Math.min(count - 1, 30));
    const failure = { error, count, until: now + wait };
    this.failures.set(host, failure);
    return failure;
  }

  succeed(host: string): void {
    this.failures.delete(host);
  }

  /** The host's failure while it is backed off at `now`, else undefined. */
  backedOff(host: string, now: number): HostFailure | undefined {
    const failure = this.failures.get(host);
    return failure !== undefined && failure.until > now ? failure : undefined;
  }

  /** The last failure of `host`, backed off or not (for messages). */
  lastFailure(host: string): HostFailure | undefined {
    return this.failures.get(host);
  }
}
