/**
 * §3.17 clocks: durations run on the controller's clock from when it observed a fact; timestamps from
 * the kubelet, the API server or a status someone else wrote are clamped, never trusted to lie in the
 * future; no timer exceeds its cap.
 */
import { describe, expect, it } from '@jest/globals';
import { ConditionTypes, EventReasons } from 'virtual-exporters/internal';
import {
  classifyInstance,
  inFlightNames,
  plan,
  type InstanceSnapshot,
  type ObservedTimes,
  type PodView,
} from '../../src/planner';
import { at, conditionOf, instance, makeSet, namesOf, ofType, revisionOf, snapshot, T0 } from './builders';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** The controller has watched the set for an hour: facts observed since then are dated by it. */
const WATCHING = { observingSince: T0 - HOUR };

const observedAt = (i: InstanceSnapshot, observed: ObservedTimes): InstanceSnapshot => ({ ...i, observed });

/** A failed instance whose kubelet wrote `finishedAt` `skew` ms off, seen failing by the controller now. */
function failedWithKubeletSkew(skew: number): InstanceSnapshot {
  const failed = instance(0, 'failed', { endedAt: skew });
  return observedAt(failed, { exporter: T0 - MINUTE, pod: T0 - 30 * SECOND, podEnded: T0 });
}

describe('§3.17 clocks: startup backoff', () => {
  it('a kubelet an hour behind does not switch off the startup backoff', () => {
    const result = plan({
      ...snapshot({ set: makeSet({ minAvailableReplicas: 1 }), instances: [failedWithKubeletSkew(-HOUR)] }),
      ...WATCHING,
    });
    expect(result.status).toMatchObject({ startupFailures: 1, lastStartupFailureTime: at(0) });
    // Only a standby: no new Pod until the backoff has passed on the controller's clock.
    expect(ofType(result, 'CreateExporter').map((c) => c.standby)).toEqual([true]);
    expect(result.requeueAfterMs).toBe(10 * SECOND);
  });

  it('a kubelet an hour ahead: one crash does not block the pool for an hour', () => {
    const result = plan({
      ...snapshot({ set: makeSet({ minAvailableReplicas: 1 }), instances: [failedWithKubeletSkew(HOUR)] }),
      ...WATCHING,
    });
    expect(result.status).toMatchObject({ startupFailures: 1, lastStartupFailureTime: at(0) });
    expect(result.requeueAfterMs).toBe(10 * SECOND);
  });

  it('a failure already there at the first look is dated by the kubelet, clamped to now', () => {
    // No observations (a restarted controller): the kubelet's future finishedAt is clamped to now.
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 1 }),
        instances: [instance(0, 'failed', { endedAt: HOUR })],
      }),
    );
    expect(result.status?.lastStartupFailureTime).toBe(at(0));
    expect(result.requeueAfterMs).toBe(10 * SECOND);
  });

  it('status.lastStartupFailureTime in the future blocks the pool no longer than the backoff cap', () => {
    const set = makeSet(
      { minAvailableReplicas: 1 },
      { status: { startupFailures: 30, lastStartupFailureTime: at(HOUR) } },
    );
    const result = plan(snapshot({ set, instances: [instance(0, 'standby')] }));
    expect(result.status?.lastStartupFailureTime).toBe(at(0));
    expect(result.requeueAfterMs).toBe(5 * MINUTE);
    expect(result.events).toContainEqual(
      expect.objectContaining({
        type: 'Warning',
        reason: EventReasons.StatusCorrected,
        message: expect.stringContaining(`status.lastStartupFailureTime was "${at(HOUR)}": in the future`),
      }),
    );
    // Five minutes later the standby gets its Pod.
    const later = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 1 }, { status: result.status! }),
        instances: [instance(0, 'standby')],
        now: 5 * MINUTE,
      }),
    );
    expect(namesOf(later, 'PromoteStandby')).toEqual(['pool-0']);
  });
});

describe('§3.17 clocks: startup timeout and credential wait', () => {
  it('controller 15 min ahead of the API server: a new Exporter waiting for its credential is not failed at once', () => {
    const waiting = observedAt(instance(0, 'new', { createdAt: -15 * MINUTE }), { exporter: T0 - SECOND });
    const result = plan({
      ...snapshot({ set: makeSet({ minAvailableReplicas: 1 }), instances: [waiting] }),
      ...WATCHING,
    });
    expect(result.status?.startupFailures).toBe(0);
    expect(ofType(result, 'CreateExporter')).toEqual([]);
    expect(ofType(result, 'DeleteExporter')).toEqual([]);
    // The grace runs from when the controller saw it: 30 s less the second already waited.
    expect(result.requeueAfterMs).toBe(29 * SECOND);
    // The startup timeout still ends the wait, ten minutes after the controller saw it.
    const timedOut = plan({
      ...snapshot({
        set: makeSet({ minAvailableReplicas: 1 }),
        instances: [waiting],
        now: 10 * MINUTE - SECOND,
      }),
      ...WATCHING,
    });
    expect(timedOut.status?.startupFailures).toBe(1);
  });

  it('a Pod the API server dates in the future still times out within the startup timeout', () => {
    const booting = instance(0, 'starting');
    const future: InstanceSnapshot = {
      ...booting,
      pod: { ...booting.pod, metadata: { ...booting.pod?.metadata, creationTimestamp: at(HOUR) } } as PodView,
    };
    const result = plan(snapshot({ set: makeSet({ minAvailableReplicas: 1 }), instances: [future] }));
    expect(result.requeueAfterMs).toBe(10 * MINUTE);
    // The controller saw the Pod at T0: ten minutes later it has timed out.
    const observed = observedAt(future, { exporter: T0, pod: T0 });
    const withObservation = plan({
      ...snapshot({ set: makeSet({ minAvailableReplicas: 1 }), instances: [observed], now: 10 * MINUTE }),
      observingSince: T0,
    });
    expect(withObservation.status?.startupFailures).toBe(1);
  });
});

describe('§3.17 clocks: scale-down window', () => {
  const idle = (n: number) => Array.from({ length: n }, (_, i) => instance(i, 'available'));

  it('status.scaleDownWindowStart in the future: surplus still goes after the cooldown', () => {
    const set = makeSet(
      { minAvailableReplicas: 1 },
      { status: { scaleDownWindowStart: at(24 * HOUR), scaleDownTarget: 1 } },
    );
    const first = plan(snapshot({ set, instances: idle(3) }));
    expect(first.status?.scaleDownWindowStart).toBe(at(0));
    expect(first.requeueAfterMs).toBe(5 * MINUTE);
    expect(first.events.map((e) => e.reason)).toContain(EventReasons.StatusCorrected);
    const due = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 1 }, { status: first.status! }),
        instances: idle(3),
        now: 5 * MINUTE,
      }),
    );
    expect(ofType(due, 'DisableExporter')).toHaveLength(2);
    expect(conditionOf(due, ConditionTypes.Scaling)?.reason).not.toBe('ScaleDownPending');
  });
});

describe('§3.17 clocks: ever ready', () => {
  const context = (observingSince?: number) => ({
    set: makeSet(),
    revision: revisionOf(),
    leased: new Set<string>(),
    everLeased: new Set<string>(),
    endedLeases: new Set<string>(),
    inFlight: inFlightNames(undefined),
    startup: { now: T0, timeoutMs: 10 * MINUTE, ...(observingSince !== undefined ? { observingSince } : {}) },
  });

  it('an API server clock behind does not make a watched Pod look ready before it was', () => {
    // Jumpstarter saw the exporter after the Pod's creationTimestamp, but that stamp is 10 min behind:
    // the controller watched this Pod from its start and never saw it ready.
    const reused = observedAt(instance(0, 'offline'), { exporter: T0 - HOUR / 2, pod: T0 - 5 * SECOND });
    expect(classifyInstance(reused, context(T0 - HOUR)).state).toBe('starting');
    const seenReady = observedAt(reused, { ...reused.observed, podReady: T0 - 2 * SECOND });
    expect(classifyInstance(seenReady, context(T0 - HOUR)).state).toBe('offline');
    // A Pod already there at the first look is judged by the other clocks, as before.
    expect(classifyInstance(reused, context(T0 - SECOND)).state).toBe('offline');
  });
});
