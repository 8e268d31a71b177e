/**
 * §3.17 clocks and §3.19 status bounds against the test cluster, with the API server's, the kubelet's
 * and the controller's clocks set off true time: the startup backoff holds whatever the kubelet's clock
 * says, a new Exporter waiting for its credential is not failed because the API server's clock is
 * behind the controller's, and a status written with future times or an ordinal out of range is
 * recomputed, reported, and does not wedge or block the set.
 */
import { describe, expect, it } from '@jest/globals';
import { EventReasons, ExporterSetStatusBounds, jumpstarterCrds, ourCrds } from 'virtual-exporters/internal';
import type { TestCluster } from 'virtual-exporters-test-cluster';
import type { Exporter } from 'virtual-exporters/internal';
import {
  CONTROLLER,
  NS,
  createClass,
  createSet,
  eventsOf,
  getSet,
  ownedInstancesOf,
  patchSetSpec,
  scenarioPerTest,
  until,
} from './support';

const startScenario = scenarioPerTest();

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const BROKEN = 'registry.invalid/qemu-runtime:broken';

const created = (cluster: TestCluster, resource: 'pods' | 'exporters') =>
  cluster.counters.totalWithCode(201, { identity: CONTROLLER, verb: 'create', resource });

async function clusterTime(cluster: TestCluster, ms: number, timeoutMs = 30_000): Promise<void> {
  const from = cluster.clock.now();
  await until(`${ms / 1000} s of cluster time`, () => cluster.clock.now() - from >= ms, timeoutMs);
}

const podsOf = (cluster: TestCluster) =>
  cluster.store.list(cluster.registry.get('', 'v1', 'pods')!, NS).items;

function patchSetStatus(cluster: TestCluster, name: string, status: Record<string, unknown>): void {
  const rt = cluster.registry.get('virtualtarget.jumpstarter.dev', 'v1alpha1', 'exportersets')!;
  cluster.store.patch(rt, NS, name, 'merge', { status }, 'status');
}

/** Our CRDs with the status bounds taken out: a status as a hand-installed, looser CRD admits it. */
function crdsWithoutStatusBounds(): typeof ourCrds {
  const crds = JSON.parse(JSON.stringify(ourCrds)) as typeof ourCrds;
  for (const crd of crds) {
    if (crd.spec.names.kind !== 'ExporterSet') continue;
    for (const version of crd.spec.versions) {
      const status = version.schema?.openAPIV3Schema?.properties?.status?.properties ?? {};
      for (const field of Object.values(status)) {
        delete field.maximum;
        delete field.minimum;
      }
    }
  }
  return [...crds, ...jumpstarterCrds];
}

describe('§3.17 clocks against the test cluster', () => {
  it('a kubelet an hour behind does not switch off the startup backoff', async () => {
    const { cluster } = await startScenario({ speedUp: 100, clockOffsets: { kubelet: -HOUR } });
    cluster.kubelet!.injectFault({ namespace: NS, image: BROKEN }, { kind: 'crash', message: 'boom' });
    createClass(cluster);
    createSet(cluster, 'crashy', { minAvailableReplicas: 2, images: { runtime: { image: BROKEN } } });
    const failures = () => getSet(cluster, 'crashy')?.status?.startupFailures ?? 0;
    await until('the first failures counted', () => failures() >= 2);
    await clusterTime(cluster, 4 * MINUTE);
    // Backoff 10 s doubling per failure, 2 instances: starts at about 0, 20 s and 100 s.
    expect(created(cluster, 'pods')).toBeLessThanOrEqual(8);
    await until('more failures counted', () => failures() >= 4);
  });

  it('a kubelet an hour ahead: one crash does not block the pool for an hour', async () => {
    const { cluster } = await startScenario({ speedUp: 50, clockOffsets: { kubelet: HOUR } });
    cluster.kubelet!.injectFault({ namespace: NS }, { kind: 'crash', message: 'boom' }, { times: 1 });
    createClass(cluster);
    const from = cluster.clock.now();
    createSet(cluster, 'pool', { minAvailableReplicas: 1 });
    await until('an available instance', () => getSet(cluster, 'pool')?.status?.availableReplicas === 1);
    expect(getSet(cluster, 'pool')?.status?.startupFailures ?? 0).toBeLessThanOrEqual(1);
    expect(cluster.clock.now() - from).toBeLessThan(2 * MINUTE);
  });

  it('controller 15 min ahead of the API server: new Exporters waiting for their credential are not failed', async () => {
    // Jumpstarter takes 5 s to issue each credential, so every new Exporter is seen waiting for it.
    const { cluster } = await startScenario({
      speedUp: 50,
      clockOffsets: { controller: 15 * MINUTE },
      credentialDelayMs: 5_000,
    });
    createClass(cluster);
    createSet(cluster, 'pool', { minAvailableReplicas: 2 });
    await until('2 available', () => getSet(cluster, 'pool')?.status?.availableReplicas === 2);
    await clusterTime(cluster, 3 * MINUTE);
    expect(created(cluster, 'exporters')).toBe(2);
    expect(getSet(cluster, 'pool')?.status?.startupFailures).toBe(0);
    expect(getSet(cluster, 'pool')?.status?.availableReplicas).toBe(2);
  });

  it('API server set back 10 min: the re-rendered Pods of an InPlaceReuse pool come online', async () => {
    const { cluster } = await startScenario({ speedUp: 50 });
    createClass(cluster);
    createSet(cluster, 'pool', { minAvailableReplicas: 2, maxReplicas: 2, recycleStrategy: 'InPlaceReuse' });
    await until('2 available', () => getSet(cluster, 'pool')?.status?.availableReplicas === 2);
    const exporters = ownedInstancesOf(cluster, 'pool').map((e) => e.metadata?.name ?? '');
    const podUid = (name: string) => podsOf(cluster).find((p) => p.metadata.name === name)?.metadata.uid;
    const firstPods = exporters.map(podUid);
    // The Exporters keep the creationTimestamps of the earlier clock; their next Pods boot after it.
    cluster.clocks.apiServer.setOffsetMs(-10 * MINUTE);
    cluster.clocks.kubelet.setOffsetMs(-10 * MINUTE);
    for (const name of exporters) cluster.kubelet!.crash(NS, name, 'boom');
    await until('both Pods rendered again', () =>
      exporters.every((name, i) => ![undefined, firstPods[i]].includes(podUid(name))),
    );
    const online = (e: Exporter) =>
      e.status?.conditions?.some((c) => c.type === 'Online' && c.status === 'True') === true;
    // A crashed exporter stays online for 60 s (until Jumpstarter misses it), so wait past that.
    await clusterTime(cluster, 90_000);
    await until(
      'both exporters online in their new Pods and available',
      () =>
        ownedInstancesOf(cluster, 'pool').filter(online).length === 2 &&
        getSet(cluster, 'pool')?.status?.availableReplicas === 2,
    );
    expect(
      ownedInstancesOf(cluster, 'pool')
        .map((e) => e.metadata?.name)
        .sort(),
    ).toEqual(exporters.sort());
  });
});

describe('§3.19 status read back against the test cluster', () => {
  it('refuses an out-of-range status.nextOrdinal at admission', async () => {
    const { cluster } = await startScenario();
    createClass(cluster);
    createSet(cluster, 'pool', {});
    expect(() => patchSetStatus(cluster, 'pool', { nextOrdinal: 2 ** 53 - 1 })).toThrow(/nextOrdinal/);
  });

  it('status.nextOrdinal 2^53-1 under a looser CRD: recomputed, reported, and the set still scales', async () => {
    const { cluster } = await startScenario({ speedUp: 50, crds: crdsWithoutStatusBounds() });
    createClass(cluster);
    createSet(cluster, 'pool', { minAvailableReplicas: 1 });
    await until('1 available', () => getSet(cluster, 'pool')?.status?.availableReplicas === 1);
    patchSetStatus(cluster, 'pool', { nextOrdinal: 2 ** 53 - 1 });
    patchSetSpec(cluster, 'pool', { minAvailableReplicas: 2 });
    await until('2 available', () => getSet(cluster, 'pool')?.status?.availableReplicas === 2);
    const next = getSet(cluster, 'pool')?.status?.nextOrdinal ?? -1;
    expect(next).toBeGreaterThan(0);
    expect(next).toBeLessThanOrEqual(ExporterSetStatusBounds.nextOrdinal);
    const reported = eventsOf(cluster, 'pool').filter((e) => e.reason === EventReasons.StatusCorrected);
    expect(reported.map((e) => e.message)).toContainEqual(
      expect.stringContaining('status.nextOrdinal was 9007199254740991'),
    );
  });

  it('future scaleDownWindowStart and lastStartupFailureTime: surplus still goes after the cooldown', async () => {
    const { cluster } = await startScenario({ speedUp: 50 });
    createClass(cluster);
    createSet(cluster, 'pool', { minAvailableReplicas: 3, scaleDownCooldown: '1m' });
    await until('3 available', () => getSet(cluster, 'pool')?.status?.availableReplicas === 3);
    patchSetSpec(cluster, 'pool', { minAvailableReplicas: 1 });
    await until('the window', () => getSet(cluster, 'pool')?.status?.scaleDownWindowStart);
    const day = new Date(cluster.clock.now() + 24 * HOUR).toISOString().replace(/\.\d+Z$/, 'Z');
    patchSetStatus(cluster, 'pool', {
      scaleDownWindowStart: day,
      startupFailures: 30,
      lastStartupFailureTime: day,
    });
    const from = cluster.clock.now();
    await until('the surplus gone', () => ownedInstancesOf(cluster, 'pool').length === 1, 30_000);
    // The window restarts when the controller reads the future start: at most one cooldown more.
    expect(cluster.clock.now() - from).toBeLessThan(2 * MINUTE + 10_000);
    const reasons = eventsOf(cluster, 'pool').map((e) => e.reason);
    expect(reasons).toContain(EventReasons.StatusCorrected);
  });
});
