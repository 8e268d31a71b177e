/**
 * §3.9 failures: a Pod that fails before its exporter ever became ready counts as a startup failure;
 * replacements back off exponentially; a Pod that never becomes ready times out; the failures are
 * forgotten once they no longer matter.
 */
import { describe, expect, it } from '@jest/globals';
import { ConditionReasons, ConditionTypes } from 'virtual-exporters/internal';
import {
  backoffDelay,
  classifyInstance,
  inFlightNames,
  type InstanceSnapshot,
  plan,
  type PlannerSnapshot,
  resolveOptions,
} from '../../src/planner';
import { applyPlan } from './applier';
import {
  at,
  conditionOf,
  instance,
  lease,
  makeSet,
  namesOf,
  ofType,
  revisionOf,
  snapshot,
  T0,
} from './builders';

const SECOND = 1_000;

describe('§3.9 startup backoff', () => {
  it('counts a Pod that failed before its exporter was ready and backs off new instances', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 1 }),
        instances: [instance(0, 'failed', { endedAt: -SECOND })],
      }),
    );
    expect(result.status).toMatchObject({ startupFailures: 1, lastStartupFailureTime: at(-SECOND) });
    expect(namesOf(result, 'DeleteExporter')).toEqual(['pool-0']);
    // No replacement yet; only a standby, so leases keep waiting instead of ending.
    expect(ofType(result, 'CreateExporter').map((c) => c.standby)).toEqual([true]);
    expect(result.requeueAfterMs).toBe(9 * SECOND);
    expect(conditionOf(result, ConditionTypes.InstancesHealthy)).toMatchObject({
      status: 'False',
      reason: ConditionReasons.StartupFailureBackoff,
    });
    expect(result.events).toContainEqual(
      expect.objectContaining({
        type: 'Warning',
        reason: 'StartupFailure',
        message: expect.stringContaining(
          'pool-0 failed before becoming ready: container exporter exited with code 1: boom',
        ),
      }),
    );
  });

  it('does not count a Pod that failed after its exporter had been ready', () => {
    const result = plan(
      snapshot({ set: makeSet({ minAvailableReplicas: 1 }), instances: [instance(0, 'crashed')] }),
    );
    expect(result.status?.startupFailures).toBe(0);
    expect(namesOf(result, 'CreateExporter')).toEqual(['pool-1']);
  });

  it('counts the same failed Pod once, however many passes see it', () => {
    const set = makeSet(
      { minAvailableReplicas: 1 },
      { status: { startupFailures: 1, lastStartupFailureTime: at(-SECOND) } },
    );
    const result = plan(snapshot({ set, instances: [instance(0, 'failed', { endedAt: -SECOND })] }));
    expect(result.status?.startupFailures).toBe(1);
  });

  it('starts no Pod and promotes no standby during the backoff, but keeps a standby', () => {
    const set = makeSet(
      { minAvailableReplicas: 1 },
      { status: { startupFailures: 2, lastStartupFailureTime: at(-5 * SECOND) } },
    );
    const result = plan(
      snapshot({ set, instances: [instance(0, 'unrendered'), instance(1, 'standby')], leases: [lease('l')] }),
    );
    expect(ofType(result, 'RenderInstance')).toEqual([]);
    expect(ofType(result, 'PromoteStandby')).toEqual([]);
    expect(ofType(result, 'CreateExporter')).toEqual([]);
    expect(result.requeueAfterMs).toBe(15 * SECOND);
  });

  it('resumes once the backoff has passed', () => {
    const set = makeSet(
      { minAvailableReplicas: 1 },
      { status: { startupFailures: 2, lastStartupFailureTime: at(-25 * SECOND) } },
    );
    const result = plan(snapshot({ set, instances: [instance(0, 'unrendered')] }));
    expect(namesOf(result, 'RenderInstance')).toEqual(['pool-0']);
    expect(result.requeueAfterMs).toBeUndefined();
  });

  it('doubles the backoff from 10 s up to 5 min', () => {
    const options = resolveOptions(undefined);
    expect([1, 2, 3, 4, 5, 6, 7, 40].map((n) => backoffDelay(n, options) / SECOND)).toEqual([
      10, 20, 40, 80, 160, 300, 300, 300,
    ]);
  });

  it('resets when an instance created after the last failure becomes ready', () => {
    const set = makeSet(
      { minAvailableReplicas: 1 },
      { status: { startupFailures: 4, lastStartupFailureTime: at(-60 * SECOND) } },
    );
    const result = plan(
      snapshot({ set, instances: [instance(0, 'available', { createdAt: -30 * SECOND })] }),
    );
    expect(result.status?.startupFailures).toBe(0);
    expect(conditionOf(result, ConditionTypes.InstancesHealthy)?.status).toBe('True');
  });

  it('keeps a crash loop bounded: few Pods in 5 minutes', () => {
    // Every Pod fails 2 s after it is rendered; one instance wanted; no other actor.
    let current: PlannerSnapshot = snapshot({ set: makeSet({ minAvailableReplicas: 1 }) });
    const renderedAt = new Map<string, number>();
    let pods = 0;
    for (let t = 0; t <= 300 * SECOND; t += SECOND) {
      current = {
        ...current,
        now: T0 + t,
        instances: current.instances.map((i) => crashIfDue(i, renderedAt, T0 + t)),
      };
      const result = plan(current);
      for (const render of ofType(result, 'RenderInstance')) renderedAt.set(render.name, T0 + t);
      pods += ofType(result, 'RenderInstance').length;
      current = applyPlan(current, result);
      current = { ...current, instances: current.instances.map(withCredential) };
    }
    // 10 + 20 + 40 + 80 + 160 s of backoff (plus boot time) fit about 6 attempts into 5 minutes.
    expect(pods).toBeGreaterThanOrEqual(4);
    expect(pods).toBeLessThanOrEqual(7);
    expect(current.set.status?.startupFailures).toBeGreaterThanOrEqual(4);
  });
});

function withCredential(i: InstanceSnapshot): InstanceSnapshot {
  if (i.exporter.status?.credential) return i;
  return { ...i, exporter: { ...i.exporter, status: { credential: { name: 'c' }, endpoint: 'e' } } };
}

function crashIfDue(i: InstanceSnapshot, renderedAt: Map<string, number>, now: number): InstanceSnapshot {
  const name = i.exporter.metadata?.name ?? '';
  const since = renderedAt.get(name);
  if (!i.pod || since === undefined || now - since < 2 * SECOND || i.pod.status?.phase === 'Failed') return i;
  return {
    ...i,
    pod: {
      ...i.pod,
      status: {
        phase: 'Failed',
        containerStatuses: [
          {
            name: 'exporter',
            state: { terminated: { exitCode: 1, finishedAt: new Date(now).toISOString() } },
          },
        ],
      },
    },
  };
}

/**
 * An instance whose Pod exists longer than the startup timeout without its exporter ever becoming
 * ready is stuck — a VM that never boots, a Pod that never schedules. It stops counting as future
 * supply, is replaced like a failed one and counts as a startup failure; until then the plan keeps a
 * timer for the deadline instead of waiting for an event.
 */
const TIMEOUT = 600_000;
const podCreatedAt = (createdAt: number) => createdAt + 1_000; // the builders' Pod follows its Exporter by 1 s

describe('§3.9 startup timeout', () => {
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
    // A Pod already there at the controller's first look is dated by the API server's clock clamped
    // into the timeout (§3.17), so its deadline is now at the earliest.
    expect(result.status?.lastStartupFailureTime).toBe(new Date(T0).toISOString());
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

/**
 * Startup failures are forgotten once they no longer matter (else `InstancesHealthy=False` would stay
 * for good after a failed instance whose place was not taken by a new Pod); they are kept while the
 * pool still wants Pods, so a crash loop keeps backing off exponentially.
 */
const failedBefore = (ms: number, failures = 1) =>
  ({ startupFailures: failures, lastStartupFailureTime: at(-ms) }) as const;

describe('§3.9 startup failures settle', () => {
  it('forgets them when the backoff is over and the pool is whole without a new Pod', () => {
    const set = makeSet({ minAvailableReplicas: 1 }, { status: failedBefore(60_000) });
    const result = plan(snapshot({ set, instances: [instance(0, 'available')] }));
    expect(result.status?.startupFailures).toBe(0);
    expect(conditionOf(result, 'InstancesHealthy')?.status).toBe('True');
    // The watermark stays: a Pod that ended before it is never counted again.
    expect(result.status?.lastStartupFailureTime).toBe(at(-60_000));
  });

  it('keeps them while the backoff lasts', () => {
    const set = makeSet({ minAvailableReplicas: 1 }, { status: failedBefore(5_000) });
    const result = plan(snapshot({ set, instances: [instance(0, 'available')] }));
    expect(result.status?.startupFailures).toBe(1);
    expect(conditionOf(result, 'InstancesHealthy')?.status).toBe('False');
  });

  it('keeps them while the pool wants a Pod, so a crash loop backs off further', () => {
    const set = makeSet({ minAvailableReplicas: 2 }, { status: failedBefore(60_000, 3) });
    const result = plan(snapshot({ set, instances: [instance(0, 'available')] }));
    expect(result.status?.startupFailures).toBe(3);
    expect(result.actions.some((a) => a.type === 'CreateExporter')).toBe(true);
  });

  it('forgets them when only the ceiling holds a Pod back: no Pod can start, so no crash loop can go on', () => {
    // A pool at maxReplicas whose one instance is leased (its Pod failed after serving): the buffer
    // wants another, the ceiling forbids it, and the backoff is long over.
    const set = makeSet({ minAvailableReplicas: 1, maxReplicas: 1 }, { status: failedBefore(600_000, 5) });
    const result = plan(
      snapshot({
        set,
        instances: [instance(0, 'crashed', { leaseRef: 'l' })],
        leases: [lease('l', { exporter: 'pool-0' })],
      }),
    );
    expect(result.actions.filter((a) => a.type === 'CreateExporter')).toEqual([]);
    expect(result.status?.startupFailures).toBe(0);
    expect(conditionOf(result, 'InstancesHealthy')?.reason).not.toBe(ConditionReasons.StartupFailureBackoff);
  });

  it('keeps them while an instance still boots', () => {
    const set = makeSet({ minAvailableReplicas: 1 }, { status: failedBefore(60_000) });
    const result = plan(snapshot({ set, instances: [instance(0, 'available'), instance(1, 'starting')] }));
    expect(result.status?.startupFailures).toBe(1);
  });
});
