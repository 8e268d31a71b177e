/**
 * The executor's ReplicaFailure (SPEC §3.9): failed Exporter creates set `ReplicaFailure=True` with
 * reason FailedCreate and the API server's message, slow start stops at the first failed batch, and
 * the condition clears once creates succeed again.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { ConditionReasons } from 'virtual-exporters/internal';
import {
  CONTROLLER,
  condition,
  createClass,
  createSet,
  getSet,
  startScenario,
  until,
  type Scenario,
} from '../scenarios/support';

let scenario: Scenario | undefined;
afterEach(async () => {
  await scenario?.stop();
  scenario = undefined;
});

describe('ReplicaFailure', () => {
  it('reports failed creates with the API message and clears once they succeed', async () => {
    scenario = await startScenario({ speedUp: 20 });
    const { cluster } = scenario;
    const fault = cluster.faults.add({
      kind: 'error',
      code: 500,
      verb: 'create',
      resource: 'exporters',
      identity: CONTROLLER,
    });
    createClass(cluster);
    createSet(cluster, 'failing', { minAvailableReplicas: 4 });
    await until(
      'ReplicaFailure=True',
      () => condition(getSet(cluster, 'failing'), 'ReplicaFailure')?.status === 'True',
    );
    const failure = condition(getSet(cluster, 'failing'), 'ReplicaFailure');
    expect(failure?.reason).toBe(ConditionReasons.FailedCreate);
    expect(failure?.message).not.toBe('');
    // Each failed pass stopped after its first batch of one: no pass sent four creates.
    const passes = cluster.faults.hits(fault);
    expect(cluster.counters.total({ identity: CONTROLLER, verb: 'create', resource: 'exporters' })).toBe(
      passes,
    );

    cluster.faults.clear();
    await until('the pool', () => getSet(cluster, 'failing')?.status?.availableReplicas === 4);
    await until(
      'ReplicaFailure=False',
      () => condition(getSet(cluster, 'failing'), 'ReplicaFailure')?.status === 'False',
    );
  });
});
