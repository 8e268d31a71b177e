/**
 * Window evaluation of spec.schedules (schedules.ts): which windows are open, which opens next and
 * which raise the warm buffer, across time zones and daylight-saving days, with the lead time.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { occurrenceAfter, type WarmBufferSchedule } from 'virtual-exporters/internal';
import { DEFAULT_LEAD_MS, evaluateSchedules } from '../../src/planner/demand/schedules';

const MIN = 60_000;
const t = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

const schedule = (change: Partial<WarmBufferSchedule> = {}): WarmBufferSchedule => ({
  name: 'work',
  cron: '0 8 * * 1-5',
  duration: '10h',
  minAvailableReplicas: 6,
  ...change,
});

/** The open windows and next window as ISO texts, and the names raising. */
function at(schedules: unknown, now: string, startupP95Ms?: number) {
  const e = evaluateSchedules(schedules, t(now), startupP95Ms);
  return {
    active: e.active.map((w) => `${w.name} ${iso(w.opensAt)}..${iso(w.closesAt)}`),
    next: e.next && `${e.next.name} ${iso(e.next.opensAt)} warm ${iso(e.next.warmFrom)}`,
    raising: e.raises.map((r) => r.name),
  };
}

describe('schedule windows across time zones and daylight-saving days', () => {
  it.each([
    [
      'Berlin working hours, the Monday after spring-forward (CEST, UTC+2)',
      schedule({ timeZone: 'Europe/Berlin' }),
      '2026-03-30T06:00:00.000Z',
      ['work 2026-03-30T06:00:00.000Z..2026-03-30T16:00:00.000Z'],
      'work 2026-03-31T06:00:00.000Z warm 2026-03-31T05:58:00.000Z',
    ],
    [
      'Berlin working hours, the Friday before spring-forward (CET, UTC+1)',
      schedule({ timeZone: 'Europe/Berlin' }),
      '2026-03-27T16:59:59.999Z',
      ['work 2026-03-27T07:00:00.000Z..2026-03-27T17:00:00.000Z'],
      'work 2026-03-30T06:00:00.000Z warm 2026-03-30T05:58:00.000Z',
    ],
    [
      'Berlin, 02:30 on spring-forward day does not exist: the window opens at 03:30 CEST',
      schedule({ cron: '30 2 * * *', duration: '1h', timeZone: 'Europe/Berlin' }),
      '2026-03-29T01:30:00.000Z',
      ['work 2026-03-29T01:30:00.000Z..2026-03-29T02:30:00.000Z'],
      'work 2026-03-30T00:30:00.000Z warm 2026-03-30T00:28:00.000Z',
    ],
    [
      'Berlin, 02:30 occurs twice on fall-back day: the window opens once, at the first',
      schedule({ cron: '30 2 * * *', duration: '30m', timeZone: 'Europe/Berlin' }),
      '2026-10-25T01:30:00.000Z',
      [],
      'work 2026-10-26T01:30:00.000Z warm 2026-10-26T01:28:00.000Z',
    ],
    [
      'Berlin fall-back day: a window over the repeated hour lasts its duration in real time',
      schedule({ cron: '0 1 * * *', duration: '3h', timeZone: 'Europe/Berlin' }),
      '2026-10-25T01:59:00.000Z',
      ['work 2026-10-24T23:00:00.000Z..2026-10-25T02:00:00.000Z'],
      'work 2026-10-26T00:00:00.000Z warm 2026-10-25T23:58:00.000Z',
    ],
    [
      'New York, the day after spring-forward (EDT, UTC-4)',
      schedule({ cron: '0 9 * * *', duration: '8h', timeZone: 'America/New_York' }),
      '2026-03-08T13:00:00.000Z',
      ['work 2026-03-08T13:00:00.000Z..2026-03-08T21:00:00.000Z'],
      'work 2026-03-09T13:00:00.000Z warm 2026-03-09T12:58:00.000Z',
    ],
    [
      'New York, the day before spring-forward (EST, UTC-5): 13:30Z is before 9:00',
      schedule({ cron: '0 9 * * *', duration: '8h', timeZone: 'America/New_York' }),
      '2026-03-07T13:30:00.000Z',
      [],
      'work 2026-03-07T14:00:00.000Z warm 2026-03-07T13:58:00.000Z',
    ],
    [
      'Sydney, the morning DST ends (AEDT to AEST): 9:00 moves from 22:00Z to 23:00Z',
      schedule({ cron: '0 9 * * *', duration: '8h', timeZone: 'Australia/Sydney' }),
      '2026-04-04T22:30:00.000Z',
      [],
      'work 2026-04-04T23:00:00.000Z warm 2026-04-04T22:58:00.000Z',
    ],
    [
      'Sydney, the morning DST starts (AEST to AEDT)',
      schedule({ cron: '0 9 * * *', duration: '8h', timeZone: 'Australia/Sydney' }),
      '2026-10-03T22:00:00.000Z',
      ['work 2026-10-03T22:00:00.000Z..2026-10-04T06:00:00.000Z'],
      'work 2026-10-04T22:00:00.000Z warm 2026-10-04T21:58:00.000Z',
    ],
    [
      'a nightly window spanning midnight, open the morning after',
      schedule({ name: 'nightly', cron: '0 22 * * *', duration: '8h' }),
      '2026-06-02T05:59:59.000Z',
      ['nightly 2026-06-01T22:00:00.000Z..2026-06-02T06:00:00.000Z'],
      'nightly 2026-06-02T22:00:00.000Z warm 2026-06-02T21:58:00.000Z',
    ],
    [
      'a window closes at its end, exclusive',
      schedule({ name: 'nightly', cron: '0 22 * * *', duration: '8h' }),
      '2026-06-02T06:00:00.000Z',
      [],
      'nightly 2026-06-02T22:00:00.000Z warm 2026-06-02T21:58:00.000Z',
    ],
  ])('%s', (_what, s, now, active, next) => {
    const found = at([s], now);
    expect(found.active).toEqual(active);
    expect(found.next).toBe(next);
  });
});

describe('pre-warming', () => {
  const opens = '2026-06-01T08:00:00.000Z'; // a Monday
  const before = (ms: number) => iso(t(opens) - ms)!;

  it('raises from the default lead time before a window opens when nothing was measured', () => {
    expect(at([schedule()], before(DEFAULT_LEAD_MS + 1)).raising).toEqual([]);
    expect(at([schedule()], before(DEFAULT_LEAD_MS)).raising).toEqual(['work']);
    expect(at([schedule()], before(DEFAULT_LEAD_MS)).active).toEqual([]);
  });

  it("uses the pool's measured p95 startup time when the schedule names no lead time", () => {
    expect(at([schedule()], before(91_000), 90_000).raising).toEqual([]);
    expect(at([schedule()], before(90_000), 90_000).raising).toEqual(['work']);
  });

  it("prefers the schedule's lead time to the measured one", () => {
    const s = schedule({ leadTime: '15m' });
    expect(at([s], before(15 * MIN + 1), 90_000).raising).toEqual([]);
    expect(at([s], before(15 * MIN), 90_000).raising).toEqual(['work']);
    expect(at([s], before(15 * MIN), 90_000).next).toBe(
      'work 2026-06-01T08:00:00.000Z warm 2026-06-01T07:45:00.000Z',
    );
  });

  it('a lead time of 0 raises exactly at the opening', () => {
    const s = schedule({ leadTime: '0' });
    expect(at([s], before(1)).raising).toEqual([]);
    expect(at([s], opens).raising).toEqual(['work']);
  });
});

describe('several schedules', () => {
  it('overlapping windows are all open and all raise (the buffer takes the maximum)', () => {
    const e = evaluateSchedules(
      [
        schedule(),
        schedule({ name: 'release', cron: '0 12 1 * *', duration: '24h', minAvailableReplicas: 9 }),
      ],
      t('2026-06-01T13:00:00.000Z'),
      undefined,
    );
    expect(e.active.map((w) => w.name)).toEqual(['release', 'work']);
    expect(e.raises.map((r) => [r.name, r.minAvailable])).toEqual([
      ['work', 6],
      ['release', 9],
    ]);
  });

  it('ignores an entry it cannot read, naming the field and value, and applies the others', () => {
    const e = evaluateSchedules(
      [{ name: 'bad', cron: '0 25 * * *', duration: '1h', minAvailableReplicas: 3 }, schedule()],
      t('2026-06-01T09:00:00.000Z'),
      undefined,
    );
    expect(e.raises.map((r) => r.name)).toEqual(['work']);
    expect(e.ignored).toEqual([
      expect.objectContaining({ path: 'spec.schedules[0].cron', value: '0 25 * * *' }),
    ]);
  });

  it.each([
    null,
    'x',
    7,
    [null],
    [{}],
    [{ name: 'x', cron: 5 }],
    [{ ...schedule(), timeZone: 'Nowhere/Land' }],
  ])('never throws on %j, and raises nothing from it', (value) => {
    const e = evaluateSchedules(value, t('2026-06-01T09:00:00.000Z'), undefined);
    expect(e.raises).toEqual([]);
    expect(e.active).toEqual([]);
  });

  it('names the next change: the warm-up, then the opening, then the closing', () => {
    const s = [schedule({ leadTime: '10m' })];
    const change = (now: string) => iso(evaluateSchedules(s, t(now), undefined).nextChangeAt);
    expect(change('2026-06-01T07:00:00.000Z')).toBe('2026-06-01T07:50:00.000Z');
    expect(change('2026-06-01T07:50:00.000Z')).toBe('2026-06-01T08:00:00.000Z');
    expect(change('2026-06-01T08:00:00.000Z')).toBe('2026-06-01T18:00:00.000Z');
    expect(change('2026-06-01T18:00:00.000Z')).toBe('2026-06-02T07:50:00.000Z');
  });
});

describe('window evaluation properties', () => {
  const zones = [
    'UTC',
    'Europe/Berlin',
    'America/New_York',
    'Australia/Sydney',
    'Asia/Kolkata',
    'Pacific/Chatham',
  ];
  const cronArb = fc
    .record({
      minute: fc.integer({ min: 0, max: 59 }),
      hour: fc.integer({ min: 0, max: 23 }),
      days: fc.constantFrom('*', '1-5', '0,6', '3'),
    })
    .map(({ minute, hour, days }) => `${minute} ${hour} * * ${days}`);
  // 2026 and 2027: every daylight-saving change of the zones above, twice.
  const nowArb = fc.integer({ min: t('2026-01-01T00:00:00Z'), max: t('2027-12-31T00:00:00Z') });
  const entryArb = fc.record({
    cron: cronArb,
    zone: fc.constantFrom(...zones),
    durationMin: fc.integer({ min: 1, max: 24 * 60 }),
    leadMin: fc.integer({ min: 0, max: 120 }),
  });
  const entry = (e: { cron: string; zone: string; durationMin: number; leadMin: number }) =>
    schedule({ cron: e.cron, timeZone: e.zone, duration: `${e.durationMin}m`, leadTime: `${e.leadMin}m` });

  it('an open window holds now, lasts its duration and starts at an occurrence; the next one is the first occurrence after now', () => {
    fc.assert(
      fc.property(entryArb, nowArb, (e, now) => {
        const ev = evaluateSchedules([entry(e)], now, undefined);
        for (const w of ev.active) {
          expect(w.opensAt).toBeLessThanOrEqual(now);
          expect(now).toBeLessThan(w.closesAt);
          expect(w.closesAt - w.opensAt).toBe(e.durationMin * MIN);
          expect(occurrenceAfter(e.cron, e.zone, w.opensAt - 1000)).toBe(w.opensAt);
        }
        expect(ev.next?.opensAt).toBe(occurrenceAfter(e.cron, e.zone, now));
        expect(ev.next!.opensAt).toBeGreaterThan(now);
        expect(ev.next!.opensAt - ev.next!.warmFrom).toBe(e.leadMin * MIN);
        // Raised exactly while open or within the lead time of the next window.
        const raised = ev.raises.length > 0;
        expect(raised).toBe(ev.active.length > 0 || now >= ev.next!.warmFrom);
      }),
      { numRuns: 300 },
    );
  });

  it('nothing changes before nextChangeAt, and a window is open at its opening instant', () => {
    fc.assert(
      fc.property(entryArb, nowArb, fc.double({ min: 0, max: 1, noNaN: true }), (e, now, f) => {
        const s = [entry(e)];
        const ev = evaluateSchedules(s, now, undefined);
        const change = ev.nextChangeAt!;
        expect(change).toBeGreaterThan(now);
        const later = evaluateSchedules(s, now + Math.floor(f * (change - now - 1)), undefined);
        expect(later.raises.map((r) => r.name)).toEqual(ev.raises.map((r) => r.name));
        expect(later.active).toEqual(ev.active);
        const opening = evaluateSchedules(s, ev.next!.opensAt, undefined);
        expect(opening.active.map((w) => w.opensAt)).toContain(ev.next!.opensAt);
        expect(opening.raises).toHaveLength(1);
      }),
      { numRuns: 200 },
    );
  });
});
