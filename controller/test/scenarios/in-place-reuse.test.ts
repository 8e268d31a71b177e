/**
 * InPlaceReuse (SPEC §3.8): after its lease ends the instance returns to available in the
 * same Pod (same Exporter, same Pod uid); when its Pod fails anyway, the Pod is replaced and the
 * instance serves again.
 */
import { describe, expect, it } from '@jest/globals';
import { LeaseState } from 'virtual-exporters-test-cluster';
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

describe('§3.8: InPlaceReuse', () => {
  it('returns the instance to available after release, and replaces a failed Pod', async () => {
    const { cluster } = await startScenario({ speedUp: 20 });
    const leases = cluster.jumpstarter!.leases;
    const pods = cluster.registry.get('', 'v1', 'pods')!;
    const podOf = (name: string) => {
      try {
        return cluster.store.get(pods, NS, name);
      } catch {
        return undefined;
      }
    };
    createClass(cluster);
    createSet(cluster, 'reuse', { minAvailableReplicas: 1, maxReplicas: 1, recycleStrategy: 'InPlaceReuse' });
    const status = () => getSet(cluster, 'reuse')?.status;
    await until('1 available', () => status()?.availableReplicas === 1);
    const [instance] = instancesOf(cluster, 'reuse');
    const name = instance.metadata!.name!;
    const podUid = podOf(name)!.metadata.uid;

    const lease = leases.create({
      namespace: NS,
      selector: { matchLabels: { ...TEMPLATE_LABELS } },
      duration: '1h',
    });
    const served = await leases.waitFor(NS, lease.metadata.name!, LeaseState.assigned, 20_000);
    expect(served.status?.exporterRef?.name).toBe(name);
    await until('leased', () => status()?.leasedReplicas === 1);
    leases.release(NS, lease.metadata.name!);
    await until('available again', () => status()?.availableReplicas === 1 && status()?.leasedReplicas === 0);
    // Same instance, same Pod: reused in place, not recycled.
    expect(instancesOf(cluster, 'reuse').map((e) => e.metadata!.name)).toEqual([name]);
    expect(podOf(name)?.metadata.uid).toBe(podUid);
    expect((podOf(name)?.status as { phase?: string } | undefined)?.phase).toBe('Running');

    // The Pod fails (the VM crashes): the Pod is replaced and the same instance serves again.
    cluster.kubelet!.crash(NS, name);
    await until('a new Pod', () => {
      const pod = podOf(name);
      return pod !== undefined && pod.metadata.uid !== podUid;
    });
    await until('available again after the failure', () => status()?.availableReplicas === 1);
    const again = leases.create({
      namespace: NS,
      selector: { matchLabels: { ...TEMPLATE_LABELS } },
      duration: '1h',
    });
    const reserved = await leases.waitFor(NS, again.metadata.name!, LeaseState.assigned, 20_000);
    expect(instancesOf(cluster, 'reuse')).toHaveLength(1);
    expect(reserved.status?.exporterRef?.name).toBe(instancesOf(cluster, 'reuse')[0].metadata!.name);
  });
});
