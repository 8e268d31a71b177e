/**
 * `bindingMode: WaitForFirstConsumer` (SPEC §3.6): instances start as standbys with no
 * Pod; each waiting lease gets exactly one instance promoted and booted.
 */
import { describe, expect, it } from '@jest/globals';
import {
  NS,
  TEMPLATE_LABELS,
  createClass,
  createSet,
  getSet,
  podNames,
  scenarioPerTest,
  until,
} from './support';

const startScenario = scenarioPerTest();

describe('§3.6: WaitForFirstConsumer', () => {
  it('makes no Pods until leases wait, then one Pod per waiting lease', async () => {
    const scenario = await startScenario({ speedUp: 20 });
    const { cluster } = scenario;
    createClass(cluster, 'qemu', { bindingMode: 'WaitForFirstConsumer' });
    createSet(cluster, 'lazy', { minAvailableReplicas: 2, scaleDownCooldown: '1h' });
    const status = () => getSet(cluster, 'lazy')?.status;
    await until('the standbys', () => (status()?.standbyReplicas ?? 0) >= 1);
    await new Promise((r) => setTimeout(r, 200)); // 4 s of cluster time: still no Pods
    expect(podNames(cluster)).toEqual([]);

    const leases = cluster.jumpstarter!.leases;
    for (const name of ['wait-1', 'wait-2'])
      leases.create({
        namespace: NS,
        name,
        selector: { matchLabels: { ...TEMPLATE_LABELS } },
        duration: '1h',
      });
    const served = await Promise.all(
      ['wait-1', 'wait-2'].map((name) =>
        leases.waitFor(NS, name, (l) => Boolean(l.status?.exporterRef?.name), 20_000),
      ),
    );
    expect(new Set(served.map((l) => l.status!.exporterRef!.name)).size).toBe(2);
    expect(podNames(cluster).sort()).toEqual(served.map((l) => l.status!.exporterRef!.name).sort());
  });
});
