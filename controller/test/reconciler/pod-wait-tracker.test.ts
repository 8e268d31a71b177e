/**
 * The Pod waits the reconciler keeps (§3.18): from the first failed try of an instance's Pod start on
 * the controller's clock, through retries that fail again, until a render lands or the instance has a
 * Pod or is gone; failures of other writes start no wait.
 */
import { describe, expect, it } from '@jest/globals';
import { manualClock, skewedClock } from 'virtual-exporters-test-cluster';
import { PodWaits } from '../../src/reconciler/pod-wait-tracker';

const KEY = 'lab/pool';
const refused = (name: string, reason = 'FailedCreateSecret') => ({
  applied: [],
  instanceFailures: [{ name, reason, message: `secrets is forbidden (${name})` }] as never,
});

describe('Pod waits', () => {
  it('keeps the first failed try through later failures, with the last message', () => {
    const clock = manualClock(1_000);
    const waits = new PodWaits(clock);
    waits.record(KEY, refused('pool-0'));
    clock.advance(30_000);
    waits.record(KEY, refused('pool-0', 'FailedCreatePod'));
    expect(waits.of(KEY, 'pool-0')).toEqual({
      since: 1_000,
      reason: 'FailedCreatePod',
      message: 'secrets is forbidden (pool-0)',
    });
  });

  it('ends when a render lands, when the instance has a Pod or is gone, and when the set is forgotten', () => {
    const waits = new PodWaits(manualClock(0));
    waits.record(KEY, refused('pool-0'));
    waits.record(KEY, { applied: [{ type: 'RenderInstance', name: 'pool-0' }], instanceFailures: [] });
    expect(waits.of(KEY, 'pool-0')).toBeUndefined();

    waits.record(KEY, refused('pool-1'));
    waits.record(KEY, refused('pool-2'));
    waits.keepOnly(KEY, new Set(['pool-2']));
    expect(waits.of(KEY, 'pool-1')).toBeUndefined();
    expect(waits.of(KEY, 'pool-2')).toBeDefined();
    waits.forget(KEY);
    expect(waits.of(KEY, 'pool-2')).toBeUndefined();
  });

  it('starts no wait for a failed write that is not part of a Pod start', () => {
    const waits = new PodWaits(manualClock(0));
    waits.record(KEY, refused('pool-0', 'FailedPatch'));
    waits.record(KEY, refused('pool-0', 'FailedDeletePod'));
    expect(waits.of(KEY, 'pool-0')).toBeUndefined();
  });

  it('measures the wait on the monotonic reading: a wall clock stepped forward does not end it early', () => {
    const base = manualClock(1_000_000);
    const clock = skewedClock(base);
    const waits = new PodWaits(clock);
    waits.record(KEY, refused('pool-0'));
    base.advance(5_000);
    clock.setOffsetMs(1_860_000);
    // 5 s of waiting, dated on the wall clock of now (31 minutes ahead).
    expect(waits.of(KEY, 'pool-0')?.since).toBe(1_000_000 + 1_860_000);
    clock.setOffsetMs(-3_300_000);
    expect(waits.of(KEY, 'pool-0')?.since).toBe(1_000_000 - 3_300_000);
  });
});
