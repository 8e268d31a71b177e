/**
 * An ExporterOperation over a set that is gone before the operation finished (found by the
 * simulation, issue 26 item 7): its children still report each instance's end, so the operation ends
 * with a named state instead of recreating children it already has and staying InProgress.
 */
import { describe, expect, it } from '@jest/globals';
import {
  API_VERSION,
  OperationLabels,
  OperationReasons,
  type ExporterOperation,
} from 'virtual-exporters/internal';
import { LeaseState, type TestCluster } from 'virtual-exporters-test-cluster';
import {
  NS,
  TEMPLATE_LABELS,
  createClass,
  createSet,
  getSet,
  instancesOf,
  scenarioPerTest,
  until,
} from './support';

const startScenario = scenarioPerTest();

const operations = (cluster: TestCluster) =>
  cluster.registry.get('virtualtarget.jumpstarter.dev', 'v1alpha1', 'exporteroperations')!;
const sets = (cluster: TestCluster) =>
  cluster.registry.get('virtualtarget.jumpstarter.dev', 'v1alpha1', 'exportersets')!;

function getOperation(cluster: TestCluster, name: string): ExporterOperation | undefined {
  try {
    return cluster.store.get(operations(cluster), NS, name) as unknown as ExporterOperation;
  } catch {
    return undefined;
  }
}

describe('an ExporterOperation whose set is gone', () => {
  it('ends with its children’s results once the set and its instances are gone', async () => {
    const scenario = await startScenario({ speedUp: 20 });
    const { cluster } = scenario;
    const leases = cluster.jumpstarter!.leases;
    createClass(cluster);
    createSet(cluster, 'gone', { minAvailableReplicas: 2, maxReplicas: 4, scaleDownCooldown: '1h' });
    await until('2 available', () => getSet(cluster, 'gone')?.status?.availableReplicas === 2);
    // A leased instance keeps its child waiting, so the operation is under way when the set goes.
    const lease = leases.create({
      namespace: NS,
      selector: { matchLabels: { ...TEMPLATE_LABELS } },
      duration: '1h',
    });
    await leases.waitFor(NS, lease.metadata.name!, LeaseState.assigned, 20_000);
    cluster.store.create(operations(cluster), NS, {
      apiVersion: API_VERSION,
      kind: 'ExporterOperation',
      metadata: { name: 'recycle-gone' },
      spec: {
        operation: 'Recycle',
        exporterSetName: 'gone',
        selector: { matchLabels: { ...TEMPLATE_LABELS } },
      } as never,
    });
    await until('a child waiting for the lease', () =>
      getOperation(cluster, 'recycle-gone')?.status?.instances?.some(
        (i) => i.reason === OperationReasons.WaitingForLease,
      ),
    );

    // The set goes while no controller runs (its finalizer removed by hand), and its instances with it.
    await scenario.manager.stop();
    cluster.store.delete(sets(cluster), NS, 'gone');
    cluster.store.patch(sets(cluster), NS, 'gone', 'merge', { metadata: { finalizers: null } });
    await until(
      'the set and its instances gone',
      () => !getSet(cluster, 'gone') && instancesOf(cluster, 'gone').length === 0,
    );
    await scenario.restart();

    const ended = await until(
      'the operation ended',
      () => {
        const op = getOperation(cluster, 'recycle-gone');
        return (op?.status?.state === 'Complete' || op?.status?.state === 'Failed') && op;
      },
      30_000,
    );
    // Each instance's end as its child reports it; no child made twice.
    expect(ended.status?.instances?.every((i) => i.state === 'Complete' || i.state === 'Failed')).toBe(true);
    const children = (
      cluster.store.list(operations(cluster), NS).items as unknown as ExporterOperation[]
    ).filter((o) => o.metadata?.labels?.[OperationLabels.parent] === 'recycle-gone');
    expect(children.map((c) => c.metadata?.name).sort()).toEqual(
      (ended.status?.instances ?? []).map((i) => i.operationName).sort(),
    );
  });
});
