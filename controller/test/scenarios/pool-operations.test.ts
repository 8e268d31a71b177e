/**
 * The pool operations of issue 16 against the test cluster. A 10-instance pool at its ceiling with 3
 * leased instances goes through an image refresh by requested recycle, then a template change under
 * Proactive with maxUnavailable 1, then a rollback by pinning the revision before the change: at every
 * store change the warm buffer stays at or above its target minus maxUnavailable, no leased instance is
 * touched and no recorded revision (ControllerRevision) changes; the recycle completes once, with its
 * event.
 * And a scale-in selector picks which idle instances go when the pool shrinks.
 */
import { describe, expect, it } from '@jest/globals';
import { EventReasons, Labels, type Exporter } from 'virtual-exporters/internal';
import { LeaseState, type TestCluster } from 'virtual-exporters-test-cluster';
import {
  NS,
  TEMPLATE_LABELS,
  condition,
  createClass,
  createSet,
  eventsOf,
  getSet,
  instancesOf,
  patchSetSpec,
  scenarioPerTest,
  until,
} from './support';

const startScenario = scenarioPerTest();

const online = (e: Exporter) => e.status?.conditions?.some((c) => c.type === 'Online' && c.status === 'True');

/** Follows the set's instances on every change of the Exporters in the store. */
function watchPool(cluster: TestCluster, set: string, leasedNames: () => ReadonlySet<string>) {
  const seen = { lowestAvailable: Infinity, mostInstances: 0 };
  const exporters = cluster.registry.get('jumpstarter.dev', 'v1alpha1', 'exporters')!;
  const watch = cluster.store.watch(
    exporters,
    NS,
    { resourceVersion: cluster.store.resourceVersion() },
    () => {
      const live = instancesOf(cluster, set);
      const held = leasedNames();
      const available = live.filter(
        (e) => e.spec?.enabled !== false && !held.has(e.metadata!.name!) && online(e),
      ).length;
      seen.lowestAvailable = Math.min(seen.lowestAvailable, available);
      seen.mostInstances = Math.max(seen.mostInstances, live.length);
    },
  );
  return { seen, stop: () => watch.stop() };
}

describe('pool operations', () => {
  it('recycles a 10-instance pool with 3 leases on request, rolls a template change under maxUnavailable 1, then rolls back by pinning', async () => {
    const { cluster } = await startScenario({ speedUp: 40 });
    const leases = cluster.jumpstarter!.leases;
    createClass(cluster);
    createSet(cluster, 'ops', { minAvailableReplicas: 7, maxReplicas: 10 });
    const status = () => getSet(cluster, 'ops')?.status;
    await until('7 available', () => status()?.availableReplicas === 7, 30_000);
    const held = [0, 1, 2].map(() =>
      leases.create({ namespace: NS, selector: { matchLabels: { ...TEMPLATE_LABELS } }, duration: '1h' }),
    );
    const leasedNames = new Set<string>();
    for (const lease of held) {
      const assigned = await leases.waitFor(NS, lease.metadata.name!, LeaseState.assigned, 30_000);
      leasedNames.add(assigned.status!.exporterRef!.name);
    }
    await until(
      '10 instances, 7 available',
      () => status()?.replicas === 10 && status()?.availableReplicas === 7,
      30_000,
    );
    const uidOf = (name: string) =>
      instancesOf(cluster, 'ops').find((e) => e.metadata!.name === name)?.metadata?.uid;
    const leasedUids = new Map([...leasedNames].map((n) => [n, uidOf(n)]));
    const live = () =>
      new Set(leases.list(NS).flatMap((l) => (LeaseState.assigned(l) ? [l.status!.exporterRef!.name] : [])));
    const watch = watchPool(cluster, 'ops', live);
    let rollback: ReturnType<typeof watchPool> | undefined;
    const revisionsRt = cluster.registry.get('apps', 'v1', 'controllerrevisions')!;
    const revisionChanges: string[] = [];
    const revisionWatch = cluster.store.watch(
      revisionsRt,
      NS,
      { resourceVersion: cluster.store.resourceVersion() },
      (event) => {
        if (event.type === 'MODIFIED') revisionChanges.push(event.object.metadata.name ?? '');
      },
    );
    try {
      // 1. The requested recycle: every instance created before now is replaced, the leased ones after their lease.
      const requestedAt = new Date(cluster.clock.now()).toISOString();
      const requestedMs = Date.parse(requestedAt);
      const createdBefore = () =>
        instancesOf(cluster, 'ops').filter(
          (e) => Date.parse(String(e.metadata!.creationTimestamp)) < requestedMs,
        );
      patchSetSpec(cluster, 'ops', { recycleRequestedAt: requestedAt });
      await until(
        'the idle instances recycled',
        () =>
          createdBefore()
            .map((e) => e.metadata!.name!)
            .sort()
            .join() === [...leasedNames].sort().join() && status()?.availableReplicas === 7,
        90_000,
      );
      for (const [name, uid] of leasedUids) {
        const exporter = instancesOf(cluster, 'ops').find((e) => e.metadata!.name === name)!;
        expect(exporter.metadata!.uid).toBe(uid);
        expect(exporter.spec?.enabled).not.toBe(false);
      }
      expect(condition(getSet(cluster, 'ops'), 'Scaling')?.message).toContain(`the recycle requested at`);
      expect(eventsOf(cluster, 'ops').filter((e) => e.reason === EventReasons.RecycleCompleted)).toEqual([]);
      expect(status()?.lastCompletedRecycle).toBeUndefined();

      for (const lease of held) leases.release(NS, lease.metadata.name!);
      await until(
        'the recycle complete',
        () => status()?.lastCompletedRecycle !== undefined && createdBefore().length === 0,
        90_000,
      );
      expect(Date.parse(status()!.lastCompletedRecycle!)).toBe(requestedMs);
      await until('7 available again', () => status()?.availableReplicas === 7, 30_000);
      await until(
        'the RecycleCompleted event',
        () => eventsOf(cluster, 'ops').filter((e) => e.reason === EventReasons.RecycleCompleted).length === 1,
      );

      // 2. A template change under Proactive with maxUnavailable 1.
      const oldRevision = status()!.templateRevision!;
      patchSetSpec(cluster, 'ops', {
        updateStrategy: { type: 'Proactive', maxUnavailable: 1 },
        template: { metadata: { labels: { ...TEMPLATE_LABELS, firmware: 'v2' } }, spec: { drivers: [] } },
      });
      await until(
        'a new revision',
        () => status()?.templateRevision !== oldRevision && status()?.templateRevision,
      );
      const current = status()!.templateRevision!;
      await until(
        'every instance current',
        () =>
          instancesOf(cluster, 'ops').every(
            (e) => e.metadata?.labels?.[Labels.templateRevision] === current,
          ) &&
          status()?.availableReplicas === 7 &&
          status()?.updatedReplicas === status()?.replicas,
        90_000,
      );

      // 3. Rollback by pinning the revision before the change, with 3 instances leased again: the idle
      // ones roll back now, the leased ones stay as they are until their lease ends.
      watch.stop();
      const again = [0, 1, 2].map(() =>
        leases.create({ namespace: NS, selector: { matchLabels: { ...TEMPLATE_LABELS } }, duration: '1h' }),
      );
      const leasedAgain = new Map<string, string | undefined>();
      for (const lease of again) {
        const assigned = await leases.waitFor(NS, lease.metadata.name!, LeaseState.assigned, 30_000);
        const name = assigned.status!.exporterRef!.name;
        leasedAgain.set(name, uidOf(name));
      }
      // The leases took 3 of the 7: the buffer refills (demand, not the rollback) before the pin.
      await until(
        '10 instances, 7 available, again',
        () => status()?.replicas === 10 && status()?.availableReplicas === 7,
        30_000,
      );
      rollback = watchPool(cluster, 'ops', live);
      patchSetSpec(cluster, 'ops', { pinnedRevision: `ops-${oldRevision}` });
      await until(
        'the idle instances rolled back',
        () =>
          status()?.pinnedRevision === `ops-${oldRevision}` &&
          instancesOf(cluster, 'ops').every(
            (e) =>
              leasedAgain.has(e.metadata!.name!) ||
              e.metadata?.labels?.[Labels.templateRevision] === oldRevision,
          ) &&
          status()?.availableReplicas === 7,
        90_000,
      );
      expect(status()?.currentRevision).toBe(`ops-${oldRevision}`);
      for (const [name, uid] of leasedAgain) {
        const exporter = instancesOf(cluster, 'ops').find((e) => e.metadata!.name === name)!;
        expect(exporter.metadata!.uid).toBe(uid);
        expect(exporter.spec?.enabled).not.toBe(false);
        expect(exporter.metadata?.labels?.[Labels.templateRevision]).toBe(current);
      }
      for (const lease of again) leases.release(NS, lease.metadata.name!);
      await until(
        'every instance on the pinned revision',
        () =>
          instancesOf(cluster, 'ops').every(
            (e) => e.metadata?.labels?.[Labels.templateRevision] === oldRevision,
          ) && status()?.availableReplicas === 7,
        90_000,
      );
      // The pinned revision is recorded and kept, beside the one the template names.
      const recorded = cluster.store.list(revisionsRt, NS).items.map((r) => r.metadata.name);
      expect(recorded).toEqual(expect.arrayContaining([`ops-${oldRevision}`, `ops-${current}`]));
    } finally {
      watch.stop();
      rollback?.stop();
      revisionWatch.stop();
    }
    expect(revisionChanges).toEqual([]);
    expect(rollback!.seen.lowestAvailable).toBeGreaterThanOrEqual(7 - 1);
    expect(rollback!.seen.mostInstances).toBeLessThanOrEqual(10);
    expect(watch.seen.lowestAvailable).toBeGreaterThanOrEqual(7 - 1);
    expect(watch.seen.mostInstances).toBeLessThanOrEqual(10);
    // Once: the completed request marks nothing outdated any more.
    expect(eventsOf(cluster, 'ops').filter((e) => e.reason === EventReasons.RecycleCompleted)).toHaveLength(
      1,
    );
  }, 420_000);

  it('Opportunistic replaces an outdated instance when its Pod ends; Unmanaged gives it a new Pod', async () => {
    const { cluster } = await startScenario({ speedUp: 40 });
    createClass(cluster);
    createSet(cluster, 'opp', {
      minAvailableReplicas: 2,
      maxReplicas: 3,
      recycleStrategy: 'InPlaceReuse',
      updateStrategy: { type: 'Opportunistic' },
    });
    const status = () => getSet(cluster, 'opp')?.status;
    await until('2 available', () => status()?.availableReplicas === 2, 30_000);
    const [first, second] = instancesOf(cluster, 'opp');
    const oldRevision = status()!.templateRevision!;
    patchSetSpec(cluster, 'opp', {
      template: { metadata: { labels: { ...TEMPLATE_LABELS, firmware: 'v2' } }, spec: { drivers: [] } },
    });
    await until(
      'the new revision seen',
      () => status()?.templateRevision !== oldRevision && status()?.observedGeneration === 2,
    );
    // Idle outdated instances stay: nothing is replaced for being outdated.
    const from = cluster.clock.now();
    await until('30 s of cluster time', () => cluster.clock.now() - from >= 30_000, 30_000);
    expect(status()?.updatedReplicas).toBe(0);
    expect(
      instancesOf(cluster, 'opp')
        .map((e) => e.metadata!.uid)
        .sort(),
    ).toEqual([first.metadata!.uid, second.metadata!.uid].sort());

    // Its Pod ends: the outdated instance leaves and a current one takes its place.
    cluster.kubelet!.crash(NS, first.metadata!.name!);
    await until(
      'the crashed outdated instance replaced by a current one',
      () =>
        !instancesOf(cluster, 'opp').some((e) => e.metadata!.uid === first.metadata!.uid) &&
        status()?.updatedReplicas === 1 &&
        status()?.availableReplicas === 2,
      30_000,
    );

    // Unmanaged: the same crash only gives the instance a new Pod (InPlaceReuse); it stays outdated.
    patchSetSpec(cluster, 'opp', { updateStrategy: { type: 'Unmanaged' } });
    await until('Unmanaged seen', () => status()?.observedGeneration === 3);
    cluster.kubelet!.crash(NS, second.metadata!.name!);
    await until(
      'a failed Pod seen',
      () => (status()?.podsFailed ?? 0) > 0 || status()?.availableReplicas !== 2,
    );
    await until('2 available again', () => status()?.availableReplicas === 2, 30_000);
    const kept = instancesOf(cluster, 'opp').find((e) => e.metadata!.name === second.metadata!.name);
    expect(kept?.metadata?.uid).toBe(second.metadata!.uid);
    expect(kept?.metadata?.labels?.[Labels.templateRevision]).toBe(oldRevision);
  }, 180_000);

  it('scales in the instances a selector names first', async () => {
    const { cluster, manager } = await startScenario({ speedUp: 40 });
    createClass(cluster);
    createSet(cluster, 'shrink', {
      minAvailableReplicas: 4,
      maxReplicas: 6,
      scaleDownCooldown: '20s',
      scaleInStrategy: { selectors: [{ matchLabels: { retire: 'first' } }], basePolicy: 'Newest' },
    });
    const status = () => getSet(cluster, 'shrink')?.status;
    await until('4 available', () => status()?.availableReplicas === 4, 30_000);
    // An operator marks the two oldest instances (newest-first would keep them).
    const exporters = cluster.registry.get('jumpstarter.dev', 'v1alpha1', 'exporters')!;
    const oldest = instancesOf(cluster, 'shrink')
      .sort(
        (a, b) =>
          String(a.metadata!.creationTimestamp).localeCompare(String(b.metadata!.creationTimestamp)) ||
          a.metadata!.name!.localeCompare(b.metadata!.name!),
      )
      .slice(0, 2)
      .map((e) => e.metadata!.name!);
    for (const name of oldest) {
      cluster.store.patch(exporters, NS, name, 'merge', { metadata: { labels: { retire: 'first' } } });
    }
    // The scale-in reads the labels from the controller's cache: wait until they are there.
    await until('the labels in the controller cache', () =>
      oldest.every((name) => manager.informers.exporters.get(NS, name)?.metadata?.labels?.retire === 'first'),
    );
    patchSetSpec(cluster, 'shrink', { minAvailableReplicas: 2 });
    await until(
      '2 instances left',
      () => instancesOf(cluster, 'shrink').length === 2 && status()?.replicas === 2,
      30_000,
    );
    const left = instancesOf(cluster, 'shrink').map((e) => e.metadata!.name!);
    expect(left.filter((n) => oldest.includes(n))).toEqual([]);
  }, 120_000);
});
