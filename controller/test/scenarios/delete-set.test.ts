/**
 * Deleting a set (SPEC §3.12): the drain finalizer holds the set while a lease holds one
 * of its instances; the unleased instances go at once, nothing new is created, the leased instance
 * keeps serving until its lease ends, and then the instance, its Pod and the set are gone.
 */
import { describe, expect, it } from '@jest/globals';
import { DRAIN_FINALIZER } from 'virtual-exporters/internal';
import { LeaseState } from 'virtual-exporters-test-cluster';
import {
  CONTROLLER,
  NS,
  TEMPLATE_LABELS,
  createClass,
  createSet,
  getSet,
  instancesOf,
  podNames,
  scenarioPerTest,
  until,
} from './support';

const startScenario = scenarioPerTest();

describe('§3.12: deleting a set with leased instances', () => {
  it('waits for the leases, then removes everything', async () => {
    const { cluster } = await startScenario({ speedUp: 20 });
    const leases = cluster.jumpstarter!.leases;
    createClass(cluster);
    createSet(cluster, 'doomed', { minAvailableReplicas: 3 });
    await until('3 available', () => getSet(cluster, 'doomed')?.status?.availableReplicas === 3);
    expect(getSet(cluster, 'doomed')?.metadata?.finalizers).toContain(DRAIN_FINALIZER);
    const lease = leases.create({
      namespace: NS,
      selector: { matchLabels: { ...TEMPLATE_LABELS } },
      duration: '1h',
    });
    const leasedName = (await leases.waitFor(NS, lease.metadata.name!, LeaseState.assigned, 20_000)).status!
      .exporterRef!.name;
    await until('refilled', () => {
      const status = getSet(cluster, 'doomed')?.status;
      return (
        status?.availableReplicas === 3 &&
        status.leasedReplicas === 1 &&
        instancesOf(cluster, 'doomed').length === 4
      );
    });

    const sets = cluster.registry.get('virtualtarget.jumpstarter.dev', 'v1alpha1', 'exportersets')!;
    cluster.store.delete(sets, NS, 'doomed');
    const createsBefore = cluster.counters.total({
      identity: CONTROLLER,
      verb: 'create',
      resource: 'exporters',
    });
    await until('only the leased instance left', () => {
      const live = instancesOf(cluster, 'doomed');
      return live.length === 1 && live[0].metadata!.name === leasedName;
    });
    const settledAt = cluster.clock.now();
    await until('5 s of cluster time', () => cluster.clock.now() - settledAt >= 5_000);
    expect(getSet(cluster, 'doomed')?.metadata?.deletionTimestamp).toBeDefined();
    expect(instancesOf(cluster, 'doomed').map((e) => e.metadata!.name)).toEqual([leasedName]);
    expect(leases.get(NS, lease.metadata.name!)?.status?.ended).not.toBe(true);
    expect(cluster.counters.total({ identity: CONTROLLER, verb: 'create', resource: 'exporters' })).toBe(
      createsBefore,
    );

    leases.release(NS, lease.metadata.name!);
    await until('the set gone', () => getSet(cluster, 'doomed') === undefined);
    await until(
      'its instances and Pods gone',
      () => instancesOf(cluster, 'doomed').length === 0 && podNames(cluster).length === 0,
    );
  });
});
