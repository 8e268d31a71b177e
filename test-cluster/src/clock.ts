/**
 * Clocks for the test cluster. Every simulator and the store schedule on a `Clock`, so one knob
 * decides how fast simulated time passes: the real clock (optionally sped up, for the lab and
 * end-to-end tests whose boot delays and lease durations would otherwise take minutes) or a manual
 * clock that only moves when a test says so (for exact, instant unit tests).
 */
import type { Clock } from './types';

/**
 * Wall time, `speedUp` times faster from the moment the clock is created: `now()` starts at the real
 * time and advances `speedUp` ms per real ms; `setTimeout(fn, ms)` waits `ms / speedUp` real ms.
 */
export function realClock(speedUp = 1): Clock {
  if (!(speedUp > 0) || !Number.isFinite(speedUp)) {
    throw new RangeError(`realClock: speedUp must be a positive number (got ${speedUp})`);
  }
  const origin = Date.now();
  return {
    now: () => origin + (Date.now() - origin) * speedUp,
    setTimeout(fn, ms) {
      const timer = setTimeout(fn, Math.max(0, ms) / speedUp);
      return () => clearTimeout(timer);
    },
  };
}

/** A clock that stands still until `advance` moves it; timers run inside `advance`. */
export interface ManualClock extends Clock {
  /**
   * Moves time forward by `ms` (0 runs the timers already due), running every timer that falls due on
   * the way in time order (ties in scheduling order), including timers those timers schedule.
   */
  advance(ms: number): void;
  /** How many timers are waiting. */
  pendingTimers(): number;
}

interface Timer {
  due: number;
  seq: number;
  fn: () => void;
}

/** A manual clock starting at `start` (ms since the epoch; default 2025-01-01T00:00:00Z). */
export function manualClock(start = Date.UTC(2025, 0, 1)): ManualClock {
  let now = start;
  let seq = 0;
  const timers = new Set<Timer>();

  const nextDue = (until: number): Timer | undefined => {
    let next: Timer | undefined;
    for (const t of timers) {
      if (t.due > until) continue;
      if (!next || t.due < next.due || (t.due === next.due && t.seq < next.seq)) next = t;
    }
    return next;
  };

  return {
    now: () => now,
    setTimeout(fn, ms) {
      const timer: Timer = { due: now + Math.max(0, ms), seq: seq++, fn };
      timers.add(timer);
      return () => {
        timers.delete(timer);
      };
    },
    advance(ms) {
      if (!(ms >= 0)) throw new RangeError(`manualClock.advance: ms must be >= 0 (got ${ms})`);
      const target = now + ms;
      for (let t = nextDue(target); t; t = nextDue(target)) {
        timers.delete(t);
        now = t.due;
        t.fn();
      }
      now = target;
    },
    pendingTimers: () => timers.size,
  };
}

/** A clock set off from another by an offset that can change at any time (a machine's skewed clock). */
export interface SkewedClock extends Clock {
  /** Milliseconds this clock is ahead of its base (negative: behind). */
  offsetMs(): number;
  setOffsetMs(ms: number): void;
}

/**
 * `base` read `offsetMs` ahead (or behind): `now()` is skewed, timers wait the same durations as on
 * `base` (a skewed clock still ticks at the same rate).
 */
export function skewedClock(base: Clock, offsetMs = 0): SkewedClock {
  let offset = offsetMs;
  return {
    now: () => base.now() + offset,
    // Setting a machine's clock steps its wall time; time itself passes as before.
    elapsed: () => (base.elapsed ? base.elapsed() : base.now()),
    setTimeout: (fn, ms) => base.setTimeout(fn, ms),
    offsetMs: () => offset,
    setOffsetMs(ms) {
      if (!Number.isFinite(ms)) throw new RangeError(`skewedClock: offset must be finite (got ${ms})`);
      offset = ms;
    },
  };
}

/**
 * The clocks of the machines around a cluster, each set off from true time (the cluster's `clock`):
 * the API server's (creation and deletion timestamps), the kubelet's (Pod start and finish times) and
 * the controller's (passed to it by tests and the simulation). Jumpstarter's controller keeps true time.
 */
export interface ClusterClocks {
  readonly apiServer: SkewedClock;
  readonly kubelet: SkewedClock;
  readonly controller: SkewedClock;
}

/** Offsets (ms) of each machine's clock from true time. */
export type ClockOffsets = { readonly [K in keyof ClusterClocks]?: number };

export function clusterClocks(base: Clock, offsets: ClockOffsets = {}): ClusterClocks {
  return {
    apiServer: skewedClock(base, offsets.apiServer ?? 0),
    kubelet: skewedClock(base, offsets.kubelet ?? 0),
    controller: skewedClock(base, offsets.controller ?? 0),
  };
}
