/**
 * The time source of the controller's runtime pieces (work queue, informer restarts, leader
 * election). Production uses `systemClock`; tests pass a manual clock so delays and backoffs are
 * exact and instant. Deliberately tiny and separate from the test cluster's clock, so the controller
 * never imports its test package (the shapes match, so the test cluster's `manualClock()` fits).
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `fn` after `ms` milliseconds; the returned function cancels it (a no-op once it ran). */
  setTimeout(fn: () => void, ms: number): () => void;
}

/** Node's timers overflow above 2^31-1 ms and then fire after 1 ms; longer waits are clamped. */
export const MAX_TIMER_MS = 2_147_483_647;

/** Wall-clock time and Node timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const timer = setTimeout(fn, Math.min(Math.max(0, ms), MAX_TIMER_MS));
    return () => clearTimeout(timer);
  },
};
