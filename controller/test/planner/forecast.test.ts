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
  WEEK_MS,
  forecastHorizon,
  forecastInterval,
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

/** Working hours Mon–Fri 09–17 peak 12, a nightly burst of 8 at 02:00 Tue–Sat, weekends 1. */
const workweek = (day: number, hour: number): DemandBucket => {
  const weekday = day % 7;
  if (weekday >= 1 && weekday <= 5 && hour === 2) return { arrivals: 8, peak: 8 };
  if (weekday < 5 && hour >= 9 && hour < 17) return { arrivals: 40, peak: 12 };
  if (weekday >= 5) return { arrivals: 1, peak: 1 };
  return { arrivals: 0, peak: 0 };
};

/** The time `hours` after the start of day `day` (from MONDAY). */
const at = (day: number, hours: number) => MONDAY + day * DAY_MS + hours * HOUR_MS;

describe('forecast by hour of week', () => {
  // Two weeks recorded, now in the third: each hour is forecast from the same hour 1 and 2 weeks back.
  const twoWeeks = history(15, workweek);
  const now = at(14, 23.5); // Monday of week 3, 23:30 (the history holds its hours up to now)

  it.each([
    ['working hours on a weekday', at(15, 10), 12, 40],
    ['the nightly burst', at(16, 2), 8, 8],
    ['a quiet weekday night', at(15, 4), 0, 0],
    ['a quiet weekend afternoon', at(19, 15), 1, 1],
  ])('%s', (_, start, peak, arrivals) => {
    const found = forecastInterval(twoWeeks, start, start < now ? start + HOUR_MS : now);
    expect(found).toEqual({ start, peak, arrivals, basis: 'weekly' });
  });

  it('a holiday in one of the two weeks does not erase the hour (the larger week counts)', () => {
    // Week 2's Monday (day 7) was a holiday: quiet like a Sunday.
    const holiday = history(15, (day, hour) => (day === 7 ? { arrivals: 1, peak: 1 } : workweek(day, hour)));
    const monday = at(14, 10);
    expect(forecastInterval(holiday, monday, monday)?.peak).toBe(12);
  });

  it('a cold start (less than a week) forecasts from the same hour of the last days', () => {
    const threeDays = history(3, workweek); // Monday to Wednesday recorded
    const thursday = at(3, 10);
    expect(forecastInterval(threeDays, thursday, thursday)).toEqual({
      start: thursday,
      peak: 12,
      arrivals: 40,
      basis: 'daily',
    });
    // No weekend recorded yet: the first Saturday is forecast like the weekdays (warm, on the safe side).
    expect(forecastInterval(threeDays, at(5, 10), at(3, 0))?.peak).toBe(12);
  });

  it('an empty history, or one too short for any lag, has no forecast', () => {
    expect(forecastHorizon(undefined, now, 60_000)).toBeUndefined();
    expect(forecastHorizon({ intervalMs: HOUR_MS, start: MONDAY, buckets: [] }, now, 60_000)).toBeUndefined();
    const oneHour = { intervalMs: HOUR_MS, start: at(14, 23), buckets: [{ arrivals: 3, peak: 3 }] };
    expect(forecastHorizon(oneHour, at(14, 23.5), 60_000)).toBeUndefined();
  });

  it('an unreadable grid has no forecast', () => {
    expect(forecastHorizon({ ...twoWeeks, intervalMs: 7 * 60_000 }, now, 60_000)).toBeUndefined();
    expect(forecastHorizon({ ...twoWeeks, intervalMs: 0 }, now, 60_000)).toBeUndefined();
  });

  it('the horizon takes the largest hour it overlaps: a peak is forecast a lead time before it starts', () => {
    // Monday of week 3, 08:50, lead 15 min: 08:00 (quiet) and 09:00 (working hours) overlap.
    const before = at(14, 8 + 50 / 60);
    const h = history(14, workweek);
    expect(forecastHorizon(h, before, 15 * 60_000)?.expectedPeak).toBe(12);
    // Lead 5 min: only 08:00, quiet.
    expect(forecastHorizon(h, before, 5 * 60_000)?.expectedPeak).toBe(0);
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
      buckets: Array.from({ length: 24 }, () => ({ arrivals: 5, peak: 5 })),
    };
    const current = at(7, 23);
    const now = current + 30 * 60_000;
    expect(forecastInterval(day, current + WEEK_MS, now)).toBeUndefined();
    expect(forecastInterval(day, current + DAY_MS, now)).toBeUndefined();
    expect(forecastInterval(day, current - HOUR_MS + DAY_MS, now)?.peak).toBe(5);
  });

  it('property: the forecast is one of the recorded peaks at the lags, and never negative', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(30), { minLength: 24, maxLength: DEMAND_MAX_BUCKETS }),
        fc.integer({ min: 0, max: 24 * 60 }),
        (peaks, minutesAhead) => {
          const h: DemandHistory = {
            intervalMs: HOUR_MS,
            start: MONDAY,
            buckets: peaks.map((peak) => ({ peak, arrivals: peak })),
          };
          const now = MONDAY + peaks.length * HOUR_MS - 1;
          const horizon = forecastHorizon(h, now, minutesAhead * 60_000);
          if (horizon === undefined) return;
          expect(horizon.expectedPeak).toBeGreaterThanOrEqual(0);
          expect(peaks).toContain(horizon.expectedPeak);
          for (const i of horizon.intervals) {
            const lags =
              i.basis === 'weekly' ? [WEEK_MS, 2 * WEEK_MS] : [1, 2, 3, 4, 5, 6].map((d) => d * DAY_MS);
            const samples = lags
              .map((lag) => (i.start - lag - MONDAY) / HOUR_MS)
              .filter((k) => k >= 0 && k < peaks.length && MONDAY + (k + 1) * HOUR_MS <= now)
              .map((k) => peaks[k]);
            expect(i.peak).toBe(Math.max(...samples));
          }
        },
      ),
    );
  });
});
