/**
 * The reconciler's memory of when it first observed each fact (§3.17): a fact keeps the time of its
 * first sighting while it lasts, a fact that went is forgotten, and a set forgotten starts afresh.
 */
import { describe, expect, it } from '@jest/globals';
import type { Exporter } from 'virtual-exporters/internal';
import { FirstObserved, observeInstance } from '../../src/reconciler/first-observed';

const exporter = { metadata: { name: 'pool-0', uid: 'e1' } } as Exporter;
const pod = (phase: string) => ({ metadata: { name: 'pool-0', uid: 'p1' }, status: { phase } });

describe('first observed', () => {
  it('keeps the first sighting of each fact, and the first look at the set', () => {
    const memory = new FirstObserved();
    const first = memory.pass('lab/pool', 1_000);
    expect(observeInstance(first, { exporter })).toEqual({ exporter: 1_000 });
    first.done();
    const second = memory.pass('lab/pool', 5_000);
    expect(second.since).toBe(1_000);
    expect(observeInstance(second, { exporter, pod: pod('Running') })).toEqual({
      exporter: 1_000,
      pod: 5_000,
    });
    second.done();
    const third = memory.pass('lab/pool', 9_000);
    expect(observeInstance(third, { exporter, pod: pod('Failed') })).toEqual({
      exporter: 1_000,
      pod: 5_000,
      podEnded: 9_000,
    });
  });

  it('forgets a fact the pass no longer sees, and a set forgotten', () => {
    const memory = new FirstObserved();
    const first = memory.pass('lab/pool', 1_000);
    observeInstance(first, { exporter, pod: pod('Running') });
    first.done();
    const without = memory.pass('lab/pool', 2_000);
    observeInstance(without, { exporter });
    without.done();
    const back = memory.pass('lab/pool', 3_000);
    expect(observeInstance(back, { exporter, pod: pod('Running') }).pod).toBe(3_000);
    memory.forget('lab/pool');
    expect(memory.pass('lab/pool', 4_000).since).toBe(4_000);
  });
});

describe('first observed: ready', () => {
  const online = {
    ...exporter,
    status: {
      conditions: [
        { type: 'Online', status: 'True' },
        { type: 'Registered', status: 'True' },
      ],
    },
  } as unknown as Exporter;

  it('keeps the first time the exporter was ready with its Pod while the Pod lasts', () => {
    const memory = new FirstObserved();
    const first = memory.pass('lab/pool', 1_000);
    expect(observeInstance(first, { exporter, pod: pod('Running') }).podReady).toBeUndefined();
    first.done();
    const second = memory.pass('lab/pool', 2_000);
    expect(observeInstance(second, { exporter: online, pod: pod('Running') }).podReady).toBe(2_000);
    second.done();
    const third = memory.pass('lab/pool', 3_000);
    expect(observeInstance(third, { exporter, pod: pod('Failed') }).podReady).toBe(2_000);
  });
});

describe('first observed: a clock set back', () => {
  it('takes facts now in the future as now, once, so timers still run out', () => {
    const memory = new FirstObserved();
    const first = memory.pass('lab/pool', 100_000);
    observeInstance(first, { exporter, pod: pod('Running') });
    first.done();
    // The controller's clock jumps back 26 minutes.
    const back = memory.pass('lab/pool', 100_000 - 1_560_000);
    expect(back.since).toBe(100_000 - 1_560_000);
    expect(observeInstance(back, { exporter, pod: pod('Running') })).toEqual({
      exporter: 100_000 - 1_560_000,
      pod: 100_000 - 1_560_000,
    });
    back.done();
    const later = memory.pass('lab/pool', 200_000 - 1_560_000);
    expect(observeInstance(later, { exporter, pod: pod('Running') }).pod).toBe(100_000 - 1_560_000);
  });
});

describe('first observed: a wall clock stepped, with a monotonic reading', () => {
  it('does not age what was seen when the wall clock steps forward 31 minutes', () => {
    const memory = new FirstObserved();
    const first = memory.pass('lab/pool', 100_000, 5_000);
    observeInstance(first, { exporter, pod: pod('Running') });
    first.done();
    // 2 s later the wall clock steps 31 minutes ahead; the monotonic reading moved 2 s.
    const ahead = memory.pass('lab/pool', 102_000 + 1_860_000, 7_000);
    expect(ahead.since).toBe(100_000 + 1_860_000);
    expect(observeInstance(ahead, { exporter, pod: pod('Running') })).toEqual({
      exporter: 100_000 + 1_860_000,
      pod: 100_000 + 1_860_000,
    });
  });

  it('does not push out what was seen when the wall clock steps back 55 minutes', () => {
    const memory = new FirstObserved();
    const first = memory.pass('lab/pool', 4_000_000, 5_000);
    observeInstance(first, { exporter });
    first.done();
    const back = memory.pass('lab/pool', 4_010_000 - 3_300_000, 15_000);
    // Seen 10 s ago on the wall clock of now: waits measured from it run out on time.
    expect(observeInstance(back, { exporter }).exporter).toBe(4_000_000 - 3_300_000);
  });
});
