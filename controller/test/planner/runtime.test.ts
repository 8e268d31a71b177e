/**
 * The instance runtime (runtime.ts): one provisioner-neutral state read by the rules, made from the Pod
 * for in-cluster provisioners and from the provisioner's observation for a lifecycle provisioner.
 */
import { describe, expect, it } from '@jest/globals';
import {
  classifyInstance,
  inFlightNames,
  instanceRuntime,
  statusCounters,
  type ClassifyContext,
  type InstanceObservation,
  type InstanceSnapshot,
} from '../../src/planner';
import { recycleStep } from '../../src/planner/decide/recycle';
import { instance, makeSet, revisionOf, T0, type Shape } from './builders';

const CLOCK = { now: T0, timeoutMs: 300_000 };

function context(inFlight = {}): ClassifyContext {
  return {
    set: makeSet(),
    revision: revisionOf(),
    leased: new Set(),
    everLeased: new Set(),
    endedLeases: new Set(),
    inFlight: inFlightNames(inFlight),
    startup: CLOCK,
  };
}

/** The same instance realised off-cluster: no Pod, the provisioner's observation instead. */
function offCluster(shape: Shape, observation: InstanceObservation, ordinal = 1): InstanceSnapshot {
  const { pod: _pod, ...rest } = instance(ordinal, shape);
  return { ...rest, observation };
}

describe('runtime › from the Pod', () => {
  it.each<[Shape, string]>([
    ['starting', 'realising'],
    ['available', 'running'],
    ['exited', 'exited'],
    ['failed', 'failed'],
    ['unrendered', 'none'],
  ])('a %s Pod is %s', (shape, state) => {
    expect(instanceRuntime(instance(1, shape), false, CLOCK).state).toBe(state);
  });

  it('a Pod in an unrecognised phase is unknown, and live', () => {
    const base = instance(1, 'available');
    const odd = { ...base, pod: { ...base.pod, status: { phase: 'Evicted' } } };
    const view = classifyInstance(odd, context());
    expect(view.runtime.state).toBe('unknown');
    expect(view.state).toBe('available');
  });

  it('a Pod being deleted is stopping: an ended one is no longer failed', () => {
    const view = classifyInstance(instance(1, 'failed'), context({ deletingPods: ['pool-1'] }));
    expect(view.runtime).toMatchObject({ state: 'failed', stopping: true });
    expect(view.state).toBe('starting');
  });

  it('carries the kubelet’s words and the end time for an ended Pod', () => {
    const runtime = instanceRuntime(instance(1, 'failed', { endedAt: -5_000 }), false, CLOCK);
    expect(runtime.message).toBe('container exporter exited with code 1: boom');
    expect(runtime.endedAt).toBe(T0 - 5_000);
  });
});

describe('runtime › from a lifecycle observation', () => {
  it.each<[InstanceObservation['state'], string]>([
    ['running', 'running'],
    ['exited', 'exited'],
    ['failed', 'failed'],
    ['unknown', 'unknown'],
    ['absent', 'none'],
  ])('an instance observed %s is %s', (observed, state) => {
    expect(instanceRuntime(offCluster('starting', { state: observed }), false, CLOCK).state).toBe(state);
  });

  it('an instance without a placement has no runtime and nothing present', () => {
    const { pod: _pod, ...bare } = instance(1, 'starting');
    const view = classifyInstance(bare, context());
    expect(view.runtime).toEqual({ state: 'none', stopping: false });
    expect(view.podPresent).toBe(false);
  });

  it('a running instance that was ready is available, with its realisation present', () => {
    const view = classifyInstance(offCluster('available', { state: 'running' }), context());
    expect(view.state).toBe('available');
    expect(view.podPresent).toBe(true);
  });

  it('an exporter that exited after serving is recycled under ExitAndReplace', () => {
    const view = classifyInstance(offCluster('exited', { state: 'exited', reason: 'UnitExited' }), context());
    expect(view.state).toBe('exited');
    expect(recycleStep(view, { inPlaceReuse: false, retain: false })).toBe('recycle');
  });

  it('a unit that failed before it was ever ready is a failed start, with the provisioner’s message', () => {
    const observation = {
      state: 'failed',
      reason: 'UnitFailed',
      message: 'unit pool-1-runtime failed',
    } as const;
    const view = classifyInstance(offCluster('failed', observation), context());
    expect(view.state).toBe('failed');
    expect(view.endMessage).toBe('unit pool-1-runtime failed');
    expect(view.endedAt).toBeDefined();
    expect(recycleStep(view, { inPlaceReuse: false, retain: false })).toBe('failed');
  });

  it('an unreachable host is not an ended instance: one seen ready is offline, not failed', () => {
    const unknown = {
      state: 'unknown',
      reason: 'HostUnreachable',
      message: 'host a: connection refused',
    } as const;
    const view = classifyInstance(offCluster('offline', unknown), context());
    expect(view.runtime.state).toBe('unknown');
    expect(view.state).toBe('offline');
  });

  it('times out an instance realised longer than the startup timeout that never became ready', () => {
    const stuck = offCluster('starting', { state: 'running' });
    const seen = { ...stuck, observed: { exporter: T0 - 400_000, pod: T0 - 400_000 } };
    const view = classifyInstance(seen, {
      ...context(),
      startup: { ...CLOCK, observingSince: T0 - 900_000 },
    });
    expect(view.state).toBe('failed');
    expect(view.endMessage).toMatch(/^not ready 300 s after it was realised/);
  });

  it('a teardown in flight makes an ended instance stopping, not failed again', () => {
    const view = classifyInstance(
      offCluster('failed', { state: 'failed' }),
      context({ deletingPods: ['pool-1'] }),
    );
    expect(view.runtime.stopping).toBe(true);
    expect(view.state).not.toBe('failed');
  });

  it('the status counters count observed instances by their runtime', () => {
    const views = [
      offCluster('available', { state: 'running' }, 1),
      offCluster('failed', { state: 'failed' }, 2),
      offCluster('exited', { state: 'exited' }, 3),
      offCluster('offline', { state: 'unknown' }, 4),
      offCluster('starting', { state: 'absent' }, 5),
    ].map((i) => classifyInstance(i, context()));
    expect(statusCounters(views)).toMatchObject({
      podsRunning: 1,
      podsFailed: 1,
      podsUnknown: 2,
      podsPending: 0,
    });
  });
});
