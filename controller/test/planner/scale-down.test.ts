import { describe, expect, it } from '@jest/globals';
import { Annotations, ConditionTypes } from 'virtual-exporters/internal';
import { plan } from '../../src/planner';
import { applyPlan } from './applier';
import { at, conditionOf, instance, lease, makeSet, namesOf, ofType, snapshot, T0 } from './builders';

const MINUTE = 60_000;
const idle = (n: number, from = 0) => Array.from({ length: n }, (_, i) => instance(from + i, 'available'));

describe('§3.7 scale-down', () => {
  it('opens a window on surplus, persists it and removes nothing before the cooldown', () => {
    const result = plan(snapshot({ set: makeSet({ minAvailableReplicas: 1 }), instances: idle(3) }));
    expect(ofType(result, 'DisableExporter')).toEqual([]);
    expect(result.status).toMatchObject({ scaleDownWindowStart: at(0), scaleDownTarget: 1 });
    expect(result.requeueAfterMs).toBe(5 * MINUTE);
    expect(conditionOf(result, ConditionTypes.Scaling)).toMatchObject({
      status: 'False',
      reason: 'ScaleDownPending',
    });
  });

  it('removes all surplus in one step once the surplus has lasted the cooldown', () => {
    const set = makeSet(
      { minAvailableReplicas: 2 },
      { status: { scaleDownWindowStart: at(-5 * MINUTE), scaleDownTarget: 2 } },
    );
    const result = plan(snapshot({ set, instances: idle(22) }));
    expect(ofType(result, 'DisableExporter')).toHaveLength(20);
    expect(result.status?.scaleDownWindowStart).toBeUndefined();
    expect(result.status?.scaleDownTarget).toBeUndefined();
  });

  it('keeps the window across a restart: the start comes from the status', () => {
    const set = makeSet({}, { status: { scaleDownWindowStart: at(-4 * MINUTE), scaleDownTarget: 0 } });
    const result = plan(snapshot({ set, instances: idle(2) }));
    expect(result.status?.scaleDownWindowStart).toBe(at(-4 * MINUTE));
    expect(result.requeueAfterMs).toBe(MINUTE);
  });

  it('scales down to the largest need seen in the window, not the need of the moment', () => {
    const set = makeSet(
      { minAvailableReplicas: 1 },
      { status: { scaleDownWindowStart: at(-5 * MINUTE), scaleDownTarget: 3 } },
    );
    const result = plan(snapshot({ set, instances: idle(5) }));
    expect(namesOf(result, 'DisableExporter')).toEqual(['pool-3', 'pool-4']);
    // Surplus remains (3 kept, 1 needed): a new window starts now, aiming at the current need.
    expect(result.status).toMatchObject({ scaleDownWindowStart: at(0), scaleDownTarget: 1 });
  });

  it('raises the window target when the need grows during the window', () => {
    const set = makeSet(
      { minAvailableReplicas: 1 },
      { status: { scaleDownWindowStart: at(-MINUTE), scaleDownTarget: 1 } },
    );
    const result = plan(snapshot({ set, instances: idle(4), leases: [lease('a', { exporter: 'pool-0' })] }));
    expect(result.status).toMatchObject({ scaleDownWindowStart: at(-MINUTE), scaleDownTarget: 2 });
  });

  it('closes the window when the surplus is gone', () => {
    const set = makeSet(
      { minAvailableReplicas: 2 },
      { status: { scaleDownWindowStart: at(-MINUTE), scaleDownTarget: 2 } },
    );
    const result = plan(snapshot({ set, instances: idle(2) }));
    expect(result.status?.scaleDownWindowStart).toBeUndefined();
  });

  it('picks standbys and never-ready instances first, then offline, then idle newest first', () => {
    const set = makeSet(
      { minReplicas: 1 },
      { status: { scaleDownWindowStart: at(-10 * MINUTE), scaleDownTarget: 1 } },
    );
    const instances = [
      instance(0, 'available', { createdAt: -50 * MINUTE }),
      instance(1, 'available', { createdAt: -40 * MINUTE }),
      instance(2, 'offline', { createdAt: -30 * MINUTE }),
      instance(3, 'starting', { createdAt: -20 * MINUTE }),
    ];
    const result = plan(snapshot({ set, instances }));
    // pool-3 never became ready: deleted once disabled. Offline pool-2 next, then the newer idle pool-1.
    expect(namesOf(result, 'DisableExporter')).toEqual(['pool-1', 'pool-2', 'pool-3']);

    const keepTwo = makeSet(
      { minReplicas: 2 },
      { status: { scaleDownWindowStart: at(-10 * MINUTE), scaleDownTarget: 2 } },
    );
    expect(namesOf(plan(snapshot({ set: keepTwo, instances })), 'DisableExporter')).toEqual([
      'pool-2',
      'pool-3',
    ]);
  });

  it('never picks a leased instance, and never goes below the floor or the buffer', () => {
    const set = makeSet(
      { minReplicas: 3, minAvailableReplicas: 1 },
      { status: { scaleDownWindowStart: at(-10 * MINUTE), scaleDownTarget: 0 } },
    );
    const result = plan(
      snapshot({
        set,
        instances: idle(6),
        leases: [lease('a', { exporter: 'pool-0' }), lease('b', { exporter: 'pool-5' })],
      }),
    );
    const removed = namesOf(result, 'DisableExporter');
    expect(removed).not.toContain('pool-0');
    expect(removed).not.toContain('pool-5');
    expect(removed).toHaveLength(3);
  });

  it('disables first, with the retiring marker, and deletes on a later pass', () => {
    const set = makeSet({}, { status: { scaleDownWindowStart: at(-10 * MINUTE), scaleDownTarget: 1 } });
    const start = snapshot({ set, instances: idle(2) });
    const first = plan(start);
    expect(ofType(first, 'DisableExporter')).toEqual([
      expect.objectContaining({
        name: 'pool-1',
        reason: 'scale-down',
        patch: {
          metadata: { annotations: { [Annotations.retiring]: 'scale-down' } },
          spec: { enabled: false },
        },
      }),
    ]);
    expect(ofType(first, 'DeleteExporter')).toEqual([]);
    const second = plan(applyPlan(start, first));
    expect(ofType(second, 'DeleteExporter')).toEqual([
      { type: 'DeleteExporter', name: 'pool-1', reason: 'scale-down' },
    ]);
  });

  it('keeps a disabled instance that a lease was assigned to between disable and delete', () => {
    const result = plan(
      snapshot({
        instances: [
          instance(0, 'available'),
          instance(1, 'available', { enabled: false, retiring: 'scale-down' }),
        ],
        leases: [lease('late', { exporter: 'pool-1' })],
      }),
    );
    expect(ofType(result, 'DeleteExporter')).toEqual([]);
    expect(result.status?.leasedReplicas).toBe(1);
  });

  it('deletes it once that lease has ended', () => {
    const result = plan(
      snapshot({
        instances: [
          instance(0, 'available'),
          instance(1, 'available', { enabled: false, retiring: 'scale-down', leaseRef: 'late' }),
        ],
        leases: [lease('late', { exporter: 'pool-1', ended: true })],
      }),
    );
    expect(namesOf(result, 'DeleteExporter')).toEqual(['pool-1']);
  });

  it('waits while the Exporter names a lease the cache does not show as ended', () => {
    const result = plan(
      snapshot({
        instances: [
          instance(0, 'available'),
          instance(1, 'available', { enabled: false, retiring: 'scale-down', leaseRef: 'unseen' }),
        ],
      }),
    );
    expect(ofType(result, 'DeleteExporter')).toEqual([]);
  });

  it('never picks an instance whose Exporter names a lease the cache does not show yet', () => {
    const set = makeSet({}, { status: { scaleDownWindowStart: at(-10 * MINUTE), scaleDownTarget: 0 } });
    const result = plan(
      snapshot({
        set,
        instances: [instance(0, 'available', { leaseRef: 'unseen' }), instance(1, 'available')],
      }),
    );
    expect(namesOf(result, 'DisableExporter')).toEqual(['pool-1']);
  });

  it('deletes at once what cannot be leased: a standby, or an instance whose Pod never started', () => {
    const set = makeSet(
      { minReplicas: 1 },
      { status: { scaleDownWindowStart: at(-10 * MINUTE), scaleDownTarget: 1 } },
    );
    const result = plan(
      snapshot({ set, instances: [instance(0, 'available'), instance(1, 'standby'), instance(2, 'new')] }),
    );
    expect(namesOf(result, 'DeleteExporter')).toEqual(['pool-1', 'pool-2']);
    expect(ofType(result, 'DisableExporter')).toEqual([]);
  });

  it('shrinks an idle pool back to a standby after the cooldown', () => {
    const set = makeSet({}, { status: { scaleDownWindowStart: at(-5 * MINUTE), scaleDownTarget: 0 } });
    const result = plan(snapshot({ set, instances: idle(1) }));
    expect(ofType(result, 'CreateExporter').map((c) => [c.name, c.standby])).toEqual([['pool-1', true]]);
    expect(namesOf(result, 'DisableExporter')).toEqual(['pool-0']);
    // The standby is created before the last instance is disabled.
    const types = result.actions.map((a) => a.type);
    expect(types.indexOf('CreateExporter')).toBeLessThan(types.indexOf('DisableExporter'));
  });

  it('keeps the standby, not the idle instance, of a pool that needs nothing', () => {
    const set = makeSet({}, { status: { scaleDownWindowStart: at(-5 * MINUTE), scaleDownTarget: 0 } });
    const result = plan(snapshot({ set, instances: [instance(0, 'available'), instance(1, 'standby')] }));
    expect(namesOf(result, 'DisableExporter')).toEqual(['pool-0']);
    expect(ofType(result, 'DeleteExporter')).toEqual([]);
    expect(ofType(result, 'CreateExporter')).toEqual([]);
  });

  it('drains 20 surplus instances within one cooldown window', () => {
    let current = snapshot({ set: makeSet({ minAvailableReplicas: 2 }), instances: idle(22) });
    let deleted = 0;
    for (let t = 0; t <= 5 * MINUTE; t += MINUTE) {
      current = { ...current, now: T0 + t };
      for (let pass = 0; pass < 3; pass++) {
        const result = plan(current);
        deleted += ofType(result, 'DeleteExporter').length;
        current = applyPlan(current, result);
      }
    }
    expect(deleted).toBe(20);
    expect(current.instances).toHaveLength(2);
  });

  describe('the live Lease list confirms each delete', () => {
    const leaving = () =>
      snapshot({
        instances: [
          instance(0, 'available'),
          instance(1, 'standby', { enabled: false, retiring: 'scale-down' }),
          instance(2, 'standby', { enabled: false, retiring: 'scale-down' }),
        ],
      });

    it('never deletes an instance a live Lease names, and deletes the others', () => {
      const result = plan({ ...leaving(), leaseCheck: { leases: [lease('live', { exporter: 'pool-1' })] } });
      expect(namesOf(result, 'DeleteExporter')).toEqual(['pool-2']);
    });

    it('never deletes an instance a waiting Lease asks for by name: it may be assigned before the delete', () => {
      const waiting = lease('late', { pinnedTo: 'pool-1', pending: true });
      const result = plan({ ...leaving(), leaseCheck: { leases: [waiting] } });
      expect(namesOf(result, 'DeleteExporter')).toEqual(['pool-2']);
      const endedWaiting = lease('gone', { pinnedTo: 'pool-1', pending: true, ended: true });
      expect(
        namesOf(plan({ ...leaving(), leaseCheck: { leases: [endedWaiting] } }), 'DeleteExporter'),
      ).toEqual(['pool-1', 'pool-2']);
    });

    it('deletes the instance an ended live Lease names', () => {
      const ended = lease('old', { exporter: 'pool-1', ended: true });
      const result = plan({ ...leaving(), leaseCheck: { leases: [ended] } });
      expect(namesOf(result, 'DeleteExporter')).toEqual(['pool-1', 'pool-2']);
    });

    it('deletes nothing when the list failed, and reports ReplicaFailure FailedDelete with its message', () => {
      expect(namesOf(plan(leaving()), 'DeleteExporter')).toEqual(['pool-1', 'pool-2']);
      const result = plan({ ...leaving(), leaseCheck: { error: 'leases is forbidden' } });
      expect(ofType(result, 'DeleteExporter')).toEqual([]);
      expect(conditionOf(result, ConditionTypes.ReplicaFailure)).toMatchObject({
        status: 'True',
        reason: 'FailedDelete',
        message: 'leases is forbidden',
      });
    });
  });
});
