/**
 * Scheduled warm buffers in the planner: a window (from its lead time on) raises the buffer every rule
 * plans for, never above maxReplicas; the status and events report windows once per transition; a
 * window closing causes no scale-in before the cooldown; a malformed schedule is ignored and reported.
 */
import { describe, expect, it } from '@jest/globals';
import {
  ConditionReasons,
  ConditionTypes,
  EventReasons,
  type ExporterSetSpec,
  type ExporterSetStatus,
  type WarmBufferSchedule,
} from 'virtual-exporters/internal';
import { plan, type Plan } from '../../src/planner';
import { applyPlan, bootAll } from './applier';
import { at, conditionOf, instance, makeSet, ofType, snapshot, T0 } from './builders';

const MIN = 60_000;
// T0 is 12:00 UTC: the window warms at 12:50, opens at 13:00 and closes at 15:00.
const WARM = 50 * MIN;
const OPEN = 60 * MIN;
const CLOSE = 3 * 60 * MIN;

const peak = (change: Partial<WarmBufferSchedule> = {}): WarmBufferSchedule => ({
  name: 'peak',
  cron: '0 13 * * *',
  duration: '2h',
  leadTime: '10m',
  minAvailableReplicas: 5,
  ...change,
});
const spec = (change: Partial<ExporterSetSpec> = {}): Partial<ExporterSetSpec> => ({
  minAvailableReplicas: 1,
  maxReplicas: 10,
  schedules: [peak()],
  ...change,
});
const idle = (n: number) => Array.from({ length: n }, (_, i) => instance(i, 'available'));
const creates = (p: Plan) => ofType(p, 'CreateExporter').length;
const eventsOf = (p: Plan, reason: string) => p.events.filter((e) => e.reason === reason);
const openWindow = { name: 'peak', opensAt: at(OPEN), closesAt: at(CLOSE) };

describe('scheduled warm buffers in the plan', () => {
  it('keeps the static buffer before the lead time, reports the next window and wakes up when it warms', () => {
    const result = plan(snapshot({ set: makeSet(spec()), instances: idle(1), now: WARM - 1 }));
    expect(creates(result)).toBe(0);
    expect(result.status?.schedules).toEqual({
      next: { name: 'peak', opensAt: at(OPEN), closesAt: at(CLOSE), warmFrom: at(WARM) },
    });
    expect(result.status?.effectiveMinAvailableReplicas).toBeUndefined();
    expect(result.requeueAfterMs).toBe(1);
  });

  it('raises the buffer from the lead time, so the pool is warm when the window opens', () => {
    const warming = snapshot({ set: makeSet(spec()), instances: idle(1), now: WARM });
    const first = plan(warming);
    expect(creates(first)).toBe(4);
    expect(first.status?.effectiveMinAvailableReplicas).toBe(5);
    expect(first.status?.schedules?.active).toBeUndefined();
    expect(eventsOf(first, EventReasons.ScheduleWindowOpened)).toEqual([]);
    expect(first.requeueAfterMs).toBe(OPEN - WARM);

    // The creates land, get their Pods and boot, all before the window opens.
    let booted = bootAll(applyPlan(warming, first));
    for (let pass = 0; pass < 3; pass++) booted = bootAll(applyPlan(booted, plan(booted)));
    const opening = plan({ ...booted, now: T0 + OPEN });
    expect(creates(opening)).toBe(0);
    expect(opening.status?.availableReplicas).toBe(5);
    expect(opening.status?.schedules?.active).toEqual([openWindow]);
    expect(eventsOf(opening, EventReasons.ScheduleWindowOpened)).toEqual([
      expect.objectContaining({
        type: 'Normal',
        message: expect.stringContaining('window of schedule peak opened at 2026-03-01T13:00:00.000Z'),
      }),
    ]);
    // The next pass reads the status it wrote: no second event.
    const again = plan({ ...applyPlan({ ...booted, now: T0 + OPEN }, opening), now: T0 + OPEN + MIN });
    expect(eventsOf(again, EventReasons.ScheduleWindowOpened)).toEqual([]);
    expect(again.requeueAfterMs).toBe(CLOSE - OPEN - MIN);
  });

  it('never plans above maxReplicas, however much a window asks', () => {
    const set = makeSet(
      spec({ maxReplicas: 4, schedules: [peak({ minAvailableReplicas: 20, minReplicas: 9 })] }),
    );
    const result = plan(snapshot({ set, instances: idle(1), now: OPEN }));
    expect(creates(result)).toBe(3);
    expect(result.status?.effectiveMinAvailableReplicas).toBe(4);
    // Admission refuses counts above maxReplicas; on the wire they are capped, and creates go on.
    expect(conditionOf(result, ConditionTypes.SpecValid)).toMatchObject({
      status: 'False',
      reason: ConditionReasons.ScheduleIgnored,
    });
  });

  it('raises the floor while a window with minReplicas is open', () => {
    const set = makeSet(
      spec({ minAvailableReplicas: 0, schedules: [peak({ minAvailableReplicas: 0, minReplicas: 3 })] }),
    );
    const unscheduled = makeSet(spec({ minAvailableReplicas: 0, schedules: [] }));
    const baseline = creates(plan(snapshot({ set: unscheduled, now: OPEN })));
    expect(creates(plan(snapshot({ set, now: OPEN })))).toBe(3);
    expect(creates(plan(snapshot({ set, now: CLOSE })))).toBe(baseline);
  });

  it('takes the largest of overlapping windows', () => {
    const set = makeSet(
      spec({
        schedules: [
          peak(),
          peak({ name: 'release', cron: '30 12 * * *', duration: '3h', minAvailableReplicas: 7 }),
        ],
      }),
    );
    const result = plan(snapshot({ set, now: OPEN }));
    expect(creates(result)).toBe(7);
    expect(result.status?.schedules?.active?.map((w) => w.name)).toEqual(['peak', 'release']);
  });

  it('does not scale in when a window closes: the surplus leaves after the cooldown, as any surplus', () => {
    const status = { schedules: { active: [openWindow] }, effectiveMinAvailableReplicas: 5 };
    const closing = snapshot({
      set: makeSet(spec(), { status: status as Partial<ExporterSetStatus> }),
      instances: idle(5),
      now: CLOSE,
    });
    const closed = plan(closing);
    expect(ofType(closed, 'DisableExporter')).toEqual([]);
    expect(ofType(closed, 'DeleteExporter')).toEqual([]);
    expect(closed.status?.effectiveMinAvailableReplicas).toBeUndefined();
    expect(closed.status?.scaleDownWindowStart).toBe(at(CLOSE));
    expect(eventsOf(closed, EventReasons.ScheduleWindowClosed)).toEqual([
      expect.objectContaining({ message: expect.stringContaining('window of schedule peak that opened at') }),
    ]);
    const later = applyPlan(closing, closed);
    expect(ofType(plan({ ...later, now: T0 + CLOSE + 5 * MIN - 1 }), 'DisableExporter')).toEqual([]);
    const due = plan({ ...later, now: T0 + CLOSE + 5 * MIN });
    expect(ofType(due, 'DisableExporter')).toHaveLength(4);
    expect(eventsOf(due, EventReasons.ScheduleWindowClosed)).toEqual([]);
  });

  it('does not announce a window again after a restart (the status it wrote says it is open)', () => {
    const status = { schedules: { active: [openWindow] }, effectiveMinAvailableReplicas: 5 };
    const set = makeSet(spec(), { status: status as Partial<ExporterSetStatus> });
    const result = plan(snapshot({ set, instances: idle(5), now: OPEN + 30 * MIN }));
    expect(eventsOf(result, EventReasons.ScheduleWindowOpened)).toEqual([]);
    expect(eventsOf(result, EventReasons.ScheduleWindowClosed)).toEqual([]);
  });

  it('ignores a malformed schedule on the wire, names the field and value, and keeps the static buffer', () => {
    const set = makeSet(
      spec({
        minAvailableReplicas: 2,
        schedules: [peak({ cron: 'at noon' }), peak({ name: 'ok', timeZone: 'Moon/Base' })],
      }),
    );
    const result = plan(snapshot({ set, now: OPEN }));
    expect(creates(result)).toBe(2);
    expect(result.status?.effectiveMinAvailableReplicas).toBeUndefined();
    const specValid = conditionOf(result, ConditionTypes.SpecValid);
    expect(specValid).toMatchObject({ status: 'False', reason: ConditionReasons.ScheduleIgnored });
    expect(specValid?.message).toContain('spec.schedules[0].cron');
    expect(specValid?.message).toContain('"at noon"');
    expect(specValid?.message).toContain('spec.schedules[1].timeZone');
    expect(specValid?.message).toContain('"Moon/Base"');
    expect(result.events).toContainEqual(
      expect.objectContaining({ type: 'Warning', reason: ConditionReasons.ScheduleIgnored }),
    );
  });

  it('changes nothing for a set without schedules', () => {
    const result = plan(snapshot({ set: makeSet({ minAvailableReplicas: 1 }), instances: idle(1) }));
    expect(result.status?.schedules).toBeUndefined();
    expect(result.status?.effectiveMinAvailableReplicas).toBeUndefined();
    expect(result.requeueAfterMs).toBeUndefined();
  });
});
