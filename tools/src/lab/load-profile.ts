/**
 * The lab's lease load as a pure plan: for a profile, the pools and a seed, every lease request of the
 * run — when it arrives, which pool it asks for, how long its holder keeps it and the duration it
 * requests. The same seed plans the same load, so a lab run that showed something can be replayed.
 *
 * Times are lab time (the simulated world's milliseconds); the runner divides them by the speed-up.
 * Rates scale with each pool's capacity, so the example pools see comparable pressure.
 */
import { seededRandom, type Random } from '../simulation/random';

export const LOAD_PROFILES = ['steady', 'burst', 'idle', 'mix', 'workday'] as const;
export type LoadProfile = (typeof LOAD_PROFILES)[number];

export function isLoadProfile(value: string): value is LoadProfile {
  return (LOAD_PROFILES as readonly string[]).includes(value);
}

/** What the plan needs to know of a pool. */
export interface PoolCapacity {
  readonly name: string;
  /** The set's ceiling; 0 (none) counts as {@link UNBOUNDED_CAPACITY}. */
  readonly maxReplicas: number;
}

/** One lease request of the plan. */
export interface LeaseArrival {
  /** Lab ms after the load starts. */
  readonly atMs: number;
  readonly pool: string;
  /** Lab ms the holder keeps the lease once assigned before releasing it; `null`: it never releases (the lease expires). */
  readonly holdMs: number | null;
  /** The lease's `spec.duration`, lab ms (longer than `holdMs`, so a released lease never expires first). */
  readonly durationMs: number;
}

/** The capacity a pool without a ceiling is loaded as. */
export const UNBOUNDED_CAPACITY = 10;

/** The shape of each profile, lab seconds. */
export const PROFILE_SHAPE = {
  /** Steady trickle: Poisson arrivals keeping about this share of a pool's capacity leased. */
  steadyUtilisation: 0.4,
  steadyHoldSeconds: [30, 150],
  /** CI burst: a wave of 60–100 % of capacity arriving within `burstSpreadSeconds`, every `burstEverySeconds`. */
  burstSize: [0.6, 1.0],
  burstSpreadSeconds: 10,
  burstEverySeconds: 180,
  burstFirstAtSeconds: 15,
  burstHoldSeconds: [60, 240],
  /** Share of leases whose holder never releases them (a crashed CI job): they run to their duration. */
  abandonedShare: 0.1,
  abandonedDurationSeconds: [60, 180],
} as const;

/**
 * The `workday` profile: the run plays one simulated day (its 24 hours spread over the run), so the
 * load has the shape of CI demand over a day. Hours are the simulated day's; holds are simulated
 * minutes, so they shrink with the day.
 */
export const WORKDAY_SHAPE = {
  /** Share of a pool's capacity kept leased, by hour of the day (index 0 = 00:00–01:00). */
  utilisation: [
    // 00–06 night
    0.05, 0.05, 0.05, 0.05, 0.05, 0.05,
    // 06–08 early arrivals
    0.1, 0.2,
    // 08–12 morning peak
    0.45, 0.7, 0.75, 0.75,
    // 12–13 lunch dip
    0.3,
    // 13–17 afternoon peak
    0.75, 0.8, 0.8, 0.7,
    // 17–24 evening
    0.45, 0.25, 0.15, 0.1, 0.1, 0.05, 0.05,
  ],
  holdMinutes: [10, 40],
  /** The nightly CI run: a wave of 80–100 % of capacity within `nightlySpreadMinutes` of 02:00. */
  nightlyHour: 2,
  nightlySize: [0.8, 1.0],
  nightlySpreadMinutes: 10,
  nightlyHoldMinutes: [20, 50],
} as const;

/** Minutes of a day. */
export const DAY_MINUTES = 24 * 60;

/** The hour of the simulated day (0–23) at `tMs` of a run of `dayMs` that plays one day. */
export function hourOfDay(tMs: number, dayMs: number): number {
  return Math.min(23, Math.max(0, Math.floor((24 * tMs) / dayMs)));
}

export interface LoadPlanInput {
  readonly profile: LoadProfile;
  readonly pools: readonly PoolCapacity[];
  /** Lab ms of load; arrivals fall in [0, durationMs). */
  readonly durationMs: number;
  readonly seed: number;
}

/**
 * The arrivals of a run, ordered by time (ties: pool order, then plan order).
 * `mix`: a steady trickle for the first two thirds with one CI burst at a third, then idle, so the
 * run shows warm-buffer refills, a demand spike, and the pools settling back.
 * `workday`: the run is one day ({@link WORKDAY_SHAPE}): quiet nights, a nightly burst at 02:00,
 * working-hours peaks with a lunch dip, and a quiet evening.
 */
export function planLoad(input: LoadPlanInput): LeaseArrival[] {
  if (!(input.durationMs >= 0) || !Number.isFinite(input.durationMs)) {
    throw new RangeError(`planLoad: durationMs must be a finite number >= 0 (got ${input.durationMs})`);
  }
  const random = seededRandom(input.seed);
  const arrivals: { arrival: LeaseArrival; pool: number; seq: number }[] = [];
  input.pools.forEach((pool, poolIndex) => {
    const capacity = pool.maxReplicas > 0 ? pool.maxReplicas : UNBOUNDED_CAPACITY;
    const add = (arrival: LeaseArrival) => arrivals.push({ arrival, pool: poolIndex, seq: arrivals.length });
    const end = input.durationMs;
    switch (input.profile) {
      case 'steady':
        steady(random, pool.name, capacity, 0, end).forEach(add);
        break;
      case 'burst':
        for (
          let at = PROFILE_SHAPE.burstFirstAtSeconds * 1000;
          at < end;
          at += PROFILE_SHAPE.burstEverySeconds * 1000
        ) {
          burst(random, pool.name, capacity, at, end).forEach(add);
        }
        break;
      case 'idle':
        break;
      case 'mix':
        steady(random, pool.name, capacity, 0, (end * 2) / 3).forEach(add);
        burst(random, pool.name, capacity, end / 3, end).forEach(add);
        break;
      case 'workday':
        workday(random, pool.name, capacity, end).forEach(add);
        break;
    }
  });
  arrivals.sort((a, b) => a.arrival.atMs - b.arrival.atMs || a.pool - b.pool || a.seq - b.seq);
  return arrivals.map((a) => a.arrival);
}

/** Poisson arrivals in [from, to) at the rate that keeps `steadyUtilisation` of `capacity` leased. */
function steady(random: Random, pool: string, capacity: number, from: number, to: number): LeaseArrival[] {
  const [minHold, maxHold] = PROFILE_SHAPE.steadyHoldSeconds;
  const meanHoldMs = ((minHold + maxHold) / 2) * 1000;
  const ratePerMs = (PROFILE_SHAPE.steadyUtilisation * capacity) / meanHoldMs;
  const out: LeaseArrival[] = [];
  for (let at = from + exponential(random, ratePerMs); at < to; at += exponential(random, ratePerMs)) {
    out.push(lease(random, pool, Math.round(at), PROFILE_SHAPE.steadyHoldSeconds));
  }
  return out;
}

/** A CI wave starting at `at`: 60–100 % of capacity, spread over `burstSpreadSeconds`, clipped at `to`. */
function burst(random: Random, pool: string, capacity: number, at: number, to: number): LeaseArrival[] {
  const [minShare, maxShare] = PROFILE_SHAPE.burstSize;
  const size = random.int(Math.max(1, Math.round(minShare * capacity)), Math.round(maxShare * capacity));
  const out: LeaseArrival[] = [];
  for (let i = 0; i < size; i++) {
    const t = Math.round(at + random.next() * PROFILE_SHAPE.burstSpreadSeconds * 1000);
    if (t < to) out.push(lease(random, pool, t, PROFILE_SHAPE.burstHoldSeconds));
  }
  return out;
}

/**
 * One simulated day over [0, dayMs): Poisson arrivals whose rate follows the hour's utilisation
 * (thinning a process at the busiest hour's rate), and the nightly wave.
 */
function workday(random: Random, pool: string, capacity: number, dayMs: number): LeaseArrival[] {
  if (dayMs <= 0) return [];
  const minuteMs = dayMs / DAY_MINUTES;
  const hold = WORKDAY_SHAPE.holdMinutes.map((m) => m * minuteMs) as [number, number];
  const meanHoldMs = (hold[0] + hold[1]) / 2;
  const peak = Math.max(...WORKDAY_SHAPE.utilisation);
  const peakRatePerMs = (peak * capacity) / meanHoldMs;
  const out: LeaseArrival[] = [];
  for (let at = exponential(random, peakRatePerMs); at < dayMs; at += exponential(random, peakRatePerMs)) {
    const share = WORKDAY_SHAPE.utilisation[hourOfDay(at, dayMs)] / peak;
    if (random.next() < share) out.push(dayLease(random, pool, Math.round(at), hold));
  }
  const [minShare, maxShare] = WORKDAY_SHAPE.nightlySize;
  const size = random.int(Math.max(1, Math.round(minShare * capacity)), Math.round(maxShare * capacity));
  const nightly = WORKDAY_SHAPE.nightlyHour * 60 * minuteMs;
  const nightlyHold = WORKDAY_SHAPE.nightlyHoldMinutes.map((m) => m * minuteMs) as [number, number];
  for (let i = 0; i < size; i++) {
    const t = Math.round(nightly + random.next() * WORKDAY_SHAPE.nightlySpreadMinutes * minuteMs);
    if (t < dayMs) out.push(dayLease(random, pool, t, nightlyHold));
  }
  return out;
}

/** A lease of the simulated day, holds in lab ms (the day's minutes are shorter than seconds at times). */
function dayLease(
  random: Random,
  pool: string,
  atMs: number,
  holdMs: readonly [number, number],
): LeaseArrival {
  const draw = () => Math.max(1, Math.round(holdMs[0] + random.next() * (holdMs[1] - holdMs[0])));
  if (random.chance(PROFILE_SHAPE.abandonedShare)) {
    return { atMs, pool, holdMs: null, durationMs: 2 * draw() };
  }
  const hold = draw();
  return { atMs, pool, holdMs: hold, durationMs: 2 * hold };
}

function lease(
  random: Random,
  pool: string,
  atMs: number,
  holdSeconds: readonly [number, number],
): LeaseArrival {
  if (random.chance(PROFILE_SHAPE.abandonedShare)) {
    const [min, max] = PROFILE_SHAPE.abandonedDurationSeconds;
    return { atMs, pool, holdMs: null, durationMs: random.int(min, max) * 1000 };
  }
  const holdMs = random.int(holdSeconds[0], holdSeconds[1]) * 1000;
  return { atMs, pool, holdMs, durationMs: 2 * holdMs };
}

/** An exponentially distributed gap (ms) for a Poisson process of `ratePerMs`. */
function exponential(random: Random, ratePerMs: number): number {
  return -Math.log(1 - random.next()) / ratePerMs;
}

/** The arrival in wall time: its lab times divided by the speed-up. */
export function atWallTime(arrival: LeaseArrival, speedUp: number): LeaseArrival {
  return {
    atMs: arrival.atMs / speedUp,
    pool: arrival.pool,
    holdMs: arrival.holdMs === null ? null : arrival.holdMs / speedUp,
    durationMs: arrival.durationMs / speedUp,
  };
}
