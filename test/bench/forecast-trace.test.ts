/**
 * P7's parts: the synthetic CI trace has the shape it claims, the pool model applies the scaling rules
 * (a bigger static buffer never serves fewer leases warm, nothing is warm without a buffer), the
 * schedule windows are where the bench says, and the 4-week comparison meets its goal.
 */
import { describe, expect, it } from '@jest/globals';
import { ciTrace } from '../../bench/support/ci-trace';
import { compare, schedulePolicy, staticPolicy, traceRun } from '../../bench/p7-forecast-trace';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('P7 CI trace', () => {
  const trace = ciTrace({ seed: 17, weeks: 2, holidays: [7] });
  const onDay = (day: number) => trace.filter((l) => l.arrival >= day * DAY && l.arrival < (day + 1) * DAY);

  it('is busy on weekdays, quiet on weekends and on the holiday', () => {
    const weekday = onDay(1).length;
    expect(weekday).toBeGreaterThan(300);
    for (const quiet of [5, 6, 7]) expect(onDay(quiet).length).toBeLessThan(weekday / 5);
  });

  it('has the 09:00 burst on weekdays and the nightly burst at 02:00 after them', () => {
    const bursts = trace.filter((l) => l.kind === 'burst');
    expect(bursts.every((l) => Math.floor((l.arrival % DAY) / HOUR) === 9)).toBe(true);
    const nightly = trace.filter((l) => l.kind === 'nightly');
    expect(nightly.every((l) => Math.floor((l.arrival % DAY) / HOUR) === 2)).toBe(true);
    // The nights after Saturday, Sunday and the holiday (Sunday, Monday, Tuesday 02:00) have none.
    for (const day of [6, 7, 8])
      expect(nightly.filter((l) => Math.floor(l.arrival / DAY) === day)).toEqual([]);
  });

  it('is the same for the same seed', () => {
    expect(ciTrace({ seed: 17, weeks: 2, holidays: [7] })).toEqual(trace);
    expect(ciTrace({ seed: 18, weeks: 2 })).not.toEqual(trace);
  });
});

describe('P7 pool model and comparison', () => {
  const runner = traceRun(17, 3);

  it('serves nothing warm without a buffer, and more with a bigger one', () => {
    const warm = [0, 2, 4].map((b) => runner.run(staticPolicy(b)));
    expect(warm[0].warm).toBe(0);
    expect(warm[1].warm).toBeGreaterThan(warm[0].warm);
    expect(warm[2].warm).toBeGreaterThan(warm[1].warm);
    expect(warm[2].instanceHours).toBeGreaterThan(warm[1].instanceHours);
  });

  it('schedules working hours Mon–Fri and the nightly hour Tue–Sat (UTC) through the planner, warming a lead time early', () => {
    const monday = Date.UTC(2026, 0, 5);
    const policy = schedulePolicy(1, 6);
    const at = (now: number) =>
      policy({ now, startupP95Ms: 5 * 60_000 } as never) as { minAvailable: number; wakeAt?: number };
    expect(at(monday + 9 * HOUR).minAvailable).toBe(6);
    expect(at(monday + 8 * HOUR - 4 * 60_000).minAvailable).toBe(6);
    expect(at(monday + 8 * HOUR - 6 * 60_000).minAvailable).toBe(1);
    expect(at(monday + 18 * HOUR).minAvailable).toBe(1);
    expect(at(monday + 2 * HOUR).minAvailable).toBe(1);
    expect(at(monday + DAY + 2 * HOUR).minAvailable).toBe(6);
    expect(at(monday + 6 * DAY + 10 * HOUR).minAvailable).toBe(1);
    expect(at(monday + 9 * HOUR).wakeAt).toBe(monday + 18 * HOUR);
  });

  it('4 weeks: forecast Apply serves ≥ 95 % warm with fewer instance-hours than the smallest static buffer that does', () => {
    const result = compare(traceRun());
    expect(result.smallestStatic).toBeDefined();
    expect(result.forecast.warmPercent).toBeGreaterThanOrEqual(95);
    expect(result.forecast.instanceHours).toBeLessThan(result.smallestStatic!.instanceHours);
  }, 60_000);
});
