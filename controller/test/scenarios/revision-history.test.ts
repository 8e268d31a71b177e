/**
 * Revision history and rollback by pinning (issue 16) against the test cluster: each revision
 * instances run is recorded once as an immutable apps/v1 ControllerRevision; pinning the set to the
 * first rolls the pool back with the warm buffer kept and leased instances untouched; a pin to no
 * recorded revision touches nothing; unpinning rolls forward; the history limit prunes only revisions
 * no instance runs.
 */
import { describe, expect, it } from '@jest/globals';
import {
  ConditionReasons as R,
  ConditionTypes,
  Labels,
  type ControllerRevision,
} from 'virtual-exporters/internal';
import { LeaseState, type WatchEvent } from 'virtual-exporters-test-cluster';
import {
  CONTROLLER,
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

const SET = 'rev';
const template = (firmware?: string) => ({
  metadata: { labels: { ...TEMPLATE_LABELS, ...(firmware ? { firmware } : {}) } },
  spec: { drivers: [] },
});

describe('revision history and rollback by pinning', () => {
  it('records immutable revisions, rolls back by pinning and forward by unpinning, and prunes only unused ones', async () => {
    const { cluster } = await startScenario({ speedUp: 20 });
    const leases = cluster.jumpstarter!.leases;
    const revisionsRt = cluster.registry.get('apps', 'v1', 'controllerrevisions')!;
    const exportersRt = cluster.registry.get('jumpstarter.dev', 'v1alpha1', 'exporters')!;
    const revisions = () =>
      (cluster.store.list(revisionsRt, NS).items as unknown as ControllerRevision[]).sort(
        (a, b) => a.revision - b.revision,
      );
    const status = () => getSet(cluster, SET)?.status;
    const revisionOf = (name: string) =>
      instancesOf(cluster, SET).find((e) => e.metadata!.name === name)?.metadata?.labels?.[
        Labels.templateRevision
      ];
    /** Every instance not leased runs `revision`, and the buffer is back. */
    const idleAt = (revision: string, leased: readonly string[]) => () =>
      instancesOf(cluster, SET).every(
        (e) =>
          leased.includes(e.metadata!.name!) || e.metadata?.labels?.[Labels.templateRevision] === revision,
      ) && status()?.availableReplicas === 3;
    const lease = async (name: string) => {
      leases.create({
        namespace: NS,
        name,
        selector: { matchLabels: { ...TEMPLATE_LABELS } },
        duration: '1h',
      });
      return (await leases.waitFor(NS, name, LeaseState.assigned, 20_000)).status!.exporterRef!.name;
    };

    // No recorded revision is ever changed: the store sees creates and deletes of them only.
    const revisionEvents: WatchEvent[] = [];
    const revisionWatch = cluster.store.watch(
      revisionsRt,
      NS,
      { resourceVersion: cluster.store.resourceVersion() },
      (event) => revisionEvents.push(event),
    );
    // The warm buffer on every change of the Exporters (leased instances are not available).
    let lowestAvailable = Infinity;
    let watching = false;
    const leasedNames = () =>
      new Set(leases.list(NS).flatMap((l) => (LeaseState.assigned(l) ? [l.status!.exporterRef!.name] : [])));
    const availableNow = () => {
      const held = leasedNames();
      return instancesOf(cluster, SET).filter(
        (e) =>
          e.spec?.enabled !== false &&
          !held.has(e.metadata!.name!) &&
          e.status?.conditions?.some((c) => c.type === 'Online' && c.status === 'True'),
      ).length;
    };
    const exporterWatch = cluster.store.watch(
      exportersRt,
      NS,
      { resourceVersion: cluster.store.resourceVersion() },
      () => {
        if (watching) lowestAvailable = Math.min(lowestAvailable, availableNow());
      },
    );
    try {
      createClass(cluster);
      createSet(cluster, SET, {
        minAvailableReplicas: 3,
        maxReplicas: 8,
        revisionHistoryLimit: 0,
        template: template(),
      });
      await until('3 available', () => status()?.availableReplicas === 3);

      // Revision A recorded, with what an instance of it is built from.
      const a = status()!.templateRevision!;
      const [recordedA] = await until('revision A recorded', () =>
        revisions().length === 1 ? revisions() : false,
      );
      expect(recordedA.metadata.name).toBe(`${SET}-${a}`);
      expect(recordedA.revision).toBe(1);
      expect(recordedA.metadata.labels).toEqual({
        [Labels.exporterSetName]: SET,
        [Labels.templateRevision]: a,
      });
      expect(recordedA.metadata.ownerReferences).toEqual([
        expect.objectContaining({ kind: 'ExporterSet', name: SET, uid: getSet(cluster, SET)!.metadata.uid }),
      ]);
      expect(recordedA.data).toEqual({ template: template(), parameters: { arch: 'x86_64' } });
      expect(status()?.currentRevision).toBe(`${SET}-${a}`);
      const leasedA = await lease('l-a');

      // A template change: revision B recorded; idle instances roll to it, the leased one stays at A.
      patchSetSpec(cluster, SET, { template: template('v2') });
      const b = await until(
        'revision B',
        () => status()?.templateRevision !== a && status()?.templateRevision,
      );
      await until('rolled to B', idleAt(b, [leasedA]), 30_000);
      expect(revisions().map((r) => [r.metadata.name, r.revision])).toEqual([
        [`${SET}-${a}`, 1],
        [`${SET}-${b}`, 2],
      ]);
      const recordedB = revisions()[1];
      expect(recordedB.data).toEqual({ template: template('v2'), parameters: { arch: 'x86_64' } });
      // A stays: the leased instance runs it (history limit 0 notwithstanding).
      expect(revisions()[0]).toEqual(recordedA);
      const leasedB = await lease('l-b');
      await until(
        'refilled',
        () => status()?.availableReplicas === 3 && status()?.leasedReplicas === 2 && availableNow() === 3,
      );
      const leasedBUid = instancesOf(cluster, SET).find((e) => e.metadata!.name === leasedB)!.metadata!.uid;

      // Pin to A: the idle instances roll back; the leased B instance is left alone.
      watching = true;
      patchSetSpec(cluster, SET, { pinnedRevision: `${SET}-${a}` });
      await until('pinned', () => status()?.pinnedRevision === `${SET}-${a}`);
      await until('rolled back to A', idleAt(a, [leasedA, leasedB]), 30_000);
      watching = false;
      expect(Number.isFinite(lowestAvailable)).toBe(true);
      expect(lowestAvailable).toBeGreaterThanOrEqual(3);
      expect(status()?.currentRevision).toBe(`${SET}-${a}`);
      expect(status()?.templateRevision).toBe(a);
      expect(condition(getSet(cluster, SET), ConditionTypes.RevisionPinned)).toMatchObject({
        status: 'True',
        reason: R.PinnedRevisionFound,
      });
      const leasedBNow = instancesOf(cluster, SET).find((e) => e.metadata!.name === leasedB)!;
      expect(leasedBNow.metadata!.uid).toBe(leasedBUid);
      expect(leasedBNow.spec?.enabled).not.toBe(false);
      expect(revisionOf(leasedB)).toBe(b);
      // Built from A's recorded template: the new instances lack B's firmware label.
      const rolledBack = instancesOf(cluster, SET).filter(
        (e) => ![leasedA, leasedB].includes(e.metadata!.name!),
      );
      expect(rolledBack.every((e) => e.metadata?.labels?.firmware === undefined)).toBe(true);
      expect(revisions().map((r) => r.metadata.name)).toEqual([`${SET}-${a}`, `${SET}-${b}`]);

      // A pin to no recorded revision: the condition and a Warning say so, and no instance is touched.
      const before = instancesOf(cluster, SET).map(
        (e) => `${e.metadata!.name}@${e.metadata!.resourceVersion}`,
      );
      const instanceWrites = () =>
        cluster.counters.total({
          identity: CONTROLLER,
          verb: ['create', 'patch', 'update', 'delete'],
          resource: ['exporters', 'pods'],
        });
      const writesBefore = instanceWrites();
      patchSetSpec(cluster, SET, { pinnedRevision: `${SET}-0000000000` });
      await until(
        'RevisionPinned=False',
        () =>
          condition(getSet(cluster, SET), ConditionTypes.RevisionPinned)?.reason === R.PinnedRevisionNotFound,
      );
      expect(condition(getSet(cluster, SET), ConditionTypes.RevisionPinned)?.message).toContain(
        `spec.pinnedRevision "${SET}-0000000000" names no recorded revision of ExporterSet ${SET}`,
      );
      await until('the Warning event', () =>
        eventsOf(cluster, SET).some(
          (e) =>
            e.type === 'Warning' && e.reason === R.PinnedRevisionNotFound && e.message.includes('0000000000'),
        ),
      );
      const from = cluster.clock.now();
      await until('2 s of cluster time', () => cluster.clock.now() - from >= 2_000);
      expect(instanceWrites()).toBe(writesBefore);
      expect(
        instancesOf(cluster, SET).map((e) => `${e.metadata!.name}@${e.metadata!.resourceVersion}`),
      ).toEqual(before);

      // Unpinned: back to the template (B); the leased A instance is still left alone.
      patchSetSpec(cluster, SET, { pinnedRevision: null } as never);
      await until('rolled forward to B', idleAt(b, [leasedA]), 30_000);
      expect(status()?.pinnedRevision).toBeUndefined();
      expect(status()?.currentRevision).toBe(`${SET}-${b}`);
      expect(revisionOf(leasedA)).toBe(a);

      // A third template: C recorded; B is unused once the leased B instance is gone, and pruned (limit
      // 0); A is kept while its leased instance runs it, and pruned once that lease ends.
      leases.release(NS, 'l-b');
      patchSetSpec(cluster, SET, { template: template('v3') });
      const c = await until(
        'revision C',
        () => ![a, b].includes(status()?.templateRevision ?? a) && status()?.templateRevision,
      );
      await until('rolled to C', idleAt(c, [leasedA]), 30_000);
      await until('B pruned', () => !revisions().some((r) => r.metadata.name === `${SET}-${b}`));
      await until('the RevisionPruned event', () =>
        eventsOf(cluster, SET).some(
          (e) => e.reason === 'RevisionPruned' && e.message.includes(`${SET}-${b}`),
        ),
      );
      expect(eventsOf(cluster, SET).filter((e) => e.reason === 'RevisionRecorded')).toHaveLength(3);
      expect(revisions().map((r) => [r.metadata.name, r.revision])).toEqual([
        [`${SET}-${a}`, 1],
        [`${SET}-${c}`, 3],
      ]);
      expect(revisions()[0]).toEqual(recordedA);
      leases.release(NS, 'l-a');
      await until(
        'A pruned once no instance runs it',
        () => revisions().length === 1 && revisions()[0].metadata.name === `${SET}-${c}`,
        30_000,
      );
    } finally {
      revisionWatch.stop();
      exporterWatch.stop();
    }
    expect(
      revisionEvents.map((e) => e.type).filter((t) => t !== 'ADDED' && t !== 'DELETED' && t !== 'BOOKMARK'),
    ).toEqual([]);
    expect(revisionEvents.filter((e) => e.type === 'ADDED')).toHaveLength(3);
  });
});
