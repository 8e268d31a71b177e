import { describe, expect, it } from '@jest/globals';
import { ConditionReasons, ConditionTypes } from 'virtual-exporters/internal';
import { plan } from '../../src/planner';
import { conditionOf, instance, lease, makeClass, makeSet, namesOf, ofType, snapshot } from './builders';

describe('§3.20 off switch › maxReplicas 0', () => {
  it('keeps no ceiling: ten waiting leases add ten instances to a pool of three', () => {
    const leases = Array.from({ length: 10 }, (_, i) => lease(`l${i}`));
    const instances = [0, 1, 2].map((n) => instance(n, 'available', { leaseRef: `busy${n}` }));
    const busy = [0, 1, 2].map((n) => lease(`busy${n}`, { exporter: `pool-${n}` }));
    const result = plan(
      snapshot({ set: makeSet({ maxReplicas: 0 }), instances, leases: [...leases, ...busy] }),
    );
    expect(ofType(result, 'CreateExporter')).toHaveLength(10);
  });

  it('says the pool is unbounded, with the off switch in the message, and warns once', () => {
    const result = plan(snapshot({ set: makeSet({ maxReplicas: 0 }) }));
    expect(conditionOf(result, ConditionTypes.Unbounded)).toMatchObject({
      status: 'True',
      reason: ConditionReasons.NoMaxReplicas,
      message: expect.stringContaining('set spec.paused: true'),
    });
    expect(result.events).toContainEqual(
      expect.objectContaining({ type: 'Warning', reason: ConditionReasons.NoMaxReplicas }),
    );
    const again = plan(snapshot({ set: makeSet({ maxReplicas: 0 }, { status: result.status }) }));
    expect(again.events.filter((e) => e.reason === ConditionReasons.NoMaxReplicas)).toEqual([]);
  });

  it('reports a bounded pool as Unbounded=False', () => {
    const result = plan(snapshot({ set: makeSet({ maxReplicas: 4 }) }));
    expect(conditionOf(result, ConditionTypes.Unbounded)).toMatchObject({
      status: 'False',
      reason: ConditionReasons.MaxReplicasSet,
      message: 'maxReplicas 4 bounds the pool',
    });
  });
});

describe('§3.20 off switch › spec.paused', () => {
  it('creates nothing for the floor, the warm buffer or waiting leases while paused', () => {
    const set = makeSet({ paused: true, minReplicas: 2, minAvailableReplicas: 3, maxReplicas: 10 });
    const result = plan(snapshot({ set, leases: [lease('a'), lease('b')] }));
    expect(ofType(result, 'CreateExporter')).toEqual([]);
    expect(conditionOf(result, ConditionTypes.Paused)).toMatchObject({
      status: 'True',
      reason: ConditionReasons.SpecPaused,
    });
  });

  it('promotes no standby while paused', () => {
    const set = makeSet({ paused: true, minAvailableReplicas: 1, maxReplicas: 4 });
    const cls = makeClass({ bindingMode: 'WaitForFirstConsumer' });
    const result = plan(snapshot({ set, cls, instances: [instance(0, 'standby')], leases: [lease('a')] }));
    expect(ofType(result, 'PromoteStandby')).toEqual([]);
    expect(ofType(result, 'CreateExporter')).toEqual([]);
  });

  it('keeps existing instances serving and recycling: an exited one leaves and is not replaced', () => {
    const set = makeSet({ paused: true, minAvailableReplicas: 2, maxReplicas: 4 });
    const result = plan(
      snapshot({
        set,
        instances: [instance(0, 'available'), instance(1, 'exited', { leaseRef: 'done' })],
        leases: [lease('done', { exporter: 'pool-1', ended: true })],
      }),
    );
    expect(namesOf(result, 'DeleteExporter')).toEqual(['pool-1']);
    expect(namesOf(result, 'DisableExporter')).toEqual([]);
    expect(ofType(result, 'CreateExporter')).toEqual([]);
  });

  it('still gives an existing instance its Pod (it was created before the pause)', () => {
    const set = makeSet({ paused: true, minAvailableReplicas: 1, maxReplicas: 4 });
    const result = plan(snapshot({ set, instances: [instance(0, 'unrendered')] }));
    expect(namesOf(result, 'RenderInstance')).toEqual(['pool-0']);
  });

  it('resumes when unpaused', () => {
    const paused = plan(
      snapshot({ set: makeSet({ paused: true, minAvailableReplicas: 1, maxReplicas: 4 }) }),
    );
    const resumed = plan(
      snapshot({
        set: makeSet({ paused: false, minAvailableReplicas: 1, maxReplicas: 4 }, { status: paused.status }),
      }),
    );
    expect(ofType(resumed, 'CreateExporter')).toHaveLength(1);
    expect(conditionOf(resumed, ConditionTypes.Paused)).toMatchObject({
      status: 'False',
      reason: ConditionReasons.NotPaused,
    });
  });

  it('does not pause on a malformed value', () => {
    const set = makeSet({ paused: 'yes' as unknown as boolean, minAvailableReplicas: 1, maxReplicas: 4 });
    const result = plan(snapshot({ set }));
    expect(conditionOf(result, ConditionTypes.Paused)?.status).toBe('False');
    expect(conditionOf(result, ConditionTypes.SpecValid)).toMatchObject({
      status: 'False',
      message: expect.stringContaining('spec.paused: must be true or false'),
    });
  });
});
