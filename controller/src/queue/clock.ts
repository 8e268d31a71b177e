/**
 * The time source of the controller's runtime pieces (work queue, informer restarts, leader
 * election). Production uses `systemClock`; tests pass a manual clock so delays and backoffs are
 * exact and instant. Deliberately tiny and separate from the test cluster's clock, so the controller
 * never imports its test package (the shapes match, so the test cluster's `manualClock()` fits).
 */
export interface Clock {
  /** Milliseconds since the epoch: the wall clock, which an operator or NTP may step either way. */
  now(): number;
  /**
   * Milliseconds that only move with the passage of time, never with the wall clock being set
   * (a monotonic reading; its origin means nothing). The durations of the controller's in-process
   * memory run on it (`elapsedOf`), so a wall-clock step neither expires nor prolongs them.
   * @default now()
   */
  elapsed?(): number;
  /** Runs `fn` after `ms` milliseconds; the returned function cancels it (a no-op once it ran). */
  setTimeout(fn: () => void, ms: number): () => void;
}

/** Node's timers overflow above 2^31-1 ms and then fire after 1 ms; longer waits are clamped. */
export const MAX_TIMER_MS = 2_147_483_647;

/** The clock's monotonic reading (`Clock.elapsed`), or its wall time when it has none. */
export function elapsedOf(clock: Clock): number {
  return clock.elapsed ? clock.elapsed() : clock.now();
}

/**
 * The wall time at which something was seen `at` (an `elapsed` reading), given both readings of now:
 * a duration kept in memory, handed to the planner on the wall clock it compares times with.
 */
export function wallTimeOf(at: number, now: { readonly wall: number; readonly elapsed: number }): number {
  return now.wall - Math.max(0, now.elapsed - at);
}

/** Wall-clock time, Node's monotonic clock and Node timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  elapsed: () => performance.now(),
  setTimeout(fn, ms) {
    const timer = setTimeout(fn, Math.min(Math.max(0, ms), MAX_TIMER_MS));
    return () => clearTimeout(timer);
  },
};
