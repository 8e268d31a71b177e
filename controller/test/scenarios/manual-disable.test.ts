/**
 * SPEC §3.11: an Exporter an operator disabled by hand stays — it is neither deleted nor counted as
 * available (the buffer is refilled around it) — and re-enabling it restores it.
 */
import { describe, expect, it } from '@jest/globals';
import { NS, createClass, createSet, getSet, instancesOf, scenarioPerTest, until } from './support';

const startScenario = scenarioPerTest();

describe('§3.11: an Exporter disabled by hand', () => {
  it('is kept, not counted, refilled around, and restored when re-enabled', async () => {
    const scenario = await startScenario({ speedUp: 20 });
    const { cluster } = scenario;
    createClass(cluster);
    createSet(cluster, 'manual', { minAvailableReplicas: 2, scaleDownCooldown: '1h' });
    const status = () => getSet(cluster, 'manual')?.status;
    await until('the pool', () => status()?.availableReplicas === 2);

    const exporters = cluster.registry.get('jumpstarter.dev', 'v1alpha1', 'exporters')!;
    const victim = instancesOf(cluster, 'manual')[0].metadata!.name!;
    cluster.store.patch(exporters, NS, victim, 'merge', { spec: { enabled: false } });
    await until(
      'the refill around it',
      () => status()?.availableReplicas === 2 && status()?.exportersDisabled === 1,
    );
    await new Promise((r) => setTimeout(r, 200)); // 4 s of cluster time
    expect(instancesOf(cluster, 'manual').map((e) => e.metadata?.name)).toContain(victim);

    cluster.store.patch(exporters, NS, victim, 'merge', { spec: { enabled: true } });
    await until('restored', () => status()?.availableReplicas === 3 && status()?.exportersDisabled === 0);
    expect(instancesOf(cluster, 'manual').map((e) => e.metadata?.name)).toContain(victim);
  });
});
