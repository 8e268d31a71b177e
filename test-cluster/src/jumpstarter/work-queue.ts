/**
 * The simulators' reaction loop: watch events, process notices and clock timers only add a key here;
 * the keys are worked on the next turn of the event loop, de-duplicated. This keeps every store
 * write out of the store's own watch callbacks (no re-entrancy) and lets a test wait until the
 * simulators have nothing left to do (`settle`). Reactions take no simulated time; only delays that
 * the simulated world has (boot, expiry, backoff) go through the clock.
 */
import { ApiError } from '../types';

export interface WorkQueue<K> {
  add(key: K): void;
  /** True when nothing is queued or being worked. */
  idle(): boolean;
  stop(): void;
}

/** Every error a simulator could not handle, kept for tests to inspect. */
export interface SimulatorError {
  readonly key: string;
  readonly error: unknown;
}

/** Conflicts are retried on the next turn, this many times in a row at most. */
const MAX_CONFLICT_RETRIES = 20;

export function createWorkQueue<K>(
  work: (key: K) => void,
  onError: (key: K, error: unknown) => void,
): WorkQueue<K> {
  const queued = new Set<K>();
  const conflicts = new Map<K, number>();
  let scheduled: NodeJS.Immediate | undefined;
  let running = false;
  let stopped = false;

  const run = (): void => {
    scheduled = undefined;
    if (stopped) return;
    running = true;
    const keys = [...queued];
    queued.clear();
    for (const key of keys) {
      if (stopped) break;
      try {
        work(key);
        conflicts.delete(key);
      } catch (error) {
        const retries = conflicts.get(key) ?? 0;
        if (error instanceof ApiError && error.code === 409 && retries < MAX_CONFLICT_RETRIES) {
          conflicts.set(key, retries + 1);
          queued.add(key);
        } else {
          conflicts.delete(key);
          onError(key, error);
        }
      }
    }
    running = false;
    if (queued.size > 0) schedule();
  };
  const schedule = (): void => {
    if (scheduled === undefined && !stopped) scheduled = setImmediate(run);
  };

  return {
    add(key) {
      if (stopped) return;
      queued.add(key);
      schedule();
    },
    idle() {
      return queued.size === 0 && !running && scheduled === undefined;
    },
    stop() {
      stopped = true;
      queued.clear();
      if (scheduled !== undefined) clearImmediate(scheduled);
      scheduled = undefined;
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
