import { describe, expect, it } from '@jest/globals';
import { ConditionTypes, Labels } from 'virtual-exporters/internal';
import { plan, type PlannerSnapshot } from '../../src/planner';
import { applyPlan, bootAll } from './applier';
import { conditionOf, instance, lease, makeSet, namesOf, ofType, revisionOf, snapshot, T0 } from './builders';

const OLD = 'old-rev';
const outdatedPool = (n: number) =>
  Array.from({ length: n }, (_, i) => instance(i, 'available', { revision: OLD }));

describe('rollout', () => {
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
