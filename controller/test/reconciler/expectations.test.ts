import { describe, expect, it } from '@jest/globals';
import { Expectations } from '../../src/reconciler/expectations';
import { manualClock, skewedClock } from 'virtual-exporters-test-cluster';

describe('Expectations', () => {
  it('lists applied writes as in flight until the cache shows them', () => {
    const clock = manualClock();
    const expectations = new Expectations(clock, 1000);
    expectations.expect('lab/pool', { kind: 'creating', name: 'pool-0', standby: true });
    expectations.expect('lab/pool', { kind: 'deleting', name: 'pool-1' });
    expect(expectations.inFlight('lab/pool')).toEqual({
      creating: [{ name: 'pool-0', standby: true }],
      deleting: ['pool-1'],
    });
    expect(expectations.inFlight('lab/other')).toEqual({});

    expectations.settle('lab/pool', (e) => e.name === 'pool-0');
    expect(expectations.inFlight('lab/pool')).toEqual({ deleting: ['pool-1'] });
    expect(expectations.pending('lab/pool')).toBe(1);
  });

  it('drops an entry the cache never shows after the timeout', () => {
    const clock = manualClock();
    const expectations = new Expectations(clock, 1000);
    expectations.expect('lab/pool', { kind: 'rendering', name: 'pool-2' });
    clock.advance(999);
    expectations.settle('lab/pool', () => false);
    expect(expectations.inFlight('lab/pool')).toEqual({ rendering: ['pool-2'] });
    clock.advance(1);
    expectations.settle('lab/pool', () => false);
    expect(expectations.pending('lab/pool')).toBe(0);
  });

  it('keeps a create in flight when the wall clock steps forward past the timeout, and not longer when it steps back', () => {
    const base = manualClock();
    const clock = skewedClock(base);
    const expectations = new Expectations(clock, 120_000);
    expectations.expect('lab/pool', { kind: 'creating', name: 'pool-4', standby: false });
    clock.setOffsetMs(1_860_000);
    expectations.settle('lab/pool', () => false);
    // The cache has not shown it: a pass now must not create its twin.
    expect(expectations.inFlight('lab/pool')).toEqual({ creating: [{ name: 'pool-4', standby: false }] });
    clock.setOffsetMs(-3_300_000);
    base.advance(120_000);
    expectations.settle('lab/pool', () => false);
    expect(expectations.pending('lab/pool')).toBe(0);
  });

  it('forgets a deleted set', () => {
    const expectations = new Expectations(manualClock());
    expectations.expect('lab/pool', { kind: 'disabling', name: 'pool-3' });
    expectations.forget('lab/pool');
    expect(expectations.inFlight('lab/pool')).toEqual({});
  });
});
