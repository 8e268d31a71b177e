/**
 * §3.18 in the planner: an instance whose Pod the controller could not start is failed once its wait
 * (from the first failed try, on the controller's clock) reaches the startup timeout, counted as a
 * startup failure so its replacement backs off; ReplicaFailure of a write kind stays while such writes
 * are outstanding and clears once they succeed or are no longer wanted; a name found taken moves
 * `nextOrdinal` past it.
 */
import { describe, expect, it } from '@jest/globals';
import type { Condition } from 'virtual-exporters/internal';
import { conditionEvents, finalizeStatus, plan, type InstanceSnapshot } from '../../src/planner';
import { T0, conditionOf, instance, makeSet, namesOf, snapshot } from './builders';

const TIMEOUT = 60_000;
const options = { startupTimeoutMs: TIMEOUT };

/** pool-0 with its credential, no Pod, and a Pod start refused since `since` (ms after T0). */
const refused = (since: number): InstanceSnapshot => ({
  ...instance(0, 'unrendered'),
  podWriteFailure: { since: T0 + since, reason: 'FailedCreatePod', message: 'pods is forbidden' },
});

const failure = (reason: string): Condition => ({
  type: 'ReplicaFailure',
  status: 'True',
  reason,
  message: 'instance pool-0: pods is forbidden',
  lastTransitionTime: new Date(T0 - 5_000).toISOString(),
});

describe('§3.18 an instance that cannot get its Pod', () => {
  it('keeps trying within the startup timeout, and wakes when it ends', () => {
    const result = plan(
      snapshot({ set: makeSet({ minAvailableReplicas: 1 }), instances: [refused(-20_000)], options }),
    );
    expect(namesOf(result, 'RenderInstance')).toEqual(['pool-0']);
    expect(namesOf(result, 'DeleteExporter')).toEqual([]);
    expect(result.requeueAfterMs).toBe(40_000);
  });

  it('is failed at the timeout from the first failed try, replaced, and counted for the backoff', () => {
    const result = plan(
      snapshot({ set: makeSet({ minAvailableReplicas: 1 }), instances: [refused(-TIMEOUT)], options }),
    );
    expect(namesOf(result, 'DeleteExporter')).toEqual(['pool-0']);
    expect(namesOf(result, 'RenderInstance')).toEqual([]);
    expect(result.status?.startupFailures).toBe(1);
    expect(conditionOf(result, 'InstancesHealthy')?.reason).toBe('StartupFailureBackoff');
    const event = result.events.find((e) => e.reason === 'StartupFailure');
    expect(event?.message).toContain('no Pod 60 s after the controller first tried to start it');
    expect(event?.message).toContain('FailedCreatePod: pods is forbidden');
  });

  it("is not failed by an old Exporter's age: the wait counts from the controller's first try", () => {
    const old = {
      ...refused(-1_000),
      exporter: instance(0, 'unrendered', { createdAt: -3_600_000 }).exporter,
    };
    const result = plan(snapshot({ set: makeSet({ minAvailableReplicas: 1 }), instances: [old], options }));
    expect(namesOf(result, 'DeleteExporter')).toEqual([]);
  });
});

describe('§3.18 ReplicaFailure of a write kind', () => {
  const withFailure = (reason: string, instances: readonly InstanceSnapshot[]) =>
    plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 1 }, { status: { conditions: [failure(reason)] } }),
        instances,
        options,
      }),
    );

  it('stays True while the failed Pod start is planned again', () => {
    const result = withFailure('FailedCreatePod', [refused(-1_000)]);
    expect(conditionOf(result, 'ReplicaFailure')).toMatchObject({
      status: 'True',
      reason: 'FailedCreatePod',
    });
  });

  it('clears when no write of that kind is outstanding any more', () => {
    const result = withFailure('FailedCreatePod', [instance(0, 'available')]);
    expect(conditionOf(result, 'ReplicaFailure')).toMatchObject({
      status: 'False',
      reason: 'NoFailures',
      message: 'no Pod create is outstanding (the earlier FailedCreatePod no longer applies)',
    });
  });

  it('clears when the pass sent writes of that kind and they all succeeded, not when others did', () => {
    const result = withFailure('FailedCreatePod', [refused(-1_000)]);
    const after = (succeeded: readonly string[], changedReplicas = false) =>
      finalizeStatus(result, {
        applied: [],
        changedReplicas,
        succeeded: new Set(succeeded),
        now: T0,
      })?.conditions?.find((c) => c.type === 'ReplicaFailure');
    expect(after(['FailedRender', 'FailedCreateSecret', 'FailedCreatePod'])).toMatchObject({
      status: 'False',
    });
    expect(after(['FailedCreate'], true)).toMatchObject({ status: 'True', reason: 'FailedCreatePod' });
  });

  it('moves nextOrdinal past a name found taken, as past a create that landed', () => {
    const result = plan(snapshot({ set: makeSet({ minAvailableReplicas: 1 }), options }));
    expect(namesOf(result, 'CreateExporter')).toEqual(['pool-0']);
    const status = finalizeStatus(result, {
      applied: [],
      changedReplicas: true,
      taken: [{ name: 'pool-0' }],
      now: T0,
    });
    expect(status?.nextOrdinal).toBe(1);
  });

  it('emits a Warning for each new kind of failed write, though ReplicaFailure was True already', () => {
    const before = [failure('FailedCreate')];
    expect(conditionEvents(before, [failure('FailedCreatePod')])).toEqual([
      {
        type: 'Warning',
        reason: 'FailedCreatePod',
        message: 'ReplicaFailure is True: instance pool-0: pods is forbidden',
      },
    ]);
    expect(conditionEvents(before, [failure('FailedCreate')])).toEqual([]);
  });
});
