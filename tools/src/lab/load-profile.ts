/**
 * The lab's lease load as a pure plan: for a profile, the pools and a seed, every lease request of the
 * run — when it arrives, which pool it asks for, how long its holder keeps it and the duration it
 * requests. The same seed plans the same load, so a lab run that showed something can be replayed.
 *
 * Times are lab time (the simulated world's milliseconds); the runner divides them by the speed-up.
 * Rates scale with each pool's capacity, so the example pools see comparable pressure.
 */
import { seededRandom, type Random } from '../simulation/random';

export const LOAD_PROFILES = ['steady', 'burst', 'idle', 'mix'] as const;
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
