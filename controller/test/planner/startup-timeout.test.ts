/**
 * Startup timeout (SPEC §3.9): an instance whose Pod exists longer than the startup timeout without
 * its exporter ever becoming ready is stuck — a VM that never boots, a Pod that never schedules. It
 * stops counting as future supply, is replaced like a failed one and counts as a startup failure;
 * until then the plan keeps a timer for the deadline instead of waiting for an event.
 */
import { describe, expect, it } from '@jest/globals';
import { classifyInstance, inFlightNames, plan } from '../../src/planner';
import { instance, makeSet, namesOf, ofType, revisionOf, snapshot, T0 } from './builders';

const TIMEOUT = 600_000;
const podCreatedAt = (createdAt: number) => createdAt + 1_000; // the builders' Pod follows its Exporter by 1 s

describe('startup timeout', () => {
  it('keeps a booting instance as starting before the deadline, with a timer for it', () => {
    const createdAt = -TIMEOUT + 60_000; // its Pod is 59 s short of the deadline
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 1 }),
        instances: [instance(0, 'starting', { createdAt })],
      }),
    );
    expect(result.actions.filter((a) => a.type !== 'AddFinalizer')).toEqual([]);
    expect(result.requeueAfterMs).toBe(podCreatedAt(createdAt) + TIMEOUT);
  });

  it('replaces an instance stuck past the deadline and counts a startup failure', () => {
    const createdAt = -TIMEOUT - 5_000;
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 1 }),
        instances: [instance(0, 'starting', { createdAt })],
      }),
    );
    // Its Pod still runs, so it leaves the graceful way: disabled now, deleted once no lease names it.
    expect(namesOf(result, 'DisableExporter')).toEqual(['pool-0']);
    expect(ofType(result, 'DisableExporter')[0].reason).toBe('failed');
    expect(result.status?.startupFailures).toBe(1);
    expect(result.status?.lastStartupFailureTime).toBe(
      new Date(T0 + podCreatedAt(createdAt) + TIMEOUT).toISOString(),
    );
    expect(
      result.events.some((e) => e.reason === 'StartupFailure' && /not ready 600 s after/.test(e.message)),
    ).toBe(true);
  });

  it('with InPlaceReuse, renders the stuck instance again instead of deleting it', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 1, recycleStrategy: 'InPlaceReuse' }),
        instances: [instance(0, 'starting', { createdAt: -TIMEOUT - 5_000 })],
      }),
    );
    expect(namesOf(result, 'DeletePod')).toEqual(['pool-0']);
    expect(namesOf(result, 'DeleteExporter')).toEqual([]);
  });

  it('uses the configured timeout, and never calls an instance stuck without one', () => {
    const stuck = instance(0, 'starting', { createdAt: -120_000 });
    const context = {
      set: makeSet(),
      revision: revisionOf(),
      leased: new Set<string>(),
      everLeased: new Set<string>(),
      endedLeases: new Set<string>(),
      inFlight: inFlightNames(undefined),
    };
    expect(classifyInstance(stuck, context).state).toBe('starting');
    expect(classifyInstance(stuck, { ...context, startup: { now: T0, timeoutMs: 60_000 } }).state).toBe(
      'failed',
    );
    expect(classifyInstance(stuck, { ...context, startup: { now: T0, timeoutMs: 300_000 } }).state).toBe(
      'starting',
    );
  });
});
