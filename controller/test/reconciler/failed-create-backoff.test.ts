/**
 * A set whose Exporter creates keep failing (SPEC §3.9: "nothing loops without a bound"): a quota, an
 * admission webhook, or a template the API server refuses on every instance. The set reports
 * ReplicaFailure and retries with its backoff — a handful of creates and status writes a minute, not
 * one per round trip — and its instance ordinals do not run away; the other set is unaffected.
 */
import { describe, expect, it } from '@jest/globals';
import { CONTROLLER, createClass, createSet, getSet, scenarioPerTest, until } from '../scenarios/support';

const startScenario = scenarioPerTest();

describe('a set whose creates keep failing', () => {
  it('backs off instead of retrying at the speed of the API', async () => {
    const { cluster, manager } = await startScenario({ speedUp: 50 });
    createClass(cluster);
    createSet(cluster, 'healthy', { minAvailableReplicas: 1 });
    await until('the healthy set', () => getSet(cluster, 'healthy')?.status?.availableReplicas === 1);

    cluster.faults.add({
      kind: 'error',
      code: 500,
      verb: 'create',
      resource: 'exporters',
      identity: CONTROLLER,
    });
    createSet(cluster, 'refused', {
      minAvailableReplicas: 1,
      selector: { matchLabels: { board: 'refused' } },
      template: { metadata: { labels: { board: 'refused' } }, spec: { drivers: [] } },
    });
    const failure = () =>
      getSet(cluster, 'refused')?.status?.conditions?.find((c) => c.type === 'ReplicaFailure');
    await until('ReplicaFailure', () => failure()?.status === 'True');
    expect(failure()).toMatchObject({
      reason: 'FailedCreate',
      message: 'Internal error occurred: injected by the test cluster',
    });

    const count = (verb: 'create' | 'patch', resource: string, subresource = '') =>
      cluster.counters.total({ identity: CONTROLLER, verb, resource, subresource });
    const creates = count('create', 'exporters');
    const statusWrites = count('patch', 'exportersets', 'status');
    const from = cluster.clock.now();
    await until('a minute of cluster time', () => cluster.clock.now() - from >= 60_000);

    // Per-key backoff doubling from 5 ms reaches a minute in 14 steps.
    expect(count('create', 'exporters') - creates).toBeLessThanOrEqual(16);
    expect(count('patch', 'exportersets', 'status') - statusWrites).toBeLessThanOrEqual(16);
    expect(getSet(cluster, 'refused')?.status?.nextOrdinal ?? 0).toBeLessThanOrEqual(32);
    expect(getSet(cluster, 'healthy')?.status?.availableReplicas).toBe(1);
    expect(manager.isLeader()).toBe(true);
  });
});
