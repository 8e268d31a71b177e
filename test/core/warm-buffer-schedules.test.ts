/**
 * The rules on spec.schedules that only the cron library can check (the CRD checks the shapes; see
 * agreement.test.ts): the expression's fields, the zone exists, a window closes before the next opens.
 */
import { describe, expect, it } from '@jest/globals';
import {
  isTimeZone,
  parseCron,
  scheduleEntryIssues,
  shortestGapMs,
  validateExporterSet,
  type ValidationIssue,
} from '../../lib/core';

const H = 3_600_000;

const setWith = (schedules: unknown, maxReplicas = 10) => ({
  apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
  kind: 'ExporterSet',
  metadata: { name: 'pool' },
  spec: {
    maxReplicas,
    virtualTargetClassName: 'qemu',
    selector: { matchLabels: { board: 'x' } },
    template: { metadata: { labels: { board: 'x' } } },
    schedules,
  },
});

const work = (change: Record<string, unknown> = {}) => ({
  name: 'work',
  cron: '0 8 * * 1-5',
  duration: '10h',
  minAvailableReplicas: 4,
  ...change,
});

const issuesOf = (entry: unknown): ValidationIssue[] => scheduleEntryIssues(entry, 'spec.schedules[0]');

describe('scheduled warm buffers: synth-time rules', () => {
  it('accepts working hours, nightly runs and every macro, in any zone of the tz database', () => {
    expect(
      validateExporterSet(
        setWith([
          work({ timeZone: 'Europe/Berlin', leadTime: '5m', minReplicas: 2 }),
          {
            name: 'nightly',
            cron: '30 1 * * *',
            duration: '2h',
            minAvailableReplicas: 6,
            timeZone: 'America/New_York',
          },
          { name: 'release', cron: '@monthly', duration: '48h', minAvailableReplicas: 8 },
          { name: 'hourly', cron: '@hourly', duration: '1h', minAvailableReplicas: 1, timeZone: 'Etc/GMT+1' },
        ]),
      ),
    ).toEqual([]);
  });

  it('names the field, the value and the fix for a cron whose fields the library refuses', () => {
    const [issue] = issuesOf(work({ cron: '0 25 * * *' }));
    expect(issue).toMatchObject({ path: 'spec.schedules[0].cron', value: '0 25 * * *' });
    expect(issue.message).toMatch(
      /^is not a cron expression the controller can read \(.*25.*\); schedules\[\]\.cron must be five fields/,
    );
  });

  it.each([
    ['a day no month has', '0 0 30 2 *'],
    ['a hashed value', 'H 8 * * *'],
    ['a hashed step', 'H/5 * * * *'],
  ])('refuses %s', (_what, cron) => {
    expect(issuesOf(work({ cron }))).toEqual([
      expect.objectContaining({
        path: 'spec.schedules[0].cron',
        value: cron,
        message: expect.stringMatching(/^is not a cron expression/),
      }),
    ]);
  });

  it('reads day names with an H in them as days, not as hashed values', () => {
    expect(parseCron('0 8 * * THU')).toEqual({ ok: true, text: '0 8 * * THU' });
  });

  it('refuses a zone the tz database does not have, naming it', () => {
    expect(issuesOf(work({ timeZone: 'Mars/Olympus_Mons' }))).toEqual([
      {
        path: 'spec.schedules[0].timeZone',
        value: 'Mars/Olympus_Mons',
        message:
          'is not a time zone of the tz database; schedules[].timeZone must be an IANA time zone name such as UTC, Europe/Berlin or America/New_York',
      },
    ]);
    expect(isTimeZone('Australia/Sydney')).toBe(true);
    expect(isTimeZone('+01:00')).toBe(false);
  });

  it('refuses a window longer than the shortest gap between occurrences, saying how long it may be', () => {
    expect(issuesOf(work({ cron: '0 8,20 * * *', duration: '13h' }))).toEqual([
      {
        path: 'spec.schedules[0].duration',
        value: '13h',
        message:
          'is longer than the shortest gap between occurrences of cron "0 8,20 * * *" (12h0m0s), so the window would never close: make it at most 12h0m0s, or open windows less often',
      },
    ]);
    expect(issuesOf(work({ cron: '0 8,20 * * *', duration: '12h' }))).toEqual([]);
  });

  it('measures the gap on the wall clock: a daily window of 24 h is fine across daylight-saving days', () => {
    expect(shortestGapMs('0 9 * * *')).toBe(24 * H);
    expect(shortestGapMs('0 8 * * 1-5')).toBe(24 * H);
    expect(shortestGapMs('*/15 * * * *')).toBe(15 * 60_000);
    expect(shortestGapMs('0 0 29 2 *')).toBe(Date.UTC(2008, 1, 29) - Date.UTC(2004, 1, 29));
    expect(issuesOf(work({ cron: '0 9 * * *', duration: '24h', timeZone: 'Europe/Berlin' }))).toEqual([]);
  });

  it('refuses a missing or zero duration and a missing buffer', () => {
    expect(issuesOf({ name: 'x', cron: '@daily' }).map((i) => i.path)).toEqual([
      'spec.schedules[0].minAvailableReplicas',
      'spec.schedules[0].duration',
    ]);
    expect(issuesOf(work({ duration: '0h0m' }))[0].message).toBe(
      'schedules[].duration must be longer than 0',
    );
    expect(issuesOf(work({ minAvailableReplicas: -1 }))[0].path).toBe(
      'spec.schedules[0].minAvailableReplicas',
    );
  });

  it('refuses two schedules of one name, and counts above maxReplicas', () => {
    const found = validateExporterSet(setWith([work(), work({ minAvailableReplicas: 12 })]));
    expect(found).toEqual([
      expect.objectContaining({
        path: 'spec.schedules[1].name',
        value: 'work',
        message: expect.stringMatching(/must be unique among the schedules/),
      }),
      expect.objectContaining({ path: 'spec.schedules[1].minAvailableReplicas', value: 12 }),
    ]);
  });

  it('never throws on schedules of any shape', () => {
    for (const value of [
      null,
      'x',
      3,
      [null],
      [[]],
      [{}],
      [{ name: 3, cron: {}, duration: [], timeZone: 1 }],
    ]) {
      expect(() => validateExporterSet(setWith(value))).not.toThrow();
    }
    expect(validateExporterSet(setWith('x'))).toEqual([
      expect.objectContaining({ path: 'spec.schedules', message: 'must be a list' }),
    ]);
  });
});
