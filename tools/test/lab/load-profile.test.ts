import { describe, expect, it } from '@jest/globals';
import {
  DAY_MINUTES,
  hourOfDay,
  planLoad,
  PROFILE_SHAPE,
  UNBOUNDED_CAPACITY,
  WORKDAY_SHAPE,
  type LeaseArrival,
} from '../../src/lab/load-profile';

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

describe('planLoad workday', () => {
  const DAY = 86_400_000; // a real day of lab time, as `npm run lab -- --profile workday` plays it
  const big = [{ name: 'big', maxReplicas: 40 }];
  const day = (seed: number, durationMs = DAY, p = big) =>
    planLoad({ profile: 'workday', pools: p, durationMs, seed });
  /** Arrivals per hour of the day, summed over seeds, without the nightly wave. */
  const perHour = (seeds: number[]) => {
    const counts = new Array<number>(24).fill(0);
    for (const seed of seeds) for (const a of day(seed)) counts[hourOfDay(a.atMs, DAY)]++;
    return counts;
  };
  const hours = perHour([1, 2, 3, 4, 5]);
  const mean = (from: number, to: number) => hours.slice(from, to).reduce((a, b) => a + b, 0) / (to - from);

  it('maps the run onto the 24 hours of one day', () => {
    expect(hourOfDay(0, DAY)).toBe(0);
    expect(hourOfDay(DAY / 2, DAY)).toBe(12);
    expect(hourOfDay(DAY - 1, DAY)).toBe(23);
    expect(hourOfDay((DAY * 9.5) / 24, DAY)).toBe(9);
    expect(WORKDAY_SHAPE.utilisation).toHaveLength(24);
  });

  it('is deterministic, ordered, inside the day, with holds shorter than the durations asked for', () => {
    expect(day(7)).toEqual(day(7));
    expect(day(7)).not.toEqual(day(8));
    const arrivals = day(7);
    expect(arrivals.map((a) => a.atMs)).toEqual(arrivals.map((a) => a.atMs).sort((a, b) => a - b));
    for (const a of arrivals) {
      expect(a.atMs).toBeGreaterThanOrEqual(0);
      expect(a.atMs).toBeLessThan(DAY);
      if (a.holdMs !== null) expect(a.holdMs).toBeLessThan(a.durationMs);
    }
  });

  it('peaks in working hours, dips at lunch and is quiet at night and late in the evening', () => {
    const morning = mean(9, 12);
    const afternoon = mean(13, 17);
    const lunch = hours[12];
    const night = mean(3, 6);
    const evening = mean(21, 24);
    expect(lunch).toBeLessThan(0.6 * Math.min(morning, afternoon));
    expect(lunch).toBeGreaterThan(2 * night);
    expect(night).toBeLessThan(0.15 * morning);
    expect(evening).toBeLessThan(0.25 * afternoon);
    // The day ramps up before the peak and down after it.
    expect(hours[7]).toBeLessThan(hours[8]);
    expect(hours[8]).toBeLessThan(morning);
    expect(hours[17]).toBeLessThan(afternoon);
    expect(hours[18]).toBeLessThan(hours[17]);
  });

  it('keeps about the hour’s share of capacity leased at the peak (arrival rate × mean hold)', () => {
    const arrivals = day(11).filter((a) => hourOfDay(a.atMs, DAY) >= 13 && hourOfDay(a.atMs, DAY) < 17);
    const meanHoldMs = ((WORKDAY_SHAPE.holdMinutes[0] + WORKDAY_SHAPE.holdMinutes[1]) / 2) * 60_000;
    const leased = (arrivals.length / (4 * 3_600_000)) * meanHoldMs;
    const target = (WORKDAY_SHAPE.utilisation.slice(13, 17).reduce((a, b) => a + b, 0) / 4) * 40;
    expect(leased).toBeGreaterThan(0.75 * target);
    expect(leased).toBeLessThan(1.25 * target);
  });

  it('sends the nightly CI wave: 80–100 % of capacity within ten minutes of 02:00', () => {
    for (const seed of [1, 2, 3]) {
      const from = WORKDAY_SHAPE.nightlyHour * 3_600_000;
      const wave = day(seed).filter((a) => a.atMs >= from && a.atMs <= from + 10 * 60_000);
      expect(wave.length).toBeGreaterThanOrEqual(0.8 * 40);
      // The rest of the night is a trickle: the wave stands out of the hours around it.
      expect(wave.length).toBeGreaterThan((3 * (hours[1] + hours[3])) / 10); // 3 × a night hour of one seed
    }
    expect(hours[2]).toBeGreaterThan(3 * Math.max(hours[1], hours[3]));
  });

  it('shrinks everything with the day: a 10-minute run has the same shape in lab minutes', () => {
    const short = 600_000;
    const arrivals = day(3, short);
    for (const a of arrivals) expect(a.atMs).toBeLessThan(short);
    const held = arrivals.filter((a) => a.holdMs !== null).map((a) => a.holdMs as number);
    const minuteMs = short / DAY_MINUTES;
    expect(Math.max(...held)).toBeLessThanOrEqual(WORKDAY_SHAPE.nightlyHoldMinutes[1] * minuteMs + 1);
    expect(Math.min(...held)).toBeGreaterThanOrEqual(WORKDAY_SHAPE.holdMinutes[0] * minuteMs - 1);
    // Same seed, same pattern of hours: scaling the day scales the arrival times.
    const long = day(3);
    expect(arrivals.length).toBe(long.length);
    arrivals.forEach((a, i) =>
      expect(Math.abs(a.atMs - long[i].atMs * (short / DAY))).toBeLessThanOrEqual(1),
    );
  });
});
