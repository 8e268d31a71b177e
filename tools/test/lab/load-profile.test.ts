import { describe, expect, it } from '@jest/globals';
import { planLoad, PROFILE_SHAPE, UNBOUNDED_CAPACITY, type LeaseArrival } from '../../src/lab/load-profile';

const pools = [
  { name: 'rpi4-virtual', maxReplicas: 20 },
  { name: 'x86-64-ci', maxReplicas: 10 },
];
const TEN_MINUTES = 600_000;
const plan = (profile: 'steady' | 'burst' | 'idle' | 'mix', seed = 1, durationMs = TEN_MINUTES) =>
  planLoad({ profile, pools, durationMs, seed });
const of = (arrivals: LeaseArrival[], pool: string) => arrivals.filter((a) => a.pool === pool);

describe('planLoad', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    for (const profile of ['steady', 'burst', 'mix'] as const) {
      expect(plan(profile, 7)).toEqual(plan(profile, 7));
      expect(plan(profile, 7)).not.toEqual(plan(profile, 8));
    }
  });

  it('orders arrivals in time, inside the run, with a hold shorter than the duration asked for', () => {
    for (const profile of ['steady', 'burst', 'mix'] as const) {
      const arrivals = plan(profile);
      expect(arrivals.length).toBeGreaterThan(0);
      expect(arrivals.map((a) => a.atMs)).toEqual(arrivals.map((a) => a.atMs).sort((a, b) => a - b));
      for (const a of arrivals) {
        expect(a.atMs).toBeGreaterThanOrEqual(0);
        expect(a.atMs).toBeLessThan(TEN_MINUTES);
        expect(pools.map((p) => p.name)).toContain(a.pool);
        expect(a.durationMs).toBeGreaterThan(0);
        if (a.holdMs !== null) expect(a.holdMs).toBeLessThan(a.durationMs);
      }
    }
  });

  it('idle plans nothing', () => {
    expect(plan('idle')).toEqual([]);
  });

  it('steady keeps about its share of each pool leased (arrival rate × mean hold)', () => {
    const arrivals = plan('steady', 3, 3_600_000);
    for (const pool of pools) {
      const mine = of(arrivals, pool.name);
      const held = mine.filter((a) => a.holdMs !== null);
      const meanHold = held.reduce((sum, a) => sum + (a.holdMs as number), 0) / held.length;
      const leasedOnAverage = (mine.length / 3_600_000) * meanHold;
      const target = PROFILE_SHAPE.steadyUtilisation * pool.maxReplicas;
      expect(leasedOnAverage).toBeGreaterThan(target * 0.7);
      expect(leasedOnAverage).toBeLessThan(target * 1.3);
      // A trickle, not waves: every five minutes of the hour see leases arrive.
      const buckets = new Set(mine.map((a) => Math.floor(a.atMs / 300_000)));
      expect(buckets.size).toBe(12);
    }
  });

  it('burst sends waves of 60–100 % of capacity within the spread, one per period', () => {
    const arrivals = plan('burst');
    const period = PROFILE_SHAPE.burstEverySeconds * 1000;
    const first = PROFILE_SHAPE.burstFirstAtSeconds * 1000;
    for (const pool of pools) {
      const waves = new Map<number, number>();
      for (const a of of(arrivals, pool.name)) {
        const wave = Math.floor((a.atMs - first) / period);
        expect(a.atMs - first - wave * period).toBeLessThanOrEqual(PROFILE_SHAPE.burstSpreadSeconds * 1000);
        waves.set(wave, (waves.get(wave) ?? 0) + 1);
      }
      expect([...waves.keys()]).toEqual([0, 1, 2, 3]); // at 15 s, 195 s, 375 s, 555 s of 600 s
      for (const size of waves.values()) {
        expect(size).toBeGreaterThanOrEqual(Math.round(0.6 * pool.maxReplicas));
        expect(size).toBeLessThanOrEqual(pool.maxReplicas);
      }
    }
  });

  it('mix trickles for two thirds with one burst at a third, then goes idle', () => {
    const arrivals = plan('mix');
    expect(arrivals.every((a) => a.atMs < (TEN_MINUTES * 2) / 3)).toBe(true);
    const third = TEN_MINUTES / 3;
    const spread = PROFILE_SHAPE.burstSpreadSeconds * 1000;
    for (const pool of pools) {
      const inBurst = of(arrivals, pool.name).filter((a) => a.atMs >= third && a.atMs <= third + spread);
      expect(inBurst.length).toBeGreaterThanOrEqual(Math.round(0.6 * pool.maxReplicas));
    }
  });

  it('leaves about a tenth of the leases to expire instead of being released', () => {
    const arrivals = plan('steady', 5, 7_200_000);
    const abandoned = arrivals.filter((a) => a.holdMs === null).length / arrivals.length;
    expect(abandoned).toBeGreaterThan(PROFILE_SHAPE.abandonedShare / 2);
    expect(abandoned).toBeLessThan(PROFILE_SHAPE.abandonedShare * 2);
  });

  it('loads a pool without a ceiling as one of the default capacity', () => {
    const unbounded = planLoad({
      profile: 'burst',
      pools: [{ name: 'p', maxReplicas: 0 }],
      durationMs: 60_000,
      seed: 1,
    });
    expect(unbounded.length).toBeGreaterThanOrEqual(Math.round(0.6 * UNBOUNDED_CAPACITY));
    expect(unbounded.length).toBeLessThanOrEqual(UNBOUNDED_CAPACITY);
  });

  it('rejects a negative or infinite duration', () => {
    expect(() => planLoad({ profile: 'steady', pools, durationMs: -1, seed: 1 })).toThrow(RangeError);
    expect(() => planLoad({ profile: 'steady', pools, durationMs: Infinity, seed: 1 })).toThrow(RangeError);
  });
});
