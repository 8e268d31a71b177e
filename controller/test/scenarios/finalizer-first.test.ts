/**
 * SPEC §3.12: a set gets its drain finalizer before anything else. A set deleted without it is gone at
 * once, and the garbage collector deletes its Exporters — a leased one too, and the Lease with it. So
 * while the finalizer patch fails, the controller creates nothing.
 */
import { describe, expect, it } from '@jest/globals';
import { DRAIN_FINALIZER, type ExporterSet } from 'virtual-exporters/internal';
import { CONTROLLER, NS, createClass, createSet, getSet, scenarioPerTest, until } from './support';

const startScenario = scenarioPerTest();

describe('§3.12: the drain finalizer comes first', () => {
  it('creates no Exporter while the finalizer cannot be added', async () => {
    const { cluster } = await startScenario({ speedUp: 50 });
    const setsRt = cluster.registry.get('virtualtarget.jumpstarter.dev', 'v1alpha1', 'exportersets')!;
    const exportersRt = cluster.registry.get('jumpstarter.dev', 'v1alpha1', 'exporters')!;
    // Every write to the set itself (not its status) fails three times: the finalizer patch is refused.
    cluster.faults.add({
      kind: 'error',
      code: 500,
      verb: 'patch',
      resource: 'exportersets',
      subresource: '',
      identity: CONTROLLER,
      times: 3,
    });
    const createdWithoutFinalizer: string[] = [];
    const watch = cluster.store.watch(
      exportersRt,
      NS,
      { resourceVersion: cluster.store.resourceVersion() },
      (event) => {
        if (event.type !== 'ADDED') return;
        const set = cluster.store.get(setsRt, NS, 'pool') as unknown as ExporterSet;
        if (!(set.metadata?.finalizers ?? []).includes(DRAIN_FINALIZER))
          createdWithoutFinalizer.push(event.object.metadata.name ?? '');
      },
    );
    try {
      createClass(cluster);
      createSet(cluster, 'pool', { minReplicas: 2 });
      await until('the finalizer and 2 instances', () => {
        const set = getSet(cluster, 'pool');
        return set?.metadata?.finalizers?.includes(DRAIN_FINALIZER) && set.status?.replicas === 2;
      });
      expect(createdWithoutFinalizer).toEqual([]);
      expect(cluster.faults.rules().map((r) => r.hits)).toEqual([3]);
    } finally {
      watch.stop();
    }
  });
});
