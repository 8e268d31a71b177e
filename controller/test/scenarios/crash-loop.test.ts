/**
 * A crash loop (SPEC §3.9): with a runtime image that always fails before its exporter
 * is ready, each failure counts as a startup failure of the set, replacements back off exponentially
 * (10 s doubling to 5 min), `InstancesHealthy` says why, and the Pods created over 5 simulated minutes stay
 * few. Once the image is fixed, the pool recovers.
 */
import { describe, expect, it } from '@jest/globals';
import { ConditionReasons } from 'virtual-exporters/internal';
import {
  CONTROLLER,
  NS,
  condition,
  createClass,
  createSet,
  getSet,
  patchSetSpec,
  scenarioPerTest,
  until,
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
    const startedAt = cluster.clock.now();
    createSet(cluster, 'crashy', {
      minAvailableReplicas: 2,
      images: { runtime: { image: BROKEN } },
    });
    const set = () => getSet(cluster, 'crashy');
    const unhealthy = await until('InstancesHealthy=False', () => {
      const c = condition(set(), 'InstancesHealthy');
      return c?.status === 'False' ? c : undefined;
    });
    expect(unhealthy.reason).toBe(ConditionReasons.StartupFailureBackoff);
    expect(unhealthy.message).toMatch(/fail/i);

    const podsCreated = () =>
      cluster.counters.totalWithCode(201, { identity: CONTROLLER, verb: 'create', resource: 'pods' });
    await until('5 minutes of cluster time', () => cluster.clock.now() - startedAt >= 300_000, 30_000);
    // Without a backoff the pool would start a Pod every few milliseconds. With 10 s doubling per
    // failure (2 instances): starts at about 0, 20 s, 100 s and then not before 400 s.
    const created = podsCreated();
    expect(created).toBeGreaterThanOrEqual(4);
    expect(created).toBeLessThanOrEqual(8);
    expect(set()?.status?.startupFailures).toBeGreaterThanOrEqual(4);
    expect(condition(set(), 'InstancesHealthy')?.status).toBe('False');
    expect(condition(set(), 'WarmBufferAvailable')?.status).toBe('False');

    // A fixed image: the next start after the backoff works, and the pool recovers.
    patchSetSpec(cluster, 'crashy', {
      images: { runtime: { image: 'quay.io/jumpstarter-dev/virtual/qemu-runtime:latest' } },
    });
    await until('the pool', () => set()?.status?.availableReplicas === 2, 30_000);
    await until('InstancesHealthy=True', () => condition(set(), 'InstancesHealthy')?.status === 'True');
    await until('Degraded=False', () => condition(set(), 'Degraded')?.status === 'False');
  });
});
