/**
 * §3.14 template changes: outdated idle instances are replaced gradually without breaking the warm
 * buffer; leased ones after their lease.
 */
import { describe, expect, it } from '@jest/globals';
import { ConditionTypes, Labels } from 'virtual-exporters/internal';
import { plan, type PlannerSnapshot } from '../../src/planner';
import { applyPlan, bootAll } from './applier';
import { conditionOf, instance, lease, makeSet, namesOf, ofType, revisionOf, snapshot, T0 } from './builders';

const OLD = 'old-rev';
const outdatedPool = (n: number) =>
  Array.from({ length: n }, (_, i) => instance(i, 'available', { revision: OLD }));

describe('§3.14 rollout', () => {
  it('surges a current replacement first and retires nothing while it boots', () => {
    const result = plan(snapshot({ set: makeSet({ minAvailableReplicas: 2 }), instances: outdatedPool(2) }));
    expect(ofType(result, 'CreateExporter').map((c) => [c.reason, c.revision])).toEqual([
      ['rollout', revisionOf()],
    ]);
    expect(ofType(result, 'DisableExporter')).toEqual([]);
    expect(conditionOf(result, ConditionTypes.Scaling)).toMatchObject({
      status: 'True',
      reason: 'RollingOut',
    });
    expect(result.status?.updatedReplicas).toBe(0);
  });

  it('does not surge again while a replacement is starting', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 2 }),
        instances: [...outdatedPool(2), instance(2, 'starting')],
      }),
    );
    expect(ofType(result, 'CreateExporter')).toEqual([]);
    expect(ofType(result, 'DisableExporter')).toEqual([]);
  });

  it('retires an outdated instance as soon as its replacement is ready, without waiting for the cooldown', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 2 }),
        instances: [...outdatedPool(2), instance(2, 'available')],
      }),
    );
    expect(ofType(result, 'DisableExporter').map((a) => [a.name, a.reason])).toEqual([['pool-1', 'rollout']]);
  });

  it('replaces leased outdated instances only after their lease', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 1, recycleStrategy: 'InPlaceReuse' }),
        instances: [instance(0, 'available', { revision: OLD }), instance(1, 'available')],
        leases: [lease('l', { exporter: 'pool-0' })],
      }),
    );
    expect(result.actions).toEqual([]);
  });

  it('keeps the ready buffer through a whole rollout and ends with only current instances', () => {
    let current: PlannerSnapshot = snapshot({
      set: makeSet({ minAvailableReplicas: 4 }),
      instances: outdatedPool(4),
    });
    let minReady = Number.POSITIVE_INFINITY;
    for (let step = 0; step < 40; step++) {
      current = { ...current, now: T0 + step * 1_000 };
      const result = plan(current);
      current = bootAll(applyPlan(current, result));
      const ready = plan(current).status?.availableReplicas ?? 0;
      minReady = Math.min(minReady, ready);
    }
    const revisions = current.instances.map((i) => i.exporter.metadata?.labels?.[Labels.templateRevision]);
    expect(revisions).toEqual(Array(4).fill(revisionOf()));
    expect(minReady).toBeGreaterThanOrEqual(4);
  });

  it('retires one outdated instance first when the ceiling leaves no room to surge', () => {
    const result = plan(
      snapshot({ set: makeSet({ maxReplicas: 2, minAvailableReplicas: 2 }), instances: outdatedPool(2) }),
    );
    expect(ofType(result, 'CreateExporter')).toEqual([]);
    expect(namesOf(result, 'DisableExporter')).toEqual(['pool-1']);
  });

  it('swaps an outdated standby for a current one in one pass, creating before deleting', () => {
    const result = plan(snapshot({ instances: [instance(0, 'standby', { revision: OLD })] }));
    expect(ofType(result, 'CreateExporter').map((c) => [c.name, c.standby, c.reason])).toEqual([
      ['pool-1', true, 'rollout'],
    ]);
    expect(namesOf(result, 'DeleteExporter')).toEqual(['pool-0']);
    expect(result.actions.map((a) => a.type)).toEqual(['CreateExporter', 'DeleteExporter']);
  });
});

/**
 * When the ready supply lets one outdated instance go as surplus, that removal already frees the place
 * its replacement needs; a second outdated instance leaving "to make room" in the same pass would drop
 * the available instances below minAvailableReplicas.
 */
describe('§3.14 rollout at the ceiling keeps the warm buffer', () => {
  const pool = (cooldown: string) =>
    snapshot({
      set: makeSet(
        { minAvailableReplicas: 5, maxReplicas: 7, scaleDownCooldown: cooldown },
        { status: { startupFailures: 0 } },
      ),
      instances: [
        instance(1, 'available'),
        instance(2, 'available', { revision: 'old' }),
        instance(3, 'available', { revision: 'old' }),
        instance(4, 'available'),
        instance(5, 'available'),
        instance(6, 'available'),
        instance(7, 'available'),
      ],
      leases: [lease('held', { exporter: 'pool-1' })],
    });

  it.each(['20s', '0s'])(
    'retires one outdated instance when the buffer allows one, not two (cooldown %s)',
    (cooldown) => {
      const result = plan(pool(cooldown));
      // 6 available, 5 wanted: one outdated instance may go; its place takes the replacement.
      expect(namesOf(result, 'DisableExporter')).toHaveLength(1);
    },
  );

  it('still retires one outdated instance first when nothing else frees a place', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 2, maxReplicas: 2 }, { status: { startupFailures: 0 } }),
        instances: [instance(0, 'available', { revision: 'old' }), instance(1, 'available')],
      }),
    );
    expect(namesOf(result, 'DisableExporter')).toEqual(['pool-0']);
  });
});
