/**
 * Startup failures are forgotten once they no longer matter (found by the randomized simulation:
 * the startup-failure report — then on `Degraded`, now `InstancesHealthy=False` — stayed for good after
 * a failed instance whose place was not taken by a new Pod).
 * They are kept while the pool still wants Pods, so a crash loop keeps backing off exponentially.
 */
import { describe, expect, it } from '@jest/globals';
import { plan } from '../../src/planner';
import { at, conditionOf, instance, makeSet, snapshot } from './builders';

const failedBefore = (ms: number, failures = 1) =>
  ({ startupFailures: failures, lastStartupFailureTime: at(-ms) }) as const;

describe('startup failures settle', () => {
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

  it('keeps them while an instance still boots', () => {
    const set = makeSet({ minAvailableReplicas: 1 }, { status: failedBefore(60_000) });
    const result = plan(snapshot({ set, instances: [instance(0, 'available'), instance(1, 'starting')] }));
    expect(result.status?.startupFailures).toBe(1);
  });
});
