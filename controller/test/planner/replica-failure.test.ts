/**
 * §3.9 ReplicaFailure: set from the executor's outcome when an Exporter create or delete fails, and
 * cleared by a pass whose creates and deletes succeed (`finalizeStatus`). When the pass that retried
 * successfully lost its status (a failed status write, a controller restart), or the write is no
 * longer needed (the set shrank, the instance went away or got leased), no later pass sends a create or
 * delete: the planner clears it once nothing is outstanding.
 */
import { describe, expect, it } from '@jest/globals';
import type { Condition } from 'virtual-exporters/internal';
import { finalizeStatus, plan, type Plan } from '../../src/planner';
import { at, conditionOf, instance, lease, makeClass, makeSet, namesOf, snapshot, T0 } from './builders';

const failed = (reason: 'FailedCreate' | 'FailedDelete'): Condition => ({
  type: 'ReplicaFailure',
  status: 'True',
  reason,
  message: 'Internal error occurred: injected by the test cluster',
  lastTransitionTime: at(-60_000),
});

describe('§3.9 ReplicaFailure after the failed write stopped mattering', () => {
  it('clears a failed create once the pool is whole', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 1 }, { status: { conditions: [failed('FailedCreate')] } }),
        instances: [instance(0, 'available')],
      }),
    );
    expect(result.actions.filter((a) => a.type === 'CreateExporter')).toEqual([]);
    expect(conditionOf(result, 'ReplicaFailure')).toMatchObject({
      status: 'False',
      reason: 'NoFailures',
      message: 'no Exporter create or delete is outstanding (the earlier FailedCreate no longer applies)',
      lastTransitionTime: at(0),
    });
  });

  it('clears a failed delete once the instance is gone or leased', () => {
    // The pool keeps one standby so leases can wait; the surplus instance whose delete failed is gone.
    const gone = plan(
      snapshot({
        set: makeSet({}, { status: { conditions: [failed('FailedDelete')] } }),
        instances: [instance(1, 'standby')],
      }),
    );
    expect(gone.actions.filter((a) => a.type !== 'AddFinalizer')).toEqual([]);
    expect(conditionOf(gone, 'ReplicaFailure')?.status).toBe('False');
    const leased = plan(
      snapshot({
        set: makeSet({}, { status: { conditions: [failed('FailedDelete')] } }),
        instances: [
          instance(0, 'available', { enabled: false, retiring: 'scale-down' }),
          instance(1, 'standby'),
        ],
        leases: [lease('ci', { exporter: 'pool-0' })],
      }),
    );
    expect(namesOf(leased, 'DeleteExporter')).toEqual([]);
    expect(conditionOf(leased, 'ReplicaFailure')?.status).toBe('False');
  });

  it('clears it when only the ceiling holds creates back', () => {
    const result = plan(
      snapshot({
        set: makeSet(
          { minAvailableReplicas: 2, maxReplicas: 1 },
          { status: { conditions: [failed('FailedCreate')] } },
        ),
        instances: [instance(0, 'available')],
      }),
    );
    expect(conditionOf(result, 'ScalingLimited')?.status).toBe('True');
    expect(conditionOf(result, 'ReplicaFailure')?.status).toBe('False');
  });

  it('keeps it while the create or delete is still wanted', () => {
    const retrying = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 1 }, { status: { conditions: [failed('FailedCreate')] } }),
      }),
    );
    expect(namesOf(retrying, 'CreateExporter')).toHaveLength(1);
    expect(conditionOf(retrying, 'ReplicaFailure')).toMatchObject({ ...failed('FailedCreate') });

    const deleting = plan(
      snapshot({
        set: makeSet({}, { status: { conditions: [failed('FailedDelete')] } }),
        instances: [instance(0, 'new', { enabled: false, retiring: 'scale-down' }), instance(1, 'standby')],
      }),
    );
    expect(namesOf(deleting, 'DeleteExporter')).toEqual(['pool-0']);
    expect(conditionOf(deleting, 'ReplicaFailure')).toMatchObject({ ...failed('FailedDelete') });
  });
});

describe('finalizeStatus › the executor outcome', () => {
  const creating = () =>
    plan(snapshot({ set: makeSet({ minAvailableReplicas: 3 }, { status: { nextOrdinal: 4 } }) }));
  const applied = (result: Plan, names: string[]) =>
    result.actions.filter((a) => a.type === 'CreateExporter' && names.includes(a.name));

  it('reports a failed create as ReplicaFailure FailedCreate with the API message, at the outcome time', () => {
    const result = creating();
    const status = finalizeStatus(result, {
      applied: [],
      changedReplicas: true,
      replicaFailure: { reason: 'FailedCreate', message: 'exceeded quota' },
      now: T0 + 5_000,
    });
    expect(status?.conditions?.find((c) => c.type === 'ReplicaFailure')).toMatchObject({
      status: 'True',
      reason: 'FailedCreate',
      message: 'exceeded quota',
      lastTransitionTime: at(5_000),
    });
  });

  it('clears ReplicaFailure when this pass sent creates or deletes and all succeeded', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 1 }, { status: { conditions: [failed('FailedCreate')] } }),
      }),
    );
    expect(conditionOf(result, 'ReplicaFailure')?.status).toBe('True');
    const status = finalizeStatus(result, { applied: result.actions, changedReplicas: true, now: T0 });
    expect(status?.conditions?.find((c) => c.type === 'ReplicaFailure')).toMatchObject({
      status: 'False',
      reason: 'NoFailures',
    });
  });

  it('advances nextOrdinal past the creates that landed only', () => {
    const result = creating();
    expect(namesOf(result, 'CreateExporter')).toEqual(['pool-4', 'pool-5', 'pool-6']);
    expect(result.status?.nextOrdinal).toBe(7);
    const outcome = (names: string[]) => ({
      applied: applied(result, names),
      changedReplicas: true,
      now: T0,
    });
    expect(finalizeStatus(result, outcome(['pool-4', 'pool-5', 'pool-6']))?.nextOrdinal).toBe(7);
    expect(finalizeStatus(result, outcome(['pool-4']))?.nextOrdinal).toBe(5);
    expect(finalizeStatus(result, outcome([]))?.nextOrdinal).toBe(4);
  });

  it('has no status for a set that is not this controller’s', () => {
    const result = plan(snapshot({ cls: makeClass({ provisioner: 'other.example.com' }) }));
    expect(finalizeStatus(result, { applied: [], changedReplicas: false, now: T0 })).toBeUndefined();
  });
});
