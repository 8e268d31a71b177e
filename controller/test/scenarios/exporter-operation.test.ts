/**
 * ExporterOperation (issue 16 item 5) against the test cluster: a Recycle by name on an idle instance
 * (replaced with the warm buffer kept, then deleted after its TTL), a Recycle via selector with one
 * leased instance (it waits, reported, and finishes after the lease ends; the leased instance is never
 * touched), a deadline that passes while an instance stays leased (then quiet), and Disable then Enable.
 */
import { describe, expect, it } from '@jest/globals';
import {
  API_VERSION,
  Annotations,
  OperationConditionTypes,
  OperationLabels,
  OperationReasons,
  type ExporterOperation,
  type ExporterOperationSpec,
} from 'virtual-exporters/internal';
import { LeaseState, type TestCluster } from 'virtual-exporters-test-cluster';
import {
  NS,
  TEMPLATE_LABELS,
  createClass,
  createSet,
  eventsOf,
  getSet,
  instancesOf,
  scenarioPerTest,
  until,
  writesWhenSettled,
} from './support';

const startScenario = scenarioPerTest();

const operations = (cluster: TestCluster) =>
  cluster.registry.get('virtualtarget.jumpstarter.dev', 'v1alpha1', 'exporteroperations')!;

function createOperation(cluster: TestCluster, name: string, spec: ExporterOperationSpec): void {
  cluster.store.create(operations(cluster), NS, {
    apiVersion: API_VERSION,
    kind: 'ExporterOperation',
    metadata: { name },
    spec: spec as never,
  });
}

function getOperation(cluster: TestCluster, name: string): ExporterOperation | undefined {
  try {
    return cluster.store.get(operations(cluster), NS, name) as unknown as ExporterOperation;
  } catch {
    return undefined;
  }
}

function listOperations(cluster: TestCluster): ExporterOperation[] {
  return cluster.store.list(operations(cluster), NS).items as unknown as ExporterOperation[];
}

/** Follows the pool's available instances on every Exporter change; returns the lowest seen. */
function followAvailable(cluster: TestCluster, set: string): { lowest: () => number; stop: () => void } {
  const leased = () =>
    new Set(
      cluster
        .jumpstarter!.leases.list(NS)
        .flatMap((l) => (LeaseState.assigned(l) && !l.status?.ended ? [l.status!.exporterRef!.name] : [])),
    );
  let lowest = Infinity;
  const exporters = cluster.registry.get('jumpstarter.dev', 'v1alpha1', 'exporters')!;
  const watch = cluster.store.watch(
    exporters,
    NS,
    { resourceVersion: cluster.store.resourceVersion() },
    () => {
      const held = leased();
      const available = instancesOf(cluster, set).filter(
        (e) =>
          e.spec?.enabled !== false &&
          !held.has(e.metadata!.name!) &&
          e.status?.conditions?.some((c) => c.type === 'Online' && c.status === 'True'),
      ).length;
      lowest = Math.min(lowest, available);
    },
  );
  return { lowest: () => lowest, stop: () => watch.stop() };
}

describe('ExporterOperation', () => {
  it('recycles an idle instance by name keeping the warm buffer, then goes after ttlSecondsAfterFinished', async () => {
    const { cluster } = await startScenario({ speedUp: 20 });
    createClass(cluster);
    createSet(cluster, 'ops', { minAvailableReplicas: 2, maxReplicas: 4, scaleDownCooldown: '1h' });
    const status = () => getSet(cluster, 'ops')?.status;
    await until('2 available', () => status()?.availableReplicas === 2);
    const [target] = instancesOf(cluster, 'ops');
    const name = target.metadata!.name!;

    const available = followAvailable(cluster, 'ops');
    try {
      createOperation(cluster, 'recycle-one', {
        operation: 'Recycle',
        exporterName: name,
        ttlSecondsAfterFinished: 30,
      });
      const done = await until(
        'the operation complete',
        () =>
          getOperation(cluster, 'recycle-one')?.status?.state === 'Complete' &&
          getOperation(cluster, 'recycle-one'),
        30_000,
      );
      expect(done.status?.instances).toEqual([
        expect.objectContaining({ exporterName: name, uid: target.metadata!.uid, state: 'Complete' }),
      ]);
      expect(done.status?.conditions?.find((c) => c.type === OperationConditionTypes.Complete)).toMatchObject(
        {
          status: 'True',
          reason: OperationReasons.Succeeded,
          observedGeneration: 1,
        },
      );
      expect(instancesOf(cluster, 'ops').some((e) => e.metadata!.name === name)).toBe(false);
      await until('the pool refilled', () => status()?.availableReplicas === 2 && status()?.replicas === 2);
    } finally {
      available.stop();
    }
    expect(available.lowest()).toBeGreaterThanOrEqual(2);
    await until('the events', () => {
      const reasons = eventsOf(cluster).map((e) => e.reason);
      return reasons.includes('InstanceMarked') && reasons.includes('OperationComplete');
    });

    // ttlSecondsAfterFinished: 30 s of cluster time after it finished, the operation is deleted.
    await until('the operation deleted', () => getOperation(cluster, 'recycle-one') === undefined, 20_000);
  });

  it('recycles a set by selector: the leased instance waits for its lease to end and is never touched', async () => {
    const { cluster } = await startScenario({ speedUp: 20 });
    const leases = cluster.jumpstarter!.leases;
    createClass(cluster);
    createSet(cluster, 'sel', { minAvailableReplicas: 2, maxReplicas: 6, scaleDownCooldown: '1h' });
    const status = () => getSet(cluster, 'sel')?.status;
    await until('2 available', () => status()?.availableReplicas === 2);
    const lease = leases.create({
      namespace: NS,
      selector: { matchLabels: { ...TEMPLATE_LABELS } },
      duration: '1h',
    });
    const leasedName = (await leases.waitFor(NS, lease.metadata.name!, LeaseState.assigned, 20_000)).status!
      .exporterRef!.name;
    await until('refilled', () => status()?.availableReplicas === 2 && status()?.leasedReplicas === 1);
    const before = instancesOf(cluster, 'sel');
    const leasedUid = before.find((e) => e.metadata!.name === leasedName)!.metadata!.uid;

    createOperation(cluster, 'recycle-all', {
      operation: 'Recycle',
      exporterSetName: 'sel',
      selector: { matchLabels: { ...TEMPLATE_LABELS } },
      ttlSecondsAfterFinished: 3600,
    });
    const parent = () => getOperation(cluster, 'recycle-all');
    const waiting = await until(
      'the others done, the leased one waiting',
      () => {
        const p = parent();
        const others = p?.status?.instances?.filter((i) => i.exporterName !== leasedName) ?? [];
        const leasedOne = p?.status?.instances?.find((i) => i.exporterName === leasedName);
        return (
          others.length === before.length - 1 &&
          others.every((i) => i.state === 'Complete') &&
          leasedOne?.reason === OperationReasons.WaitingForLease &&
          p
        );
      },
      30_000,
    );
    expect(waiting.status?.state).toBe('InProgress');
    expect(waiting.status?.instances?.map((i) => i.exporterName)).toEqual(
      before.map((e) => e.metadata!.name!).sort(),
    );
    expect(
      waiting.status?.conditions?.find((c) => c.type === OperationConditionTypes.WaitingForLease),
    ).toMatchObject({
      status: 'True',
      message: `${leasedName} is leased; the operation waits for that lease to end`,
    });
    const children = listOperations(cluster).filter(
      (o) => o.metadata?.labels?.[OperationLabels.parent] === 'recycle-all',
    );
    expect(children).toHaveLength(before.length);
    expect(children.every((c) => c.metadata?.ownerReferences?.[0]?.uid === waiting.metadata?.uid)).toBe(true);
    expect(
      eventsOf(cluster).some(
        (e) => e.reason === 'WaitingForLease' && e.involvedObject.name === `recycle-all-${leasedName}`,
      ),
    ).toBe(true);
    // The leased instance: same object, enabled, unmarked, still leased.
    const leased = instancesOf(cluster, 'sel').find((e) => e.metadata!.name === leasedName)!;
    expect(leased.metadata!.uid).toBe(leasedUid);
    expect(leased.spec?.enabled).not.toBe(false);
    expect(leased.metadata?.annotations?.[Annotations.recycleRequested]).toBeUndefined();
    expect(status()?.leasedReplicas).toBe(1);

    leases.release(NS, lease.metadata.name!);
    const complete = await until(
      'the operation complete',
      () => parent()?.status?.state === 'Complete' && parent(),
      30_000,
    );
    expect(complete.status?.instances?.every((i) => i.state === 'Complete')).toBe(true);
    expect(
      complete.status?.conditions?.find((c) => c.type === OperationConditionTypes.WaitingForLease)?.status,
    ).toBe('False');
    const oldNames = new Set(before.map((e) => e.metadata!.name!));
    await until(
      'every instance replaced',
      () => {
        const live = instancesOf(cluster, 'sel');
        return (
          live.length === 2 &&
          live.every((e) => !oldNames.has(e.metadata!.name!)) &&
          status()?.availableReplicas === 2
        );
      },
      30_000,
    );
  });

  it('fails with DeadlineExceeded when the instance stays leased past activeDeadlineSeconds', async () => {
    const { cluster } = await startScenario({ speedUp: 20 });
    const leases = cluster.jumpstarter!.leases;
    createClass(cluster);
    createSet(cluster, 'dl', { minAvailableReplicas: 1, scaleDownCooldown: '1h' });
    await until('1 available', () => getSet(cluster, 'dl')?.status?.availableReplicas === 1);
    const lease = leases.create({
      namespace: NS,
      selector: { matchLabels: { ...TEMPLATE_LABELS } },
      duration: '1h',
    });
    const leasedName = (await leases.waitFor(NS, lease.metadata.name!, LeaseState.assigned, 20_000)).status!
      .exporterRef!.name;

    createOperation(cluster, 'drain-late', {
      operation: 'Drain',
      exporterName: leasedName,
      activeDeadlineSeconds: 20,
    });
    const failed = await until(
      'the operation failed',
      () =>
        getOperation(cluster, 'drain-late')?.status?.state === 'Failed' &&
        getOperation(cluster, 'drain-late'),
      20_000,
    );
    expect(failed.status?.reason).toBe(OperationReasons.DeadlineExceeded);
    expect(failed.status?.message).toBe(
      `activeDeadlineSeconds (20 s) passed before the operation finished: instance ${leasedName} is leased (Lease ${lease.metadata.name}); Drain waits for the lease to end; nothing more is done`,
    );
    const start = Date.parse(failed.status!.startTime!);
    expect(Date.parse(failed.status!.completionTime!) - start).toBeGreaterThanOrEqual(20_000);
    // The event follows the status write.
    await until('the OperationFailed event', () =>
      eventsOf(cluster).some((e) => e.reason === 'OperationFailed' && e.involvedObject.name === 'drain-late'),
    );
    const instance = instancesOf(cluster, 'dl').find((e) => e.metadata!.name === leasedName)!;
    expect(instance.spec?.enabled).not.toBe(false);
    expect(instance.metadata?.annotations?.[Annotations.retiring]).toBeUndefined();
    expect(LeaseState.assigned(leases.get(NS, lease.metadata.name!)!)).toBe(true);
    // A finished operation is quiet: no more writes for it.
    expect(await writesWhenSettled(cluster, 10_000)).toBe(0);
  });

  it('reports a write the API refuses on the operation, retries it, and clears the report once it succeeds', async () => {
    const { cluster } = await startScenario({ speedUp: 20 });
    createClass(cluster);
    createSet(cluster, 'wf', { minAvailableReplicas: 1, scaleDownCooldown: '1h' });
    await until('1 available', () => getSet(cluster, 'wf')?.status?.availableReplicas === 1);
    const name = instancesOf(cluster, 'wf')[0].metadata!.name!;
    const refusal = cluster.faults.add({
      kind: 'error',
      code: 403,
      resource: 'exporters',
      verb: 'patch',
      identity: 'controller',
    });
    createOperation(cluster, 'disable-refused', { operation: 'Disable', exporterName: name });
    const failure = await until('the failure reported', () =>
      getOperation(cluster, 'disable-refused')?.status?.conditions?.find(
        (c) => c.type === OperationConditionTypes.WriteFailure && c.status === 'True',
      ),
    );
    expect(failure.reason).toBe('FailedPatch');
    expect(failure.message).toBe(
      `the patch of Exporter ${name} failed: exporters.jumpstarter.dev "${name}" is forbidden: User "controller" cannot patch resource "exporters" in API group "jumpstarter.dev" in the namespace "lab" (injected by the test cluster)`,
    );
    await until('the Warning event', () =>
      eventsOf(cluster).some(
        (e) =>
          e.reason === 'FailedPatch' && e.type === 'Warning' && e.involvedObject.name === 'disable-refused',
      ),
    );
    expect(getOperation(cluster, 'disable-refused')?.status?.state).not.toBe('Complete');
    cluster.faults.remove(refusal);
    const done = await until(
      'disabled after the retry',
      () =>
        getOperation(cluster, 'disable-refused')?.status?.state === 'Complete' &&
        getOperation(cluster, 'disable-refused'),
      30_000,
    );
    expect(
      done.status?.conditions?.find((c) => c.type === OperationConditionTypes.WriteFailure),
    ).toMatchObject({
      status: 'False',
      reason: 'NoFailures',
    });
  });

  it('disables an instance by hand (kept, refilled around) and enables it again', async () => {
    const { cluster } = await startScenario({ speedUp: 20 });
    createClass(cluster);
    createSet(cluster, 'de', { minAvailableReplicas: 2, scaleDownCooldown: '1h' });
    const status = () => getSet(cluster, 'de')?.status;
    await until('2 available', () => status()?.availableReplicas === 2);
    const name = instancesOf(cluster, 'de')[0].metadata!.name!;

    createOperation(cluster, 'disable', { operation: 'Disable', exporterName: name });
    await until('disabled', () => getOperation(cluster, 'disable')?.status?.state === 'Complete');
    const disabled = instancesOf(cluster, 'de').find((e) => e.metadata!.name === name)!;
    expect(disabled.spec?.enabled).toBe(false);
    expect(disabled.metadata?.annotations?.[Annotations.manuallyDisabled]).toBe('true');
    await until(
      'refilled around it',
      () => status()?.availableReplicas === 2 && status()?.exportersDisabled === 1,
    );

    createOperation(cluster, 'enable', { operation: 'Enable', exporterName: name });
    await until('enabled', () => getOperation(cluster, 'enable')?.status?.state === 'Complete');
    await until(
      'back in the pool',
      () => status()?.availableReplicas === 3 && status()?.exportersDisabled === 0,
    );
    const enabled = instancesOf(cluster, 'de').find((e) => e.metadata!.name === name)!;
    expect(enabled.metadata?.annotations?.[Annotations.manuallyDisabled]).toBeUndefined();
  });
});
