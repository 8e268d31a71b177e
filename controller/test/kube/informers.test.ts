/**
 * The controller's informers against the test cluster, through client-node: every kind's cache
 * follows creates, updates and deletes; Exporters are kept when a set controls them or they carry the
 * set label, Pods and Secrets kept when labelled or owned by an Exporter;
 * per-namespace watching sees only its namespaces; the caches converge through a forced 410, clean
 * and abrupt watch drops and failing lists (which stop a bare client-node informer for good); and
 * `stop()` leaves nothing open.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { API_VERSION, JUMPSTARTER_API_VERSION, Labels, type Exporter } from 'virtual-exporters/internal';
import { createClients, type KubeClients } from '../../src/kube/clients';
import { createInformers, type ControllerInformers } from '../../src/kube/informers';
import type { InformerErrorContext } from '../../src/kube/informer-contract';
import { mergePatch } from '../../src/kube/patch';
import { startTestCluster, type FaultRule, type TestCluster } from 'virtual-exporters-test-cluster';
import { eventually, exporter, exporterSet, names, pod } from './support';

let cluster: TestCluster;
let running: ControllerInformers[] = [];

beforeAll(async () => {
  cluster = await startTestCluster({ namespaces: ['lab', 'other', 'outside'], watchTimeoutSeconds: 5 });
});
afterEach(async () => {
  await Promise.all(running.map((informers) => informers.stop()));
  running = [];
  cluster.faults.clear();
});
afterAll(() => cluster.stop());

interface Started {
  clients: KubeClients;
  informers: ControllerInformers;
  errors: { error: unknown; context: InformerErrorContext }[];
}

/**
 * Informers as `identity` (so faults and counters are theirs alone), started after `faults` were
 * added for that identity; a fast restart backoff keeps recovery quick.
 */
function start(identity: string, namespaces?: string[], faults: FaultRule[] = []): Started {
  for (const rule of faults) cluster.faults.add({ ...rule, identity });
  const clients = createClients(cluster.kubeConfigFor(identity));
  const errors: Started['errors'] = [];
  const informers = createInformers(clients, {
    ...(namespaces ? { namespaces } : {}),
    restartBackoff: { initialMs: 10, maxMs: 40 },
    onError: (error, context) => errors.push({ error, context }),
  });
  running.push(informers);
  informers.start();
  return { clients, informers, errors };
}

const admin = () => createClients(cluster.kubeConfig);

describe('informers › following the cluster', () => {
  it('fill every cache from the initial list and follow creates, updates and deletes', async () => {
    const api = admin();
    await api.exporterSets.create('lab', exporterSet('before'));
    const { informers } = start('follow');
    await informers.synced;
    expect(informers.hasSynced()).toBe(true);
    expect(names(informers.exporterSets.list('lab'))).toEqual(['before']);

    const events: string[] = [];
    for (const informer of informers.all) {
      for (const type of ['add', 'update', 'delete'] as const) {
        informer.on(type, (object) => events.push(`${type} ${informer.resource} ${object.metadata?.name}`));
      }
    }
    await api.exporterSets.create('lab', exporterSet('pool'));
    await api.virtualTargetClasses.create('lab', {
      apiVersion: API_VERSION,
      kind: 'VirtualTargetClass',
      metadata: { name: 'qemu' },
      spec: { provisioner: 'qemu.jumpstarter.dev' },
    });
    await api.exporters.create('lab', exporter('pool-0', 'pool'));
    await api.leases.create('lab', {
      apiVersion: JUMPSTARTER_API_VERSION,
      kind: 'Lease',
      metadata: { name: 'lease-1' },
      spec: { clientRef: { name: 'someone' }, selector: { matchLabels: { pool: 'pool' } } },
    });
    await api.core.createNamespacedPod({ namespace: 'lab', body: pod('pool-0', 'pool') });
    await api.core.createNamespacedSecret({
      namespace: 'lab',
      body: { metadata: { name: 'exporter-config-pool-0', labels: { [Labels.exporterSetName]: 'pool' } } },
    });
    await eventually(() =>
      expect(events.sort()).toEqual([
        'add exporters pool-0',
        'add exportersets pool',
        'add leases lease-1',
        'add pods pool-0',
        'add secrets exporter-config-pool-0',
        'add virtualtargetclasses qemu',
      ]),
    );
    expect(informers.exporters.get('lab', 'pool-0')?.metadata.labels).toEqual({
      [Labels.exporterSetName]: 'pool',
    });
    expect(informers.pods.byLabel(Labels.exporterSetName, 'pool').map((p) => p.metadata?.name)).toEqual([
      'pool-0',
    ]);

    events.length = 0;
    await api.exporterSets.patch('lab', 'pool', mergePatch({ metadata: { labels: { touched: 'yes' } } }));
    await api.core.deleteNamespacedPod({ name: 'pool-0', namespace: 'lab' });
    await eventually(() => expect(events.sort()).toEqual(['delete pods pool-0', 'update exportersets pool']));
    expect(informers.exporterSets.get('lab', 'pool')?.metadata.labels).toEqual({ touched: 'yes' });
    expect(informers.pods.get('lab', 'pool-0')).toBeUndefined();
  });

  it('cache Pods and Secrets as wire JSON, from the list and from watch events alike', async () => {
    const api = admin();
    await api.core.createNamespacedPod({ namespace: 'other', body: pod('listed', 'wire') });
    const { informers } = start('wire', ['other']);
    await informers.synced;
    await api.core.createNamespacedPod({ namespace: 'other', body: pod('watched', 'wire') });
    await eventually(() => expect(informers.pods.get('other', 'watched')).toBeDefined());
    for (const name of ['listed', 'watched']) {
      const cached = informers.pods.get('other', name)!;
      expect(typeof cached.metadata?.creationTimestamp).toBe('string');
      expect(Number.isNaN(Date.parse(cached.metadata!.creationTimestamp!))).toBe(false);
    }
  });
});

describe('informers › label filtering and namespaces', () => {
  it('keep only what an ExporterSet created among Exporters, Pods and Secrets', async () => {
    const api = admin();
    const { informers } = start('filter', ['outside']);
    await informers.synced;
    await api.exporters.create('outside', exporter('foreign'));
    await api.exporters.create('outside', exporter('ours-0', 'ours'));
    await api.core.createNamespacedPod({ namespace: 'outside', body: pod('foreign') });
    await api.core.createNamespacedPod({ namespace: 'outside', body: pod('ours-0', 'ours') });
    await api.core.createNamespacedSecret({ namespace: 'outside', body: { metadata: { name: 'foreign' } } });
    await api.core.createNamespacedSecret({
      namespace: 'outside',
      body: { metadata: { name: 'ours-0', labels: { [Labels.exporterSetName]: 'ours' } } },
    });
    await eventually(() => {
      expect(names(informers.exporters.list())).toEqual(['ours-0']);
      expect(names(informers.pods.list())).toEqual(['ours-0']);
      expect(names(informers.secrets.list())).toEqual(['ours-0']);
    });
    // Losing the label takes an object out of the cache (the watch reports it as deleted).
    await api.exporters.patch(
      'outside',
      'ours-0',
      mergePatch({ metadata: { labels: { [Labels.exporterSetName]: null } } }),
    );
    await eventually(() => expect(informers.exporters.list()).toEqual([]));
  });

  it('keep the Exporters a set controls whatever their labels, and drop them once they are neither', async () => {
    const api = admin();
    const { informers } = start('owned', ['outside']);
    await informers.synced;
    const deleted: (string | undefined)[] = [];
    informers.exporters.on('delete', (e) =>
      deleted.push((e.metadata as { ownerReferences?: { name?: string }[] }).ownerReferences?.[0]?.name),
    );
    // A real owner: the garbage collector deletes what a missing owner owned.
    const set = await api.exporterSets.create('outside', exporterSet('upstream'));
    const owner = {
      apiVersion: API_VERSION,
      kind: 'ExporterSet',
      name: 'upstream',
      uid: set.metadata!.uid!,
      controller: true,
    };
    // As upstream's controller makes them: generateName, the template labels only, a controller owner.
    const made = await api.exporters.create('outside', {
      apiVersion: JUMPSTARTER_API_VERSION,
      kind: 'Exporter',
      metadata: { generateName: 'upstream-', labels: { pool: 'upstream' }, ownerReferences: [owner] },
      spec: {},
    } as Exporter);
    const name = made.metadata!.name!;
    // Owned, but not as a controller: not an instance of anything.
    await api.exporters.create('outside', {
      ...exporter('bystander'),
      metadata: { name: 'bystander', ownerReferences: [{ ...owner, controller: false }] },
    } as Exporter);
    await eventually(() => expect(names(informers.exporters.list('outside'))).toEqual([name]));
    expect(informers.exporters.get('outside', name)?.metadata.labels).toEqual({ pool: 'upstream' });

    await api.exporters.patch('outside', name, mergePatch({ metadata: { ownerReferences: [] } }));
    await eventually(() => expect(informers.exporters.list('outside')).toEqual([]));
    // The handlers see the last version they knew: whose set to tell.
    expect(deleted).toEqual(['upstream']);
  });

  it('keep the Pods an Exporter owns whatever their labels, and drop them once they are neither', async () => {
    const api = admin();
    const { informers } = start('pods', ['outside']);
    await informers.synced;
    const owner = await api.exporters.create('outside', exporter('adopted-pod-owner'));
    const ownerRef = {
      apiVersion: JUMPSTARTER_API_VERSION,
      kind: 'Exporter',
      name: 'adopted-pod-owner',
      uid: owner.metadata!.uid!,
      controller: true,
    };
    // An adopted instance's Pod without the set label, beside a Pod of nobody's and one a Deployment owns.
    await api.core.createNamespacedPod({
      namespace: 'outside',
      body: {
        ...pod('adopted-pod-owner'),
        metadata: { name: 'adopted-pod-owner', ownerReferences: [ownerRef] },
      },
    });
    await api.core.createNamespacedPod({ namespace: 'outside', body: pod('nobodys') });
    await api.core.createNamespacedPod({
      namespace: 'outside',
      body: {
        ...pod('app'),
        metadata: {
          name: 'app',
          ownerReferences: [
            { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'app', uid: 'u-1', controller: true },
          ],
        },
      },
    });
    const cached = () =>
      names(informers.pods.list('outside')).filter((n) =>
        ['adopted-pod-owner', 'nobodys', 'app'].includes(n ?? ''),
      );
    await eventually(() => expect(cached()).toEqual(['adopted-pod-owner']));

    await api.core.patchNamespacedPod(
      { name: 'adopted-pod-owner', namespace: 'outside', body: { metadata: { ownerReferences: [] } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await eventually(() => expect(cached()).toEqual([]));
  });

  it('watch only the given namespaces, one watch each, and answer per namespace', async () => {
    const api = admin();
    for (const ns of ['lab', 'other', 'outside']) await api.exporterSets.create(ns, exporterSet(`ns-${ns}`));
    const { informers } = start('namespaces', ['lab', 'other', 'lab']);
    await informers.synced;
    const inThese = (list: readonly { metadata?: { name?: string } }[]) =>
      names(list).filter((n) => n?.startsWith('ns-'));
    expect(inThese(informers.exporterSets.list())).toEqual(['ns-lab', 'ns-other']);
    expect(inThese(informers.exporterSets.list('other'))).toEqual(['ns-other']);
    expect(informers.exporterSets.list('outside')).toEqual([]);
    expect(informers.exporterSets.get('outside', 'ns-outside')).toBeUndefined();
    expect(informers.exporterSets.get('lab', 'ns-lab')?.metadata.name).toBe('ns-lab');
    await eventually(() => {
      const watches = cluster.counters.snapshot({
        identity: 'namespaces',
        verb: 'watch',
        resource: 'exportersets',
      });
      expect(watches.map((w) => w.namespace).sort()).toEqual(['lab', 'other']);
    });
  });
});

describe('informers › recovery', () => {
  /** Creates, updates and deletes sets in `ns` while faults are active. */
  async function churn(api: KubeClients, ns: string, prefix: string): Promise<void> {
    for (let i = 0; i < 4; i++) await api.exporterSets.create(ns, exporterSet(`${prefix}-${i}`));
    await api.exporterSets.patch(ns, `${prefix}-0`, mergePatch({ metadata: { labels: { changed: 'yes' } } }));
    await api.exporterSets.delete(ns, `${prefix}-1`);
  }

  /** The cache equals the server's list of `ns` (names and resourceVersions). */
  async function converged(api: KubeClients, informers: ControllerInformers, ns: string): Promise<void> {
    await eventually(async () => {
      const list = await api.exporterSets.list(ns);
      const view = (items: readonly { metadata?: { name?: string; resourceVersion?: string } }[]) =>
        items.map((i) => `${i.metadata?.name}@${i.metadata?.resourceVersion}`).sort();
      expect(view(informers.exporterSets.list(ns))).toEqual(view(list.items));
    });
  }

  it('re-lists after a 410 on the watch and converges', async () => {
    const api = admin();
    const { informers } = start(
      'expired',
      ['lab'],
      [{ kind: 'expireWatch', resource: 'exportersets', times: 1 }],
    );
    await informers.synced;
    await churn(api, 'lab', 'gone');
    await converged(api, informers, 'lab');
    expect(cluster.counters.total({ identity: 'expired', verb: 'list', resource: 'exportersets' })).toBe(2);
  });

  it('re-watches after watches end cleanly and converges', async () => {
    const api = admin();
    const { informers, errors } = start(
      'dropped',
      ['lab'],
      [{ kind: 'dropWatch', resource: 'exportersets', afterEvents: 1, times: 3 }],
    );
    await informers.synced;
    await churn(api, 'lab', 'drop');
    await converged(api, informers, 'lab');
    expect(errors).toEqual([]); // a clean end of stream is not an error
    expect(
      cluster.counters.total({ identity: 'dropped', verb: 'watch', resource: 'exportersets' }),
    ).toBeGreaterThanOrEqual(4);
  });

  it('restarts after a watch connection is reset (which stops a bare ListWatch) and converges', async () => {
    const api = admin();
    const { informers, errors } = start(
      'reset',
      ['lab'],
      [{ kind: 'dropWatch', resource: 'exportersets', afterEvents: 1, abrupt: true, times: 2 }],
    );
    await informers.synced;
    await churn(api, 'lab', 'reset');
    await converged(api, informers, 'lab');
    expect(errors.map((e) => e.context)).toEqual([
      { resource: 'exportersets', namespace: 'lab', retryInMs: 10, source: 'watch' },
      { resource: 'exportersets', namespace: 'lab', retryInMs: 10, source: 'watch' }, // events reset the backoff
    ]);
  });

  it('retries a failing initial list with backoff and only then reports synced', async () => {
    const { informers, errors } = start('list-fails', undefined, [
      { kind: 'error', code: 500, verb: 'list', resource: 'pods', times: 3 },
    ]);
    await informers.synced;
    expect(informers.pods.hasSynced()).toBe(true);
    expect(errors.map((e) => e.context)).toEqual([
      { resource: 'pods', retryInMs: 10, source: 'watch' },
      { resource: 'pods', retryInMs: 20, source: 'watch' },
      { resource: 'pods', retryInMs: 40, source: 'watch' },
    ]);
    expect(cluster.counters.total({ identity: 'list-fails', verb: 'list', resource: 'pods' })).toBe(4);
  });
});

describe('informers › handlers and stopping', () => {
  it('report a throwing handler and still deliver the event to the others', async () => {
    const api = admin();
    const { informers, errors } = start('handlers', ['other']);
    const seen: string[] = [];
    informers.exporterSets.on('add', () => {
      throw new Error('handler bug');
    });
    informers.exporterSets.on('add', (set) => seen.push(set.metadata.name!));
    await informers.synced;
    await api.exporterSets.create('other', exporterSet('handled'));
    await eventually(() => expect(seen).toContain('handled'));
    expect(
      errors.some((e) => e.context.source === 'handler' && (e.error as Error).message === 'handler bug'),
    ).toBe(true);
  });

  it('stopped while listing: rejects synced, opens no watch and waits for the list in flight', async () => {
    const { informers } = start('early-stop', ['lab'], [{ kind: 'latency', ms: 100, verb: 'list' }]);
    const synced = informers.synced;
    await informers.stop();
    await expect(synced).rejects.toThrow('informer stopped before its cache synced');
    await new Promise((resolve) => setTimeout(resolve, 20));
    // One list per informer: sets, classes, Exporters, Leases, Pods, Secrets, ExporterOperations,
    // ControllerRevisions.
    expect(cluster.counters.total({ identity: 'early-stop', verb: 'list' })).toBe(8);
    expect(cluster.counters.total({ identity: 'early-stop', verb: 'watch' })).toBe(0);
  });
});
