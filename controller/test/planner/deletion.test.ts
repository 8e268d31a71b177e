import { describe, expect, it } from '@jest/globals';
import { ConditionTypes, DRAIN_FINALIZER } from 'virtual-exporters/internal';
import { plan } from '../../src/planner';
import { settle } from './applier';
import { conditionOf, instance, lease, makeClass, makeSet, namesOf, ofType, snapshot } from './builders';

describe('§3.12 deletion', () => {
  it('adds the drain finalizer to a set that lacks it, before anything else', () => {
    const result = plan(snapshot({ set: makeSet({ minReplicas: 1 }, { finalizers: [] }) }));
    expect(result.actions[0]).toEqual({ type: 'AddFinalizer' });
  });

  it('drains: nothing new, unleased instances leave, leased ones stay', () => {
    const set = makeSet({ minAvailableReplicas: 3 }, { deleting: true });
    const result = plan(
      snapshot({
        set,
        instances: [
          instance(0, 'available'),
          instance(1, 'available'),
          instance(2, 'standby'),
          instance(3, 'new'),
        ],
        leases: [lease('l', { exporter: 'pool-0' })],
      }),
    );
    expect(ofType(result, 'CreateExporter')).toEqual([]);
    expect(ofType(result, 'RenderInstance')).toEqual([]);
    expect(namesOf(result, 'DisableExporter')).toEqual(['pool-1']);
    expect(namesOf(result, 'DeleteExporter')).toEqual(['pool-2', 'pool-3']);
    expect(ofType(result, 'RemoveFinalizer')).toEqual([]);
    expect(conditionOf(result, ConditionTypes.Scaling)).toMatchObject({
      status: 'True',
      reason: 'Draining',
    });
  });

  it('waits for the leases, then removes everything and the finalizer', () => {
    const set = makeSet({}, { deleting: true });
    const leased = snapshot({
      set,
      instances: [instance(0, 'available'), instance(1, 'available')],
      leases: [lease('l', { exporter: 'pool-0' })],
    });
    const waiting = settle(leased);
    expect(waiting.snapshot.instances.map((i) => i.exporter.metadata?.name)).toEqual(['pool-0']);
    expect(waiting.snapshot.set.metadata.finalizers).toEqual([DRAIN_FINALIZER]);

    const ended = settle({ ...waiting.snapshot, leases: [lease('l', { exporter: 'pool-0', ended: true })] });
    expect(ended.snapshot.instances).toEqual([]);
    expect(ended.snapshot.gone).toBe(true);
  });

  it('does nothing for a set being deleted without our finalizer', () => {
    const result = plan(
      snapshot({
        set: makeSet({}, { deleting: true, finalizers: [] }),
        instances: [instance(0, 'available')],
      }),
    );
    expect(result.actions).toEqual([]);
    expect(result.status).toBeUndefined();
  });

  it('releases, with reclaimPolicy Retain, an instance that served a lease', () => {
    const result = plan(
      snapshot({
        cls: makeClass({ reclaimPolicy: 'Retain' }),
        set: makeSet({}, { deleting: true }),
        instances: [instance(0, 'exited')],
        leases: [lease('l', { exporter: 'pool-0', ended: true })],
      }),
    );
    expect(ofType(result, 'ReleaseExporter').map((a) => [a.name, a.reason])).toEqual([['pool-0', 'drain']]);
  });

  it('drains even when the class is gone', () => {
    const result = plan(
      snapshot({ cls: null, set: makeSet({}, { deleting: true }), instances: [instance(0, 'standby')] }),
    );
    expect(namesOf(result, 'DeleteExporter')).toEqual(['pool-0']);
  });
});
