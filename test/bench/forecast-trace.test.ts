/**
 * P7's parts: the synthetic traces have the shapes they claim (the CI trace's week, the bursty trace's
 * lack of one), the pool model applies the scaling rules (a bigger static buffer never serves fewer
 * leases warm, nothing is warm without a buffer), the schedule windows are where the bench says, and
 * the 4-week comparisons meet their goals.
 */
import { describe, expect, it } from '@jest/globals';
import { burstyTrace } from '../../bench/support/bursty-trace';
import { ciTrace } from '../../bench/support/ci-trace';
import {
  burstyRun,
  compare,
  compareBursty,
  schedulePolicy,
  staticPolicy,
  traceRun,
} from '../../bench/p7-forecast-trace';

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

describe('P7 bursty trace', () => {
  const trace = burstyTrace({ seed: 29, weeks: 2 });

  it('has no weekly pattern: every day of the week is about as busy', () => {
    const perDay = Array.from(
      { length: 14 },
      (_, day) => trace.filter((l) => l.arrival >= day * DAY && l.arrival < (day + 1) * DAY).length,
    );
    const mean = perDay.reduce((a, b) => a + b, 0) / perDay.length;
    for (const n of perDay) expect(Math.abs(n - mean)).toBeLessThan(0.35 * mean);
  });

  it('has bursts at irregular hours: no hour of the day holds most of them', () => {
    const starts = new Map<number, number>();
    for (const l of trace.filter((l) => l.kind === 'burst')) {
      const hour = Math.floor((l.arrival % DAY) / HOUR);
      starts.set(hour, (starts.get(hour) ?? 0) + 1);
    }
    expect(starts.size).toBeGreaterThan(12);
    const bursts = [...starts.values()].reduce((a, b) => a + b, 0);
    expect(Math.max(...starts.values())).toBeLessThan(bursts / 4);
  });

  it('is the same for the same seed', () => {
    expect(burstyTrace({ seed: 29, weeks: 2 })).toEqual(trace);
    expect(burstyTrace({ seed: 30, weeks: 2 })).not.toEqual(trace);
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

  it('4 weeks of CI: forecast Apply serves ≥ 95 % warm within 1.1× the instance-hours of the best tuned schedule', () => {
    const result = compare(traceRun());
    expect(result.bestSchedule).toBeDefined();
    expect(result.forecast.warmPercent).toBeGreaterThanOrEqual(95);
    expect(result.forecast.instanceHours).toBeLessThanOrEqual(1.1 * result.bestSchedule!.instanceHours);
    expect(result.forecast.instanceHours).toBeLessThan(result.smallestStatic!.instanceHours);
  }, 300_000);

  it('4 weeks of irregular bursts: forecast Apply learns one level, about the smallest static buffer that serves 95 %', () => {
    const result = compareBursty(burstyRun());
    expect(result.smallestStatic).toBeDefined();
    expect(result.forecast.warmPercent).toBeGreaterThanOrEqual(95);
    // A level learnt from the weeks before, against one chosen on the measured weeks themselves.
    expect(result.forecast.instanceHours).toBeLessThanOrEqual(1.05 * result.smallestStatic!.instanceHours);
    const hours = Object.values(result.methods).reduce((a, b) => a + b, 0);
    const level = Object.entries(result.methods)
      .filter(([method]) => method.startsWith('level'))
      .reduce((a, [, n]) => a + n, 0);
    expect(level).toBeGreaterThan(hours / 2);
  }, 300_000);
});
