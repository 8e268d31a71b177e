/**
 * The simulators' reaction loop: watch events, process notices and clock timers only add a key here;
 * the keys are worked on the next turn of the event loop, de-duplicated. This keeps every store
 * write out of the store's own watch callbacks (no re-entrancy) and lets a test wait until the
 * simulators have nothing left to do (`settle`). Reactions take no simulated time; only delays that
 * the simulated world has (boot, expiry, backoff) go through the clock.
 */
import { isPromiseLike, type Awaitable } from '../port';
import { ApiError } from '../types';

export interface WorkQueue<K> {
  add(key: K): void;
  /** True when nothing is queued, being worked or waiting for a retry. */
  idle(): boolean;
  stop(): void;
}

/** Every error a simulator could not handle, kept for tests to inspect. */
export interface SimulatorError {
  readonly key: string;
  readonly error: unknown;
}

export interface WorkQueueOptions {
  /**
   * For an error that is not a conflict: after how many real milliseconds to work the key again
   * (`attempt` counts from 1), or undefined to give up and report it. A remote port retries transient
   * failures (429, 5xx, a reset connection) this way. @default never: every such error is reported
   */
  readonly retry?: (error: unknown, attempt: number) => number | undefined;
}

/** Conflicts are retried on the next turn, this many times in a row at most. */
const MAX_CONFLICT_RETRIES = 20;

/**
 * `work` may answer synchronously (the in-process store: a whole batch runs in one turn, as it always
 * did) or with a Promise (a remote port): keys are then worked one after the other, never two at once.
 */
export function createWorkQueue<K>(
  work: (key: K) => Awaitable<void>,
  onError: (key: K, error: unknown) => void,
  options: WorkQueueOptions = {},
): WorkQueue<K> {
  const queued = new Set<K>();
  const conflicts = new Map<K, number>();
  const failures = new Map<K, number>();
  const retries = new Map<K, ReturnType<typeof setTimeout>>();
  let scheduled: NodeJS.Immediate | undefined;
  let running = false;
  let stopped = false;

  const succeeded = (key: K): void => {
    conflicts.delete(key);
    failures.delete(key);
  };
  const failed = (key: K, error: unknown): void => {
    // A step that was waiting for a request when the queue stopped: nothing is retried or reported.
    if (stopped) return;
    const conflictsInRow = conflicts.get(key) ?? 0;
    if (error instanceof ApiError && error.code === 409 && conflictsInRow < MAX_CONFLICT_RETRIES) {
      conflicts.set(key, conflictsInRow + 1);
      queued.add(key);
      return;
    }
    conflicts.delete(key);
    const attempt = (failures.get(key) ?? 0) + 1;
    const delay = options.retry?.(error, attempt);
    if (delay === undefined) {
      failures.delete(key);
      onError(key, error);
      return;
    }
    failures.set(key, attempt);
    if (retries.has(key)) return;
    retries.set(
      key,
      setTimeout(() => {
        retries.delete(key);
        add(key);
      }, delay),
    );
  };

  const run = (): void => {
    scheduled = undefined;
    // A batch still waiting for a Promise schedules the next one when it is done.
    if (stopped || running) return;
    running = true;
    const keys = [...queued];
    queued.clear();
    const from = (start: number): void => {
      for (let i = start; i < keys.length; i++) {
        if (stopped) break;
        const key = keys[i];
        let result: Awaitable<void>;
        try {
          result = work(key);
        } catch (error) {
          failed(key, error);
          continue;
        }
        if (isPromiseLike(result)) {
          result.then(
            () => {
              succeeded(key);
              from(i + 1);
            },
            (error: unknown) => {
              failed(key, error);
              from(i + 1);
            },
          );
          return;
        }
        succeeded(key);
      }
      running = false;
      if (queued.size > 0) schedule();
    };
    from(0);
  };
  const schedule = (): void => {
    if (scheduled === undefined && !stopped) scheduled = setImmediate(run);
  };
  const add = (key: K): void => {
    if (stopped) return;
    queued.add(key);
    schedule();
  };

  return {
    add,
    idle() {
      return queued.size === 0 && !running && scheduled === undefined && retries.size === 0;
    },
    stop() {
      stopped = true;
      queued.clear();
      if (scheduled !== undefined) clearImmediate(scheduled);
      scheduled = undefined;
      for (const timer of retries.values()) clearTimeout(timer);
      retries.clear();
    },
  };
}

/** Anything `settle` can wait for. */
export interface Settleable {
  idle(): boolean;
}

/**
 * Resolves once every part has been idle for a few consecutive turns of the event loop, i.e. the
 * simulators (and the store's watch deliveries they trigger) have finished reacting. It does not
 * advance the clock. Rejects after `maxTurns` turns so a livelock fails a test instead of hanging it.
 */
export async function settle(parts: readonly Settleable[], maxTurns = 10_000): Promise<void> {
  let quiet = 0;
  for (let turn = 0; turn < maxTurns; turn++) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    quiet = parts.every((p) => p.idle()) ? quiet + 1 : 0;
    if (quiet >= 3) return;
  }
  throw new Error(`the simulators did not settle within ${maxTurns} event-loop turns`);
}
