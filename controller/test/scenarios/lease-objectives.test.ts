/**
 * Lease-wait objectives and the demand history on the test cluster (issue 17): a lease served by a
 * warm instance and one that waited for a boot show in `status.leaseWait`; the set's demand history is
 * written to its own ConfigMap `<set>-demand` (controlled by the set) once the hour turns, and a
 * restarted controller continues it without counting a lease twice. An idle pool writes no ConfigMap.
 */
import { describe, expect, it } from '@jest/globals';
import { parseDemand } from '../../src/reconciler/demand/demand-config-map';
import type { DemandRecord } from '../../src/planner';
import type { TestCluster } from 'virtual-exporters-test-cluster';
import {
  CONTROLLER,
  NS,
  TEMPLATE_LABELS,
  createClass,
  createSet,
  getSet,
  patchSetSpec,
  scenarioPerTest,
  until,
  writesWhenSettled,
} from './support';

const startScenario = scenarioPerTest();
const HOUR = 3_600_000;

function demandObject(cluster: TestCluster, set: string) {
  const rt = cluster.registry.get('', 'v1', 'configmaps')!;
  if (!cluster.store.list(rt, NS).items.some((o) => o.metadata?.name === `${set}-demand`)) return undefined;
  return cluster.store.get(rt, NS, `${set}-demand`) as
    | {
        metadata: { ownerReferences?: { kind: string; name: string; uid: string }[] };
        data?: Record<string, string>;
      }
    | undefined;
}

function recorded(cluster: TestCluster, set: string): DemandRecord | undefined {
  const object = demandObject(cluster, set);
  return object ? parseDemand(object.data, cluster.clocks.controller.now()).record : undefined;
}

const arrivals = (record: DemandRecord | undefined) =>
  record?.history.buckets.reduce((n, b) => n + b.arrivals, 0) ?? 0;

/** Steps every machine's wall clock an hour ahead (the hour turns for the controller and the API server). */
function nextHour(cluster: TestCluster): void {
  for (const clock of [cluster.clocks.apiServer, cluster.clocks.kubelet, cluster.clocks.controller]) {
    clock.setOffsetMs(clock.offsetMs() + HOUR);
  }
}

const configMapWrites = (cluster: TestCluster) =>
  cluster.counters.total({
    identity: CONTROLLER,
    verb: ['create', 'patch', 'update'],
    resource: 'configmaps',
  });

describe('issue 17: lease-wait objectives and the demand history', () => {
  it('reports a warm hit and a cold wait, keeps the history in <set>-demand, and continues it after a restart', async () => {
    const scenario = await startScenario({ speedUp: 20 });
    const { cluster } = scenario;
    const leases = cluster.jumpstarter!.leases;
    createClass(cluster);
    createSet(cluster, 'obj', { minAvailableReplicas: 1, maxReplicas: 3, scaleDownCooldown: '1h' });
    const status = () => getSet(cluster, 'obj')?.status;
    await until('the warm buffer', () => status()?.availableReplicas === 1);

    // Two leases at once: one takes the warm instance, the other waits for an instance to boot.
    for (const name of ['first', 'second']) {
      leases.create({
        namespace: NS,
        name,
        selector: { matchLabels: { ...TEMPLATE_LABELS } },
        duration: '3h',
      });
    }
    const leaseWait = await until('both leases in status.leaseWait', () =>
      status()?.leaseWait?.leases === 2 ? status()!.leaseWait : undefined,
    );
    expect(leaseWait.warmHitRatio).toBe(0.5);
    expect(leaseWait.p95Seconds).toBeGreaterThan(0);
    expect(Date.parse(leaseWait.windowStart) % HOUR).toBe(0);
    expect(status()?.startupP95Seconds).toBeGreaterThanOrEqual(0);
    // Settled with both leases held: the objectives cause no status (or any other) write.
    expect(await writesWhenSettled(cluster, 60_000)).toBe(0);

    // The hour turns: the next pass writes the history to the set's own object.
    nextHour(cluster);
    patchSetSpec(cluster, 'obj', { scaleDownCooldown: '2h' });
    await until('the demand object', () => arrivals(recorded(cluster, 'obj')) === 2);
    const object = demandObject(cluster, 'obj')!;
    expect(object.metadata.ownerReferences).toEqual([
      expect.objectContaining({
        kind: 'ExporterSet',
        name: 'obj',
        uid: getSet(cluster, 'obj')!.metadata.uid,
      }),
    ]);
    expect(recorded(cluster, 'obj')!.served).toHaveLength(2);
    expect(Math.max(...recorded(cluster, 'obj')!.history.buckets.map((b) => b.peak))).toBe(2);

    // A restarted controller reads it back: the same leases are not counted again, a new one is.
    await scenario.manager.stop();
    await scenario.restart();
    leases.create({
      namespace: NS,
      name: 'third',
      selector: { matchLabels: { ...TEMPLATE_LABELS } },
      duration: '3h',
    });
    await until('the third lease served', () => status()?.leaseWait?.leases === 3);
    nextHour(cluster);
    patchSetSpec(cluster, 'obj', { scaleDownCooldown: '3h' });
    await until('the history continued', () => recorded(cluster, 'obj')?.served.length === 3);
    expect(arrivals(recorded(cluster, 'obj'))).toBe(3);
    expect(status()?.leaseWait?.leases).toBe(3);
  });

  it('writes no demand object for an idle pool', async () => {
    const scenario = await startScenario({ speedUp: 50 });
    const { cluster } = scenario;
    createClass(cluster);
    createSet(cluster, 'quiet', { minAvailableReplicas: 2, minReplicas: 1 });
    await until('the pool', () => getSet(cluster, 'quiet')?.status?.availableReplicas === 2);
    expect(await writesWhenSettled(cluster, 60_000, 10_000)).toBe(0);
    // Hours turn; the controller passes over the set again, and still writes no object.
    nextHour(cluster);
    patchSetSpec(cluster, 'quiet', { scaleDownCooldown: '10m' });
    nextHour(cluster);
    patchSetSpec(cluster, 'quiet', { scaleDownCooldown: '20m' });
    await until('the passes', () => getSet(cluster, 'quiet')?.status?.observedGeneration === 3);
    expect(configMapWrites(cluster)).toBe(0);
    expect(demandObject(cluster, 'quiet')).toBeUndefined();
  });
});
