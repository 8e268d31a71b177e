/**
 * The controller's work queue, with controller-runtime's semantics (SPEC §3 runtime): keys are
 * ExporterSet keys (`namespace/name`); events only ever enqueue keys, and the reconciler reads the
 * current state of the key's world when it runs (level-triggered), so collapsing many events into
 * one pending key loses nothing.
 *
 * - `add` de-duplicates: a key waiting to be worked is queued once, however often it is added.
 * - No key is worked by two workers at once: a key added while it is being worked is queued again
 *   when that pass finishes (`done`), so the event it stands for is never lost.
 * - `addAfter` delays a key (the planner's `requeueAfter`, e.g. the end of a scale-down cooldown);
 *   when the key is already waiting for a delay, the earlier time wins.
 * - `addRateLimited` retries a failed key with per-key exponential backoff (5 ms doubling to
 *   1000 s); `forget` starts the key over after a success. Nothing loops without a bound.
 * - `shutdown` stops handing out keys and waits for the passes in flight, so a SIGTERM never cuts a
 *   pass between its API calls more than the process dying would.
 */
import { elapsedOf, systemClock, type Clock } from './clock';
import { ExponentialBackoff, type BackoffOptions } from './rate-limiter';

/** What a pass asks for when it succeeds. */
export interface ReconcileResult {
  /** Work the key again after this many milliseconds (an earlier pending time wins). */
  readonly requeueAfterMs?: number;
}

/** One reconcile pass; throwing means failure (the key is retried with backoff). */
export type ReconcileHandler = (key: string) => Promise<ReconcileResult | void> | ReconcileResult | void;

export interface WorkQueueOptions {
  /** @default systemClock */
  readonly clock?: Clock;
  /** Per-key backoff of failed passes. @default 5 ms doubling to 1000 s */
  readonly backoff?: BackoffOptions;
  /** Told about every failed pass, after its retry was scheduled `retryInMs` from now. */
  readonly onError?: (key: string, error: unknown, retryInMs: number) => void;
}

export class WorkQueue {
  private readonly clock: Clock;
  private readonly backoff: ExponentialBackoff;
  private readonly onError?: (key: string, error: unknown, retryInMs: number) => void;
  /** Keys ready to be worked, in order (`head` is the next one). */
  private ready: string[] = [];
  private head = 0;
  /** Keys that need a pass: ready ones, and ones in flight that were added again. */
  private readonly dirty = new Set<string>();
  /** Keys being worked, with when their pass began (monotonic reading). */
  private readonly processing = new Map<string, number>();
  private readonly delayed = new Map<string, { at: number; cancel: () => void }>();
  private readonly idleWorkers: (() => void)[] = [];
  private workers: Promise<void>[] = [];
  private stopping = false;

  constructor(options: WorkQueueOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.backoff = new ExponentialBackoff(options.backoff);
    this.onError = options.onError;
  }

  /** Queues `key` unless it is already waiting; ignored after `shutdown`. */
  add(key: string): void {
    if (this.stopping || this.dirty.has(key)) return;
    this.dirty.add(key);
    if (this.processing.has(key)) return; // queued again by done()
    this.push(key);
  }

  /** Queues `key` after `ms` milliseconds (at once when `ms <= 0`); an earlier pending time wins. */
  addAfter(key: string, ms: number): void {
    if (this.stopping) return;
    if (!(ms > 0)) {
      this.add(key);
      return;
    }
    // On the monotonic reading: a wall clock stepped ahead would make an earlier time look later and
    // drop this requeue behind a pending one that fires much later.
    const at = elapsedOf(this.clock) + ms;
    const pending = this.delayed.get(key);
    if (pending && pending.at <= at) return;
    pending?.cancel();
    const entry = {
      at,
      cancel: this.clock.setTimeout(() => {
        if (this.delayed.get(key) === entry) this.delayed.delete(key);
        this.add(key);
      }, ms),
    };
    this.delayed.set(key, entry);
  }

  /** Queues `key` after its next backoff step and returns that delay in milliseconds. */
  addRateLimited(key: string): number {
    const delay = this.backoff.next(key);
    this.addAfter(key, delay);
    return delay;
  }

  /** Resets the backoff of `key` (after a successful pass). */
  forget(key: string): void {
    this.backoff.forget(key);
  }

  /** Consecutive failed passes of `key` since it was last forgotten. */
  numRequeues(key: string): number {
    return this.backoff.failuresOf(key);
  }

  /** Keys ready to be worked now (the work-queue depth metric). */
  depth(): number {
    return this.ready.length - this.head;
  }

  /** Keys waiting for a delay to pass. */
  delayedCount(): number {
    return this.delayed.size;
  }

  /** Keys being worked right now. */
  inFlight(): number {
    return this.processing.size;
  }

  /** The keys being worked right now and how long their pass has run (a pass that never ends shows here). */
  passesInFlight(): { readonly key: string; readonly forMs: number }[] {
    const now = elapsedOf(this.clock);
    return [...this.processing].map(([key, since]) => ({ key, forMs: now - since }));
  }

  get isShuttingDown(): boolean {
    return this.stopping;
  }

  /**
   * Starts `workers` workers that call `handler` for each key; resolves when they have all exited
   * after `shutdown`. A pass that resolves forgets the key's backoff and honours `requeueAfterMs`;
   * a pass that throws is retried with backoff and reported to `onError`.
   */
  run(workers: number, handler: ReconcileHandler): Promise<void> {
    if (!Number.isInteger(workers) || workers < 1) {
      throw new RangeError(`workers must be a positive integer (got ${workers})`);
    }
    if (this.workers.length > 0) throw new Error('the work queue is already running');
    if (this.stopping) throw new Error('the work queue is shut down');
    this.workers = Array.from({ length: workers }, () => this.work(handler));
    return Promise.all(this.workers).then(() => undefined);
  }

  /** Stops handing out keys, drops queued and delayed ones, and waits for the passes in flight. */
  async shutdown(): Promise<void> {
    if (!this.stopping) {
      this.stopping = true;
      for (const { cancel } of this.delayed.values()) cancel();
      this.delayed.clear();
      this.dirty.clear();
      this.ready = [];
      this.head = 0;
      for (const wake of this.idleWorkers.splice(0)) wake();
    }
    await Promise.all(this.workers);
  }

  private async work(handler: ReconcileHandler): Promise<void> {
    for (let key = await this.next(); key !== undefined; key = await this.next()) {
      try {
        const result = await handler(key);
        this.forget(key);
        if (result?.requeueAfterMs !== undefined) this.addAfter(key, result.requeueAfterMs);
      } catch (error) {
        const retryInMs = this.addRateLimited(key);
        try {
          this.onError?.(key, error, retryInMs);
        } catch {
          // A failing error reporter must not kill the worker.
        }
      } finally {
        this.done(key);
      }
    }
  }

  /** The next key to work (marked in flight), or undefined once shut down. */
  private async next(): Promise<string | undefined> {
    for (;;) {
      if (this.stopping) return undefined;
      if (this.head < this.ready.length) {
        const key = this.ready[this.head++];
        if (this.head > 1024 && this.head * 2 > this.ready.length) {
          this.ready = this.ready.slice(this.head);
          this.head = 0;
        }
        this.dirty.delete(key);
        this.processing.set(key, elapsedOf(this.clock));
        return key;
      }
      await new Promise<void>((resolve) => this.idleWorkers.push(resolve));
    }
  }

  /** Ends the pass of `key`; a key added during the pass is queued again now. */
  private done(key: string): void {
    this.processing.delete(key);
    if (!this.stopping && this.dirty.has(key)) this.push(key);
  }

  private push(key: string): void {
    this.ready.push(key);
    this.idleWorkers.shift()?.();
  }
}
