/**
 * The cluster child's service, in process: requests and store changes are logged with timestamps
 * on the bench timeline, Leases are created as a client would, and cursors page through the logs.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { CoreV1Api } from '@kubernetes/client-node';
import { epochNow, waitUntil } from '../../bench/support/clock';
import { createClusterService } from '../../bench/support/cluster-service';
import { poolLabels } from '../../bench/support/seed';
import { startTestCluster, type TestCluster } from 'virtual-exporters-test-cluster';

let cluster: TestCluster | undefined;
afterEach(async () => {
  await cluster?.stop();
  cluster = undefined;
});

describe('bench cluster service', () => {
  it('logs requests and lease assignments with their times, and pages through them', async () => {
    cluster = await startTestCluster({ namespaces: ['svc'], speedUp: 10, jumpstarter: true, kubelet: true });
    const service = createClusterService(cluster);
    await service.seed({ namespaces: ['svc'], setsPerNamespace: 1, instancesPerSet: 2 });
    expect(service.counts(['svc'])).toEqual({
      sets: 1,
      exporters: 2,
      online: 2,
      pods: 2,
      leases: 0,
      leasesAssigned: 0,
    });

    const before = epochNow();
    await cluster.kubeConfigFor('probe').makeApiClient(CoreV1Api).listNamespacedPod({ namespace: 'svc' });
    const page = service.requests(0);
    const list = page.entries.find((r) => r.identity === 'probe');
    expect(list).toMatchObject({ verb: 'list', resource: 'pods', namespace: 'svc', name: '' });
    expect(list!.at).toBeGreaterThanOrEqual(before);
    expect(list!.at).toBeLessThanOrEqual(epochNow());
    expect(service.requests(page.next).entries).toEqual([]);

    service.record(['leases']);
    const name = service.createLease({ namespace: 'svc', selector: { matchLabels: poolLabels('pool-0') } });
    const assigned = await waitUntil('the lease assigned', () =>
      service.events(0).entries.find((e) => e.name === name && e.exporterRef),
    );
    expect(assigned).toMatchObject({ resource: 'leases', namespace: 'svc', type: 'MODIFIED' });
    expect(assigned.exporterRef).toMatch(/^pool-0-[01]$/);
    expect(service.counts(['svc'])).toMatchObject({ leases: 1, leasesAssigned: 1 });
    service.stop();
  });
});
