/**
 * A failed Pod in upstream's dialect (INTEROP §1.3, SPEC §3.9): the kubelet simulator fails the first
 * Pod of a set before its exporter is ready. The controller replaces the instance at once, and
 * upstream's `Degraded=True/PodsFailing` stays on the set — naming the Pod and why it failed — after
 * the failed Pod is gone, while the startup backoff it started lasts; then Degraded returns to healthy
 * and the pool to its buffer.
 */
import { describe, expect, it } from '@jest/globals';
import type { Condition } from 'virtual-exporters/internal';
import {
  NS,
  condition,
  createClass,
  createSet,
  getSet,
  instancesOf,
  scenarioPerTest,
  until,
} from './support';

const startScenario = scenarioPerTest();

/** The default startup backoff after one failure (cluster ms). */
const FIRST_BACKOFF_MS = 10_000;

describe('§3.9 a failed Pod in upstream dialect', () => {
  it('keeps Degraded=PodsFailing with the Pod and its reason while the failure is recent', async () => {
    // Slow enough that the backoff (10 s of cluster time) lasts 2 s of wall time.
    const { cluster } = await startScenario({ speedUp: 5 });
    cluster.kubelet!.injectFault(
      { namespace: NS, name: 'flaky-0' },
      { kind: 'crash', message: 'qemu: no such machine' },
      { times: 1 },
    );
    createClass(cluster);
    createSet(cluster, 'flaky', { minAvailableReplicas: 1 });
    const set = () => getSet(cluster, 'flaky');

    // The first status written after the failed instance was replaced: no Pod is Failed any more.
    const replaced = await until('the failed instance replaced', () => {
      const status = set()?.status;
      const gone = !instancesOf(cluster, 'flaky').some((e) => e.metadata?.name === 'flaky-0');
      return gone && (status?.startupFailures ?? 0) > 0 && status?.podsFailed === 0 ? status : undefined;
    });
    const failedAt = Date.parse(replaced.lastStartupFailureTime ?? '');
    expect(cluster.clock.now() - failedAt).toBeLessThan(FIRST_BACKOFF_MS);
    const degraded = replaced.conditions?.find((c: Condition) => c.type === 'Degraded');
    expect(degraded).toMatchObject({ status: 'True', reason: 'PodsFailing' });
    expect(degraded?.message).toContain('Pod flaky-0 (');
    expect(degraded?.message).toContain('qemu: no such machine');

    // Once the failure is no longer recent, Degraded follows upstream's rules again.
    await until('Degraded healthy', () => condition(set(), 'Degraded')?.status === 'False', 30_000);
    expect(cluster.clock.now() - failedAt).toBeGreaterThanOrEqual(FIRST_BACKOFF_MS);
    await until('the buffer refilled', () => set()?.status?.availableReplicas === 1, 30_000);
    expect(condition(set(), 'Degraded')).toMatchObject({ status: 'False', reason: 'AllReplicasHealthy' });
  });
});
