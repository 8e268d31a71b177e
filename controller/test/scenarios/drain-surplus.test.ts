/**
 * Scale-down in one step (SPEC §3.7): when 20 idle instances become surplus, all of them
 * go once the surplus has lasted scaleDownCooldown — not one per cooldown — and the pool never drops
 * below its floor or its warm buffer on the way.
 */
import { describe, expect, it } from '@jest/globals';
import type { ExporterSet } from 'virtual-exporters/internal';
import {
  NS,
  createClass,
  eventsOf,
  createSet,
  getSet,
  instancesOf,
  patchSetSpec,
  scenarioPerTest,
  untilStored,
} from './support';

const startScenario = scenarioPerTest();

const COOLDOWN_MS = 10_000;

describe('§3.7: draining surplus', () => {
  it('removes 20 surplus idle instances within one cooldown window, never below floor or buffer', async () => {
    const { cluster } = await startScenario({ speedUp: 20 });
    createClass(cluster);
    createSet(cluster, 'drain', {
      minReplicas: 2,
      minAvailableReplicas: 22,
      maxReplicas: 30,
      scaleDownCooldown: '10s',
    });
    const status = () => getSet(cluster, 'drain')?.status;
    await untilStored(cluster, '22 available', () => status()?.availableReplicas === 22, 30_000);

    // Follow every change of the store (a watch, not sampling), so no dip, no deletion and no
    // scale-down window slips by.
    let lowestAvailable = Infinity;
    let lowestInstances = Infinity;
    const deletedAt: number[] = [];
    const windowStarts = new Set<string>();
    const from = { resourceVersion: cluster.store.resourceVersion() };
    const exporters = cluster.registry.get('jumpstarter.dev', 'v1alpha1', 'exporters')!;
    const sets = cluster.registry.get('virtualtarget.jumpstarter.dev', 'v1alpha1', 'exportersets')!;
    const watches = [
      cluster.store.watch(exporters, NS, from, (event) => {
        if (event.type === 'DELETED') deletedAt.push(cluster.clock.now());
        const live = instancesOf(cluster, 'drain');
        const available = live.filter(
          (e) =>
            e.spec?.enabled !== false &&
            e.status?.conditions?.some((c) => c.type === 'Online' && c.status === 'True'),
        ).length;
        lowestAvailable = Math.min(lowestAvailable, available);
        lowestInstances = Math.min(lowestInstances, live.length);
      }),
      cluster.store.watch(sets, NS, from, (event) => {
        const start = (event.object as unknown as ExporterSet).status?.scaleDownWindowStart;
        if (start !== undefined) windowStarts.add(start);
      }),
    ];

    const askedAt = cluster.clock.now();
    patchSetSpec(cluster, 'drain', { minAvailableReplicas: 2 });
    const windowStart = Date.parse(
      await untilStored(cluster, 'the window', () => status()?.scaleDownWindowStart),
    );
    try {
      await untilStored(
        cluster,
        'the drain',
        () => instancesOf(cluster, 'drain').length === 2 && status()?.replicas === 2,
      );
    } finally {
      for (const watch of watches) watch.stop();
    }

    expect(windowStart).toBeGreaterThanOrEqual(askedAt - 1_000);
    expect(deletedAt).toHaveLength(20);
    // Nothing went before the window had lasted the cooldown, and all 20 went in one step: one
    // window was opened for the whole drain (one per cooldown would open 19 more) and one decision
    // disabled all of them (one event). How long the 20 deletions take after that decision is the
    // machine's speed, not the rule's, so no upper time bound is asserted.
    expect(Math.min(...deletedAt)).toBeGreaterThanOrEqual(windowStart + COOLDOWN_MS);
    expect([...windowStarts].map(Date.parse)).toEqual([windowStart]);
    const disabled = eventsOf(cluster, 'drain').filter(
      (e) => e.reason === 'ScaledDown' && e.message.startsWith('disabled'),
    );
    expect(disabled.map((e) => e.message.split(' ').slice(0, 3).join(' '))).toEqual([
      'disabled 20 instances',
    ]);
    expect(lowestAvailable).toBeGreaterThanOrEqual(2);
    expect(lowestInstances).toBeGreaterThanOrEqual(2);
    expect(status()?.availableReplicas).toBe(2);
    expect(status()?.scaleDownWindowStart).toBeUndefined();
  });
});
