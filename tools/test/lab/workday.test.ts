import { describe, expect, it } from '@jest/globals';
import { parseDuration } from 'virtual-exporters/internal';
import { buildGitopsApp } from '../../../examples/gitops/app';
import { WORKDAY_DEFAULTS } from '../../src/lab/command-line';
import { labManifests, withPlanning } from '../../src/lab/manifests';
import {
  cronAt,
  MINUTE_MS,
  windowBuffer,
  WORKDAY_FORECAST,
  WORKDAY_WINDOWS,
  workdayPlanning,
} from '../../src/lab/workday';
import type { KubeObject } from 'virtual-exporters-test-cluster';

const START = Date.UTC(2026, 10, 26, 21, 7, 0); // a whole minute
const DAY = { startMs: START, lengthMs: WORKDAY_DEFAULTS.durationSeconds * 1000 };
const rpi4 = { minAvailableReplicas: 2, maxReplicas: 20 };

/** The wall instant a schedule's one-shot cron (minute hour day month *) names, in the day's year. */
function cronInstant(cron: string): number {
  const [minute, hour, dom, month, dow] = cron.split(' ');
  expect(dow).toBe('*');
  return Date.UTC(2026, Number(month) - 1, Number(dom), Number(hour), Number(minute));
}

describe('workday planning', () => {
  it('writes cron for the UTC minute of an instant', () => {
    expect(cronAt(Date.UTC(2026, 0, 31, 23, 59, 0))).toBe('59 23 31 1 *');
    expect(cronAt(Date.UTC(2026, 11, 1, 0, 0, 30))).toBe('0 0 1 12 *');
  });

  it('opens each window at its hour of the day and keeps it open for its hours, in wall time', () => {
    const { schedules } = workdayPlanning(rpi4, DAY);
    const hourMs = DAY.lengthMs / 24;
    expect(schedules!.map((s) => s.name)).toEqual(WORKDAY_WINDOWS.map((w) => w.name));
    schedules!.forEach((s, i) => {
      const window = WORKDAY_WINDOWS[i];
      // The default day's hours are 30 s, so the even-hour windows open exactly on a minute.
      expect(cronInstant(s.cron)).toBe(START + window.openHour * hourMs);
      expect(parseDuration(s.duration)).toBe(window.hours * hourMs);
      expect(s.timeZone).toBe('UTC');
    });
  });

  it('opens a window on the minute nearest its hour when the day’s hours are not whole minutes', () => {
    const day = { startMs: START, lengthMs: 500_000 }; // an hour is 20.8 s
    const { schedules } = workdayPlanning(rpi4, day);
    const hourMs = day.lengthMs / 24;
    schedules!.forEach((s, i) => {
      const w = WORKDAY_WINDOWS[i];
      const opens = cronInstant(s.cron);
      expect(opens % MINUTE_MS).toBe(0);
      expect(Math.abs(opens - (START + w.openHour * hourMs))).toBeLessThanOrEqual(MINUTE_MS / 2);
      // It still closes at its hour.
      expect(
        Math.abs(opens + parseDuration(s.duration) - (START + (w.openHour + w.hours) * hourMs)),
      ).toBeLessThanOrEqual(500);
    });
  });

  it('drops a window that rounding to a minute would open after it closes', () => {
    // An hour is 16 s: the nightly window (02:00–03:00, 32–48 s) would open at 60 s; working hours stay.
    const { schedules } = workdayPlanning(rpi4, { startMs: START, lengthMs: 384_000 });
    expect(schedules!.map((s) => s.name)).toEqual(['working-hours']);
  });

  it('raises the buffer to the window’s share of the capacity, never lowers it, never beyond the ceiling', () => {
    const [nightly, working] = WORKDAY_WINDOWS;
    expect(windowBuffer(working, rpi4)).toBe(12); // 0.6 × 20
    expect(windowBuffer(nightly, { minAvailableReplicas: 3, maxReplicas: 10 })).toBe(8);
    expect(windowBuffer(working, { minAvailableReplicas: 9, maxReplicas: 10 })).toBe(9);
    expect(windowBuffer({ ...nightly, share: 1.5 }, { minAvailableReplicas: 0, maxReplicas: 4 })).toBe(4);
    expect(windowBuffer(working, { minAvailableReplicas: 0, maxReplicas: 0 })).toBe(6); // unbounded: 10
  });

  it('asks for a forecast that is shown, not applied', () => {
    expect(workdayPlanning(rpi4, DAY).forecast).toEqual({ mode: 'ForecastOnly' });
    expect(WORKDAY_FORECAST.mode).toBe('ForecastOnly');
  });

  it('writes the planning into a set as plain spec fields, leaving the rest of the set alone', () => {
    const objects = buildGitopsApp().charts.flatMap((chart) => chart.toJson()) as KubeObject[];
    const manifests = labManifests(objects, { speedUp: 120 });
    const set = manifests.objects.find(
      (o) => o.kind === 'ExporterSet' && o.metadata.name === 'rpi4-virtual',
    )!;
    const planning = workdayPlanning(manifests.pools[0], DAY);
    const planned = withPlanning(set, planning) as KubeObject & { spec: Record<string, unknown> };
    expect(planned.spec.schedules).toEqual(planning.schedules);
    expect(planned.spec.forecast).toEqual({ mode: 'ForecastOnly' });
    const { schedules: _s, forecast: _f, ...rest } = planned.spec;
    expect(rest).toEqual(set.spec);
    expect((set.spec as Record<string, unknown>).schedules).toBeUndefined(); // not modified in place
    expect(withPlanning(set, {})).toEqual(set);
  });
});
