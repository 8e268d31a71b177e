/**
 * ReplicaFailure after the retry's status was lost: a create fails (True), the retried create lands but
 * the status write of that pass fails (as when the controller dies between the two), and no later pass
 * creates or deletes anything. A pass with nothing outstanding clears the condition, so it does not
 * stay True for good.
 */
import { describe, expect, it } from '@jest/globals';
import {
  CONTROLLER,
  condition,
  createClass,
  createSet,
  getSet,
  instancesOf,
  scenarioPerTest,
  until,
} from '../scenarios/support';

const startScenario = scenarioPerTest();

describe('ReplicaFailure whose successful retry was not recorded', () => {
  it('goes back to False once nothing is outstanding', async () => {
    const { cluster } = await startScenario({ speedUp: 50 });
    const failure = () => condition(getSet(cluster, 'pool'), 'ReplicaFailure');
    cluster.faults.add({
      kind: 'error',
      code: 500,
      verb: 'create',
      resource: 'exporters',
      identity: CONTROLLER,
    });
    createClass(cluster);
    createSet(cluster, 'pool', { minAvailableReplicas: 1 });
    await until('ReplicaFailure=True', () => failure()?.status === 'True');

    cluster.faults.clear();
    const statusWrites = cluster.faults.add({
      kind: 'error',
      code: 500,
      verb: 'patch',
      resource: 'exportersets',
      subresource: 'status',
      identity: CONTROLLER,
    });
    await until('the retried create', () => instancesOf(cluster, 'pool').length === 1);
    await until('its status write refused', () => cluster.faults.hits(statusWrites) > 0);
    cluster.faults.clear();

    await until('the pool', () => getSet(cluster, 'pool')?.status?.availableReplicas === 1);
    await until('ReplicaFailure=False', () => failure()?.status === 'False');
    expect(failure()?.reason).toBe('NoFailures');
    expect(instancesOf(cluster, 'pool')).toHaveLength(1);
  });
});
