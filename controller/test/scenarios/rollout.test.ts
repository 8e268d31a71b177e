/**
 * A template change (SPEC §3.14): idle outdated instances are replaced gradually — the
 * available supply never drops below the warm buffer — and a leased outdated instance is left alone
 * until its lease ends, then replaced.
 */
import { describe, expect, it } from '@jest/globals';
import { Labels } from 'virtual-exporters/internal';
import { LeaseState } from 'virtual-exporters-test-cluster';
import {
  NS,
  TEMPLATE_LABELS,
  createClass,
  createSet,
  getSet,
  instancesOf,
  patchSetSpec,
  scenarioPerTest,
  until,
} from './support';

const startScenario = scenarioPerTest();

describe('§3.14: template rollout', () => {
  it('replaces idle instances keeping the buffer, and leased ones after their release', async () => {
    const { cluster } = await startScenario({ speedUp: 20 });
    const leases = cluster.jumpstarter!.leases;
    createClass(cluster);
    createSet(cluster, 'roll', { minAvailableReplicas: 4, maxReplicas: 8 });
    const status = () => getSet(cluster, 'roll')?.status;
    await until('4 available', () => status()?.availableReplicas === 4);
    const lease = leases.create({
      namespace: NS,
      selector: { matchLabels: { ...TEMPLATE_LABELS } },
      duration: '1h',
    });
    const leasedName = (await leases.waitFor(NS, lease.metadata.name!, LeaseState.assigned, 20_000)).status!
      .exporterRef!.name;
    await until('refilled', () => status()?.availableReplicas === 4 && status()?.leasedReplicas === 1);
    const oldRevision = status()!.templateRevision!;
    const leasedUid = instancesOf(cluster, 'roll').find((e) => e.metadata!.name === leasedName)!.metadata!
      .uid;

    // Follow the available, current and outdated instances on every change of the store.
    let lowestAvailable = Infinity;
    let mostInstances = 0;
    const exporters = cluster.registry.get('jumpstarter.dev', 'v1alpha1', 'exporters')!;
    const leasedNames = () =>
      new Set(leases.list(NS).flatMap((l) => (LeaseState.assigned(l) ? [l.status!.exporterRef!.name] : [])));
    const watch = cluster.store.watch(
      exporters,
      NS,
      { resourceVersion: cluster.store.resourceVersion() },
      () => {
        const live = instancesOf(cluster, 'roll');
        const held = leasedNames();
        const available = live.filter(
          (e) =>
            e.spec?.enabled !== false &&
            !held.has(e.metadata!.name!) &&
            e.status?.conditions?.some((c) => c.type === 'Online' && c.status === 'True'),
        ).length;
        lowestAvailable = Math.min(lowestAvailable, available);
        mostInstances = Math.max(mostInstances, live.length);
      },
    );
    try {
      patchSetSpec(cluster, 'roll', {
        template: { metadata: { labels: { ...TEMPLATE_LABELS, firmware: 'v2' } }, spec: { drivers: [] } },
      });
      await until(
        'a new revision',
        () => status()?.templateRevision !== oldRevision && status()?.templateRevision,
      );
      const current = status()!.templateRevision!;
      const revisionOf = (name: string) =>
        instancesOf(cluster, 'roll').find((e) => e.metadata!.name === name)?.metadata?.labels?.[
          Labels.templateRevision
        ];
      await until(
        'idle instances replaced',
        () => {
          const live = instancesOf(cluster, 'roll');
          const outdated = live.filter((e) => e.metadata?.labels?.[Labels.templateRevision] !== current);
          return (
            outdated.length === 1 &&
            outdated[0].metadata!.name === leasedName &&
            status()?.availableReplicas === 4
          );
        },
        30_000,
      );
      // The leased instance is untouched: same object, still enabled, still outdated.
      const leased = instancesOf(cluster, 'roll').find((e) => e.metadata!.name === leasedName)!;
      expect(leased.metadata!.uid).toBe(leasedUid);
      expect(leased.spec?.enabled).not.toBe(false);
      expect(revisionOf(leasedName)).toBe(oldRevision);
      expect(status()?.updatedReplicas).toBe(4);

      leases.release(NS, lease.metadata.name!);
      await until(
        'the leased one replaced after its release',
        () => {
          const live = instancesOf(cluster, 'roll');
          return (
            !live.some((e) => e.metadata!.name === leasedName) &&
            live.every((e) => e.metadata?.labels?.[Labels.templateRevision] === current) &&
            status()?.availableReplicas === 4 &&
            status()?.replicas === 4
          );
        },
        30_000,
      );
    } finally {
      watch.stop();
    }
    expect(lowestAvailable).toBeGreaterThanOrEqual(4);
    expect(mostInstances).toBeLessThanOrEqual(8);
    expect(status()?.updatedReplicas).toBe(4);
  });
});
