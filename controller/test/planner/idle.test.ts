import { describe, expect, it } from '@jest/globals';
import { plan, statusEquals, type PlannerSnapshot } from '../../src/planner';
import { applyPlan, bootAll, settle } from './applier';
import { instance, lease, makeClass, makeSet, snapshot, T0 } from './builders';

/** Plans, applies and boots until a pass changes nothing; returns the settled snapshot. */
function converge(start: PlannerSnapshot): PlannerSnapshot {
  let current = start;
  for (let pass = 0; pass < 30; pass++) {
    const result = plan(current);
    const next = bootAll(applyPlan(current, result));
    if (result.actions.length === 0 && statusEquals(result.status, current.set.status)) return next;
    current = next;
  }
  throw new Error('did not converge');
}

describe('§3.15 idle is quiet', () => {
  it('a settled warm pool plans no action, the same status and no timer', () => {
    const settled = converge(
      snapshot({ set: makeSet({ minReplicas: 1, minAvailableReplicas: 2, maxReplicas: 5 }) }),
    );
    for (const later of [1_000, 3_600_000]) {
      const result = plan({ ...settled, now: T0 + later });
      expect(result.actions).toEqual([]);
      expect(statusEquals(result.status, settled.set.status)).toBe(true);
      expect(result.requeueAfterMs).toBeUndefined();
      expect(result.events).toEqual([]);
    }
  });

  it('a settled scale-from-zero pool (one standby) is quiet', () => {
    const settled = converge(snapshot());
    expect(settled.instances).toHaveLength(1);
    const result = plan({ ...settled, now: T0 + 60_000 });
    expect(result.actions).toEqual([]);
    expect(statusEquals(result.status, settled.set.status)).toBe(true);
  });

  it('a pool with leased instances and a waiting window only asks to look again at the cooldown end', () => {
    const set = makeSet({ minAvailableReplicas: 1, recycleStrategy: 'InPlaceReuse' });
    const first = plan(
      snapshot({
        set,
        instances: [instance(0, 'available'), instance(1, 'available'), instance(2, 'available')],
        leases: [lease('l', { exporter: 'pool-0' })],
      }),
    );
    const again = plan(
      snapshot({
        set: { ...set, status: first.status },
        now: 10_000,
        instances: [instance(0, 'available'), instance(1, 'available'), instance(2, 'available')],
        leases: [lease('l', { exporter: 'pool-0' })],
      }),
    );
    expect(again.actions).toEqual([]);
    expect(statusEquals(again.status, first.status)).toBe(true);
    expect(again.requeueAfterMs).toBe(300_000 - 10_000);
  });

  it('a WaitForFirstConsumer pool settles without Pods', () => {
    const { plans } = settle(
      snapshot({
        cls: makeClass({ bindingMode: 'WaitForFirstConsumer' }),
        set: makeSet({ minAvailableReplicas: 3 }),
      }),
    );
    expect(plans[plans.length - 1].actions).toEqual([]);
  });
});
