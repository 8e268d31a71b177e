/**
 * The controller changes the benchmarks called for keep its behaviour (bench/README.md, P2 and P4):
 * Pods are cached as what the controller reads of them; a pass renders an instance's config Secret
 * only when something it is rendered from changed, and reads the CA bundle without waiting for a
 * round trip once it is known — while a rotated token still makes the desired config differ.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { CoreV1Api } from '@kubernetes/client-node';
import { Labels, qemuProvisioner, type Provisioner } from 'virtual-exporters/internal';
import { seedSettledPools } from '../../bench/support/seed';
import { waitUntil } from '../../bench/support/clock';
import { createClients } from '../../controller/src/kube/clients';
import { secretDataDigest, type CachedSecret } from '../../controller/src/kube/cache-views';
import { createInformers, type ControllerInformers } from '../../controller/src/kube/informers';
import { CaBundleCache } from '../../controller/src/reconciler/ca-bundle-cache';
import { Expectations } from '../../controller/src/reconciler/expectations';
import { RenderMemo } from '../../controller/src/reconciler/render-memo';
import { addSetIndexes } from '../../controller/src/reconciler/set-index';
import { readSetWorld, type SnapshotDeps } from '../../controller/src/reconciler/read-set-world';
import { PodWaits } from '../../controller/src/reconciler/pod-wait-tracker';
import { StatusMemo } from '../../controller/src/reconciler/status-memo';
import { startTestCluster, type TestCluster } from 'virtual-exporters-test-cluster';

const NS = 'cache';
let cluster: TestCluster | undefined;
let informers: ControllerInformers | undefined;
afterEach(async () => {
  await informers?.stop();
  await cluster?.stop();
  informers = cluster = undefined;
});

async function seededWorld() {
  cluster = await startTestCluster({ namespaces: [NS], speedUp: 10, jumpstarter: true, kubelet: true });
  await seedSettledPools(cluster, { namespaces: [NS], setsPerNamespace: 1, instancesPerSet: 3 });
  const clients = createClients(cluster.kubeConfigFor('controller'));
  informers = createInformers(clients, { namespaces: [NS], clock: cluster.clock });
  addSetIndexes(informers); // as the manager does: a pass reads its set's Exporters from the set index
  informers.start();
  await informers.synced;
  let renders = 0;
  let caReads = 0;
  const provisioner: Provisioner = {
    ...qemuProvisioner,
    render: (instance) => {
      renders += 1;
      return qemuProvisioner.render(instance);
    },
  };
  const core = new Proxy(clients.core, {
    get(target, property, receiver) {
      if (property === 'readNamespacedConfigMap') caReads += 1;
      return Reflect.get(target, property, receiver) as unknown;
    },
  }) as CoreV1Api;
  const deps: SnapshotDeps = {
    caches: informers,
    caBundles: new CaBundleCache(core, cluster.clock),
    renders: new RenderMemo(),
    provisioner,
    expectations: new Expectations(cluster.clock),
    statuses: new StatusMemo(),
    podWaits: new PodWaits(cluster.clock),
    clock: cluster.clock,
  };
  return { deps, counts: () => ({ renders, caReads }) };
}

describe('controller cache and snapshot (bench fixes)', () => {
  it('caches a Pod without its spec but with what the planner and the handlers read', async () => {
    await seededWorld();
    const pod = informers!.pods.get(NS, 'pool-0-0')!;
    expect(pod.spec).toBeUndefined();
    expect(pod.metadata).toMatchObject({
      name: 'pool-0-0',
      namespace: NS,
      labels: { [Labels.exporterSetName]: 'pool-0' },
    });
    expect(pod.metadata?.uid).toBeDefined();
    expect(pod.metadata?.resourceVersion).toBeDefined();
    expect(typeof pod.metadata?.creationTimestamp).toBe('string');
    expect(pod.status?.phase).toBe('Running');
    expect(pod.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
  });

  it('renders configs once per input and reads the CA bundle once, yet sees a rotated token', async () => {
    const { deps, counts } = await seededWorld();
    const first = await readSetWorld(`${NS}/pool-0`, deps);
    expect(counts()).toEqual({ renders: 3, caReads: 1 });
    for (const instance of first!.snapshot.instances) {
      // In sync: the cache holds a digest of the config, not its data, and the planner gets none.
      expect(instance.configSecret).toBeDefined();
      expect(instance.configSecret?.data).toBeUndefined();
      expect(instance.desiredConfigSecretData).toBeUndefined();
    }

    await readSetWorld(`${NS}/pool-0`, deps);
    expect(counts()).toEqual({ renders: 3, caReads: 1 });

    const secretVersion = informers!.secrets.get(NS, 'pool-0-1-exporter')?.metadata?.resourceVersion;
    cluster!.jumpstarter!.rotateToken(NS, 'pool-0-1');
    await waitUntil(
      'the rotated token in the cache',
      () => informers!.secrets.get(NS, 'pool-0-1-exporter')?.metadata?.resourceVersion !== secretVersion,
    );
    const third = await readSetWorld(`${NS}/pool-0`, deps);
    expect(counts()).toEqual({ renders: 4, caReads: 1 });
    const rotated = third!.snapshot.instances.find((i) => i.exporter.metadata?.name === 'pool-0-1')!;
    expect(secretDataDigest(rotated.desiredConfigSecretData)).not.toBe(
      (rotated.configSecret as CachedSecret).dataDigest,
    );
    const token = Buffer.from(
      informers!.secrets.get(NS, 'pool-0-1-exporter')!.data!.token!,
      'base64',
    ).toString();
    const config = Object.values(rotated.desiredConfigSecretData!).map((v) =>
      Buffer.from(v, 'base64').toString(),
    );
    expect(config.join('\n')).toContain(token);
  });
});
