/**
 * A crash loop (SPEC §3.9): with a runtime image that always fails before its exporter
 * is ready, each failure counts as a startup failure of the set, replacements back off exponentially
 * (10 s doubling to 5 min), `InstancesHealthy` says why, and the Pods created over 5 simulated minutes stay
 * few. Once the image is fixed, the pool recovers.
 */
import { describe, expect, it } from '@jest/globals';
import { ConditionReasons } from 'virtual-exporters/internal';
import {
  NS,
  condition,
  createClass,
  createSet,
  getSet,
  patchSetSpec,
  clusterTimeReaches,
  scenarioPerTest,
  untilStored,
} from './support';

const startScenario = scenarioPerTest();

const BROKEN = 'registry.invalid/qemu-runtime:broken';

describe('§3.9: crash loop', () => {
  it('backs off exponentially, explains it in InstancesHealthy and bounds the Pods created', async () => {
    const { cluster } = await startScenario({ speedUp: 100 });
    cluster.kubelet!.injectFault(
      { namespace: NS, image: BROKEN },
      { kind: 'crash', message: 'qemu: no such machine' },
    );
    createClass(cluster);
    // When each Pod was created, on the cluster's clock, as it happens (a watch, not a sample).
    const podCreatedAt: number[] = [];
    const pods = cluster.registry.get('', 'v1', 'pods')!;
    const podWatch = cluster.store.watch(
      pods,
      NS,
      { resourceVersion: cluster.store.resourceVersion() },
      (e) => {
        if (e.type === 'ADDED') podCreatedAt.push(cluster.clock.now());
      },
    );
    const startedAt = cluster.clock.now();
    createSet(cluster, 'crashy', {
      minAvailableReplicas: 2,
      images: { runtime: { image: BROKEN } },
    });
    const set = () => getSet(cluster, 'crashy');
    const unhealthy = await untilStored(cluster, 'InstancesHealthy=False', () => {
      const c = condition(set(), 'InstancesHealthy');
      return c?.status === 'False' ? c : undefined;
    });
    expect(unhealthy.reason).toBe(ConditionReasons.StartupFailureBackoff);
    expect(unhealthy.message).toMatch(/fail/i);

    // The loop goes on past its first backoff: both instances failed twice. Waited for as it is
    // written, not sampled at a fixed time: on a loaded machine the controller may take longer than a
    // few simulated minutes to get there, and that must not read as a missing failure.
    await untilStored(cluster, '4 startup failures', () => (set()?.status?.startupFailures ?? 0) >= 4);
    await clusterTimeReaches(cluster, startedAt + 300_000);
    podWatch.stop();
    // Without a backoff the pool would start a Pod every few milliseconds. With 10 s doubling per
    // failure (2 instances): starts at about 0, 20 s, 100 s and then not before 400 s. A slow
    // controller only starts them later, so the bound holds however loaded the machine is.
    expect(podCreatedAt.length).toBeGreaterThanOrEqual(4);
    expect(podCreatedAt.filter((t) => t < startedAt + 300_000).length).toBeLessThanOrEqual(8);
    expect(condition(set(), 'InstancesHealthy')?.status).toBe('False');
    expect(condition(set(), 'WarmBufferAvailable')?.status).toBe('False');

    // A fixed image: the next start after the backoff (at most 5 simulated minutes) works, and the pool recovers.
    patchSetSpec(cluster, 'crashy', {
      images: { runtime: { image: 'quay.io/jumpstarter-dev/virtual/qemu-runtime:latest' } },
    });
    await untilStored(cluster, 'the pool', () => set()?.status?.availableReplicas === 2, 30_000);
    await untilStored(
      cluster,
      'InstancesHealthy=True',
      () => condition(set(), 'InstancesHealthy')?.status === 'True',
    );
    await untilStored(cluster, 'Degraded=False', () => condition(set(), 'Degraded')?.status === 'False');
  });
});
