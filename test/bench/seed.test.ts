/**
 * The seeded pools are what the controller itself would have built: started on them, the real
 * controller writes each set's status and nothing else — no Exporter, Pod or Secret created, patched
 * or deleted. (Benchmarks P2–P4 measure a controller on such pools.)
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { qemuProvisioner, type ExporterSet } from 'virtual-exporters/internal';
import { countExporters, resourcesOf, seedSettledPools } from '../../bench/support/seed';
import { waitUntil } from '../../bench/support/clock';
import { startManager, type Manager } from '../../controller/src/manager';
import { createLogger } from '../../controller/src/process/logger';
import { startTestCluster, type TestCluster } from 'virtual-exporters-test-cluster';

const NAMESPACES = ['bench-a', 'bench-b'];
const WRITES = ['create', 'update', 'patch', 'delete', 'deletecollection'] as const;

let cluster: TestCluster | undefined;
let manager: Manager | undefined;
afterEach(async () => {
  await manager?.stop();
  await cluster?.stop();
  manager = cluster = undefined;
});

describe('bench seed › settled pools', () => {
  it('are settled as the controller would leave them: it only writes their status', async () => {
    cluster = await startTestCluster({
      namespaces: NAMESPACES,
      speedUp: 10,
      jumpstarter: true,
      kubelet: true,
    });
    const report = await seedSettledPools(cluster, {
      namespaces: NAMESPACES,
      setsPerNamespace: 2,
      instancesPerSet: 3,
      leasedPerSet: 1,
      setSpec: { minReplicas: 0, minAvailableReplicas: 2, maxReplicas: 6 },
    });
    expect(report).toMatchObject({ sets: 4, instances: 12, leases: 4 });
    expect(countExporters(cluster)).toEqual({ total: 12, online: 12 });
    const rt = resourcesOf(cluster);
    expect(cluster.store.list(rt.pods, undefined).items).toHaveLength(12);
    expect(cluster.store.list(rt.secrets, undefined).items).toHaveLength(24); // config + credential

    manager = await startManager(
      {
        provisioner: qemuProvisioner,
        namespaces: undefined,
        kubeconfig: undefined,
        leaderElect: false,
        metricsBindAddress: '0',
        healthProbeBindAddress: '0',
        maxBurst: 50,
        workers: 2,
        logLevel: 'silent',
      },
      {
        kubeConfig: cluster.kubeConfigFor('controller'),
        clock: cluster.clock,
        logger: createLogger({ level: 'silent' }),
      },
    );
    const sets = () => cluster!.store.list(rt.sets, undefined).items as unknown as ExporterSet[];
    await waitUntil('every set’s first status', () => sets().every((s) => s.status?.observedGeneration), {
      timeoutMs: 20_000,
    });
    // Give the controller time to act on anything it would change (it would have by now).
    await new Promise((resolve) => setTimeout(resolve, 500));
    await cluster.settle();
    const writes = cluster.counters.snapshot({ identity: 'controller', verb: [...WRITES] });
    const byResource = new Set(
      writes.map((w) => `${w.verb} ${w.resource}${w.subresource ? '/' + w.subresource : ''}`),
    );
    expect([...byResource].filter((w) => w !== 'patch exportersets/status' && w !== 'create events')).toEqual(
      [],
    );
    expect(
      sets().map((s) => [s.status?.replicas, s.status?.availableReplicas, s.status?.leasedReplicas]),
    ).toEqual(Array(4).fill([3, 2, 1]));
  });
});
