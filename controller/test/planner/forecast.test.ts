/**
 * The forecast learnt by the hour of the week (issue 28): each hour's buffer from how crowded the same
 * hours' arrivals came, the basis the last week says forecasts best, the fallbacks of a thin record, and
 * a record written before crowding was counted.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  DEMAND_INTERVAL_MS,
  DEMAND_MAX_BUCKETS,
  type DemandBucket,
  type DemandHistory,
} from '../../src/planner';
import {
  DAY_MS,
  HOUR_MS,
  forecastHorizon,
  forecastInterval,
  forecastMethodOf,
  nextHorizonChange,
} from '../../src/planner/demand/forecast';

/** 2026-01-05T00:00Z, a Monday. */
const MONDAY = Date.UTC(2026, 0, 5);

/** A history of `days` days from MONDAY, each hour's bucket from `shape(dayIndex, hour)`. */
function history(days: number, shape: (day: number, hour: number) => DemandBucket): DemandHistory {
  const buckets: DemandBucket[] = [];
  for (let day = 0; day < days; day++) for (let hour = 0; hour < 24; hour++) buckets.push(shape(day, hour));
  const kept = buckets.slice(-DEMAND_MAX_BUCKETS);
  return {
    intervalMs: DEMAND_INTERVAL_MS,
    start: MONDAY + (buckets.length - kept.length) * HOUR_MS,
    buckets: kept,
  };
}

const bucket = (crowding: number[], peak = crowding.length): DemandBucket => ({
  arrivals: crowding.reduce((a, b) => a + b, 0),
  peak,
  crowding,
});

/**
 * Working hours Mon–Fri 09–17: 40 arrivals, 95 % of them with at most 3 others in their window (a
 * buffer of 4); a nightly burst at 02:00 Tue–Sat: 8 leases at once (a buffer of 8); weekends one
 * lease an hour; weekday nights none.
 */
const workweek = (day: number, hour: number): DemandBucket => {
  const weekday = day % 7;
  if (weekday >= 1 && weekday <= 5 && hour === 2) return bucket([1, 1, 1, 1, 1, 1, 1, 1]);
  if (weekday < 5 && hour >= 9 && hour < 17) return bucket([20, 12, 5, 1, 1, 1], 12);
  if (weekday >= 5) return bucket([1]);
  return bucket([]);
};

/** The time `hours` after the start of day `day` (from MONDAY). */
const at = (day: number, hours: number) => MONDAY + day * DAY_MS + hours * HOUR_MS;

describe('forecast by hour of week', () => {
  // Two weeks recorded, now in the third: each hour is forecast from the same hour 1 and 2 weeks back.
  const twoWeeks = history(15, workweek);
  const now = at(14, 23.5); // Monday of week 3, 23:30 (the history holds its hours up to now)

  it('a weekly pattern is forecast by the hour of the week', () => {
    expect(forecastMethodOf(twoWeeks, now)).toEqual({ basis: 'weekly', share: 0.95 });
  });

  it('the method is the history’s own: another history of the same hours is not handed it', () => {
    const flat = history(15, () => bucket([1]));
    expect(forecastMethodOf(twoWeeks, now)?.basis).toBe('weekly');
    expect(forecastMethodOf(flat, now)?.basis).toBe('level');
    expect(forecastMethodOf(twoWeeks, now)?.basis).toBe('weekly');
  });

  it.each([
    ['working hours on a weekday', at(15, 10), 4, 12],
    ['the nightly burst', at(16, 2), 8, 8],
    ['a quiet weekday night', at(15, 4), 0, 0],
    ['a quiet weekend afternoon', at(19, 15), 1, 1],
  ])('%s', (_, start, buffer, peak) => {
    expect(forecastInterval(twoWeeks, start, now)).toEqual({ start, buffer, peak, basis: 'weekly' });
  });

  it('a holiday in one of the two weeks does not erase the hour (samples weigh by their arrivals)', () => {
    // Week 2's Monday (day 7) was a holiday: quiet like a Sunday.
    const holiday = history(15, (day, hour) => (day === 7 ? bucket([1]) : workweek(day, hour)));
    const monday = at(14, 10);
    const weekly = { basis: 'weekly' as const, share: 0.95 };
    expect(forecastInterval(holiday, monday, monday, weekly)?.buffer).toBe(4);
    // The holiday's quiet nights, forecast from a working Monday's, came cold in the last week: the
    // share the hour is set at goes up, never down.
    expect(forecastMethodOf(holiday, monday)?.basis).toBe('weekly');
    expect(forecastInterval(holiday, monday, monday)?.buffer).toBeGreaterThanOrEqual(4);
  });

  it('a cold start (less than a week) forecasts from the same hour of the last days', () => {
    const threeDays = history(3, workweek); // Monday to Wednesday recorded
    const thursday = at(3, 10);
    expect(forecastMethodOf(threeDays, thursday)?.basis).toBe('daily');
    const daily = { basis: 'daily' as const, share: 0.95 };
    expect(forecastInterval(threeDays, thursday, thursday, daily)).toEqual({
      start: thursday,
      buffer: 4,
      peak: 12,
      basis: 'daily',
    });
  });

  it('with only hours of one day, and none of them the same hour, one level stands in for every hour', () => {
    const morning = history(1, (_, hour) => (hour < 6 ? bucket([2, 1]) : bucket([])));
    const sixAm = at(0, 6.5);
    const h: DemandHistory = { ...morning, buckets: morning.buckets.slice(0, 7) };
    expect(forecastInterval(h, at(0, 7), sixAm)).toEqual({
      start: at(0, 7),
      buffer: 2,
      peak: 2,
      basis: 'level',
    });
  });

  it('demand without a pattern (bursts at random hours) is forecast by one level for every hour', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const bursty = history(15, () => {
      const trickle = [3 + Math.floor(random() * 4), Math.floor(random() * 3)];
      return random() < 0.2 ? bucket([...trickle, 1, 1, 1, 1, 1, 1, 1, 1]) : bucket(trickle);
    });
    const later = at(14, 23.5);
    expect(forecastMethodOf(bursty, later)?.basis).toBe('level');
    const buffers = [1, 5, 13, 20].map((hour) => forecastInterval(bursty, at(15, hour), later)?.buffer);
    expect(new Set(buffers).size).toBe(1);
    expect(buffers[0]).toBeGreaterThan(2);
  });

  it('a record of an older controller (no crowding) forecasts each hour as its peak arriving at once', () => {
    const old = history(15, (day, hour) => {
      const { crowding: _, ...counts } = workweek(day, hour);
      return counts;
    });
    expect(forecastInterval(old, at(15, 10), now)).toMatchObject({ buffer: 12, peak: 12 });
    expect(forecastInterval(old, at(16, 2), now)).toMatchObject({ buffer: 8, peak: 8 });
    expect(forecastInterval(old, at(15, 4), now)).toMatchObject({ buffer: 0 });
  });

  it('an empty history, or one without a complete hour, has no forecast', () => {
    expect(forecastHorizon(undefined, now, 60_000)).toBeUndefined();
    expect(forecastHorizon({ intervalMs: HOUR_MS, start: MONDAY, buckets: [] }, now, 60_000)).toBeUndefined();
    const oneHour = { intervalMs: HOUR_MS, start: at(14, 23), buckets: [bucket([3])] };
    expect(forecastHorizon(oneHour, at(14, 23.5), 60_000)).toBeUndefined();
  });

  it('an unreadable grid has no forecast', () => {
    expect(forecastHorizon({ ...twoWeeks, intervalMs: 7 * 60_000 }, now, 60_000)).toBeUndefined();
    expect(forecastHorizon({ ...twoWeeks, intervalMs: 0 }, now, 60_000)).toBeUndefined();
  });

  it('the horizon takes the largest hour it overlaps: a burst is warmed for a lead time before it starts', () => {
    // Tuesday of week 3, 01:50, lead 15 min: 01:00 (quiet) and 02:00 (the nightly burst) overlap.
    const before = at(15, 1 + 50 / 60);
    const h = history(15, workweek);
    expect(forecastHorizon(h, before, 15 * 60_000)).toMatchObject({ warmBuffer: 8, expectedPeak: 8 });
    // Lead 5 min: only 01:00, quiet.
    expect(forecastHorizon(h, before, 5 * 60_000)).toMatchObject({ warmBuffer: 0, expectedPeak: 0 });
  });

  it('the horizon changes next when the current hour ends or the far end reaches the next hour', () => {
    const h = history(14, workweek);
    expect(nextHorizonChange(h, at(14, 8.5), 10 * 60_000)).toBe(at(14, 9) - 10 * 60_000);
    expect(nextHorizonChange(h, at(14, 8 + 55 / 60), 10 * 60_000)).toBe(at(14, 9));
  });

  it('a partial current hour is never a sample', () => {
    // One day recorded, its last hour (Monday 23:00) still running.
    const day: DemandHistory = {
      intervalMs: HOUR_MS,
      start: at(7, 0),
      buckets: Array.from({ length: 24 }, (_, i) =>
        i === 23 ? bucket([0, 0, 0, 0, 0, 0, 0, 0, 9]) : bucket([5]),
      ),
    };
    const current = at(7, 23);
    const now = current + 30 * 60_000;
    // Its burst would lift the level to 9; its hour is not over, so the level reads the 23 others.
    expect(forecastInterval(day, current + DAY_MS, now)).toMatchObject({ buffer: 1, basis: 'level' });
    // By the same hour of the last days: 23:00 has no complete sample, 22:00 has.
    const daily = { basis: 'daily' as const, share: 0.95 };
    expect(forecastInterval(day, current + DAY_MS, now, daily)).toMatchObject({ buffer: 1, basis: 'level' });
    expect(forecastInterval(day, current - HOUR_MS + DAY_MS, now, daily)).toMatchObject({
      buffer: 1,
      basis: 'daily',
    });
  });
});

describe('forecast property', () => {
  /** The samples of the interval at `target` under `basis`, written out independently of the forecast. */
  const samplesOf = (basis: string, target: number, complete: number): number[] => {
    const lags = basis === 'weekly' ? [168, 336] : basis === 'daily' ? [24, 48, 72, 96, 120, 144, 168] : [];
    if (basis === 'level') return Array.from({ length: complete }, (_, i) => i);
    return lags.map((lag) => target - lag).filter((i) => i >= 0 && i < complete);
  };

  it('each interval’s buffer is the share-quantile of its basis’s samples, within what they recorded', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.nat(6), { maxLength: 8 }), { minLength: 2, maxLength: DEMAND_MAX_BUCKETS }),
        fc.integer({ min: 0, max: 3 * 60 }),
        (crowdings, minutesAhead) => {
          const h: DemandHistory = {
            intervalMs: HOUR_MS,
            start: MONDAY,
            buckets: crowdings.map((c) => bucket(c)),
          };
          const now = MONDAY + crowdings.length * HOUR_MS - 1;
          const complete = crowdings.length - 1;
          const horizon = forecastHorizon(h, now, minutesAhead * 60_000);
          expect(horizon).toBeDefined();
          const { share } = horizon!.method;
          for (const i of horizon!.intervals) {
            const target = (i.start - MONDAY) / HOUR_MS;
            const samples = samplesOf(i.basis, target, complete).map((k) => crowdings[k]!);
            const merged: number[] = [];
            samples.forEach((c) => c.forEach((n, j) => (merged[j] = (merged[j] ?? 0) + n)));
            const total = merged.reduce((a, b) => a + b, 0);
            let expected = 0;
            for (let served = 0; total > 0 && served < share * total - 1e-9; expected++)
              served += merged[expected] ?? 0;
            expect(i.buffer).toBe(expected);
            expect(i.buffer).toBeGreaterThanOrEqual(0);
            expect(i.buffer).toBeLessThanOrEqual(Math.max(0, ...samples.map((c) => c.length)));
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
