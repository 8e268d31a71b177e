/**
 * One lease whose selector selects the instances of two sets (SPEC §3.3), on the test cluster: the
 * lease boots one VM, in the first set by name; with that set paused, in the other.
 */
import { describe, expect, it } from '@jest/globals';
import { LeaseState } from 'virtual-exporters-test-cluster';
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

describe('§3.3: one lease, two sets', () => {
  it.each([
    ['boots one VM, in the first set by name', false, 'a'],
    ['boots it in the second set while the first is paused', true, 'b'],
  ])('%s', async (_name, pauseA, servedBy) => {
    const { cluster } = await startScenario({ speedUp: 20 });
    const leases = cluster.jumpstarter!.leases;
    createClass(cluster);
    createSet(cluster, 'a', { maxReplicas: 4, paused: pauseA });
    createSet(cluster, 'b', { maxReplicas: 4 });
    await until('both report', () => getSet(cluster, 'a')?.status && getSet(cluster, 'b')?.status);
    const lease = leases.create({
      namespace: NS,
      selector: { matchLabels: { ...TEMPLATE_LABELS } },
      duration: '1h',
    });
    const served = await leases.waitFor(NS, lease.metadata.name!, LeaseState.assigned, 20_000);
    expect(served.status?.exporterRef?.name).toMatch(new RegExp(`^${servedBy}-`));
    const settledAt = cluster.clock.now();
    await until('10 s of cluster time', () => cluster.clock.now() - settledAt >= 10_000);
    expect(podNames(cluster)).toHaveLength(1);
  });
});
