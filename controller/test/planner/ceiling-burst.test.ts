import { describe, expect, it } from '@jest/globals';
import { ConditionReasons, ConditionTypes } from 'virtual-exporters/internal';
import { plan } from '../../src/planner';
import { settle } from './applier';
import { conditionOf, instance, lease, makeSet, namesOf, ofType, snapshot } from './builders';

describe('ceiling', () => {
  it('never creates beyond maxReplicas, counting creates in flight', () => {
    const result = plan(
      snapshot({
        set: makeSet({ maxReplicas: 4, minAvailableReplicas: 4 }),
        instances: [instance(0, 'available'), instance(1, 'available')],
        inFlight: { creating: [{ name: 'pool-2', standby: false }] },
        leases: [lease('a'), lease('b')],
      }),
    );
    expect(namesOf(result, 'CreateExporter')).toEqual(['pool-3']);
  });

  it('reports Scaling=False/MaxReplicasReached when the buffer and demand need more than maxReplicas', () => {
    const result = plan(
      snapshot({
        set: makeSet({ maxReplicas: 2, minAvailableReplicas: 2 }),
        instances: [instance(0, 'available'), instance(1, 'available')],
        leases: [lease('a')],
      }),
    );
    expect(ofType(result, 'CreateExporter')).toEqual([]);
    expect(conditionOf(result, ConditionTypes.Scaling)).toMatchObject({
      status: 'False',
      reason: ConditionReasons.MaxReplicasReached,
      message: 'the floor, the warm buffer and pending leases need 3 instances but maxReplicas is 2',
    });
    // Upstream's rule counts no pending lease: the warm buffer (2 available) is met.
    expect(conditionOf(result, ConditionTypes.ScalingLimited)).toMatchObject({
      status: 'False',
      reason: ConditionReasons.WithinLimits,
    });
  });

  it('reports ScalingLimited=True/AtMaxReplicas when the warm buffer is short at maxReplicas', () => {
    const result = plan(
      snapshot({
        set: makeSet({ maxReplicas: 2, minAvailableReplicas: 2 }),
        instances: [instance(0, 'available'), instance(1, 'available')],
        leases: [lease('a', { exporter: 'pool-0' })],
      }),
    );
    expect(conditionOf(result, ConditionTypes.ScalingLimited)).toMatchObject({
      status: 'True',
      reason: ConditionReasons.AtMaxReplicas,
      message: 'Cannot scale beyond 2 replicas; 1 available, need 2',
    });
  });

  it('reports ScalingLimited False while the rules fit under maxReplicas', () => {
    const result = plan(snapshot({ set: makeSet({ maxReplicas: 3, minAvailableReplicas: 2 }) }));
    expect(conditionOf(result, ConditionTypes.ScalingLimited)?.status).toBe('False');
  });

  it('counts instances on their way out until they are deleted', () => {
    const result = plan(
      snapshot({
        set: makeSet({ maxReplicas: 2, minAvailableReplicas: 2 }),
        instances: [
          instance(0, 'available'),
          instance(1, 'available', { enabled: false, retiring: 'scale-down' }),
        ],
      }),
    );
    expect(ofType(result, 'CreateExporter')).toEqual([]);
    expect(namesOf(result, 'DeleteExporter')).toEqual(['pool-1']);
  });

  it('does not count instances being deleted', () => {
    const result = plan(
      snapshot({
        set: makeSet({ maxReplicas: 2, minAvailableReplicas: 2 }),
        instances: [instance(0, 'available'), instance(1, 'available', { deleting: true })],
      }),
    );
    expect(namesOf(result, 'CreateExporter')).toEqual(['pool-2']);
  });
});

describe('burst', () => {
  it('creates at most maxBurst instances in one pass', () => {
    const result = plan(snapshot({ set: makeSet({ minReplicas: 100 }) }));
    expect(ofType(result, 'CreateExporter')).toHaveLength(50);
    expect(conditionOf(result, ConditionTypes.Scaling)?.message).toContain(
      '50 more instances wanted, held back by maxReplicas, the burst limit',
    );
  });

  it('never has more than maxBurst creates in flight', () => {
    const creating = Array.from({ length: 45 }, (_, i) => ({ name: `pool-${i}`, standby: false }));
    const result = plan(
      snapshot({ set: makeSet({ minReplicas: 100 }), inFlight: { creating }, options: { maxBurst: 50 } }),
    );
    expect(namesOf(result, 'CreateExporter')).toEqual([
      'pool-45',
      'pool-46',
      'pool-47',
      'pool-48',
      'pool-49',
    ]);
  });

  it('reaches 100 instances from zero in bursts without twins', () => {
    const { snapshot: final, plans } = settle(snapshot({ set: makeSet({ minReplicas: 100 }) }));
    const created = plans.flatMap((p) => namesOf(p, 'CreateExporter'));
    expect(new Set(created).size).toBe(100);
    expect(final.instances).toHaveLength(100);
    expect(plans.every((p) => ofType(p, 'CreateExporter').length <= 50)).toBe(true);
  });
});
