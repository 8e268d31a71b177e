/**
 * Conformance of watches, through client-node's `Watch` and `makeInformer`: a watch resumes after a
 * resourceVersion with exactly the later events, a too-old version is answered with a 410 ERROR
 * event, and an informer's cache converges on the server's state through 410s, dropped, truncated
 * and timed-out watches — the failures every long-running controller meets.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import {
  makeInformer,
  Watch,
  type Informer,
  type KubeConfig,
  type ObjectCache,
  type V1ConfigMap,
} from '@kubernetes/client-node';
import { startTestCluster, type FaultRule } from '../src';
import {
  asTestCluster,
  BACKGROUND_MS,
  backend,
  clientsFor,
  eventually,
  exporterSet,
  exporterSets,
  START_TIMEOUT_MS,
  startConformanceCluster,
  testClusterOnly,
  type Clients,
  type ConformanceCluster,
} from './conformance-support';

let cluster: ConformanceCluster;
let api: Clients;

beforeAll(async () => {
  // Short server-side watch timeouts, so re-watching after a timeout is exercised too: 0.2 to 0.4 s on
  // the test cluster, 1 to 2 s on kube-apiserver (--min-request-timeout, whole seconds; default 1800).
  cluster = await startConformanceCluster(
    ['default'],
    { watchTimeoutSeconds: 0.2 },
    { apiServerFlags: ['--min-request-timeout=1'] },
  );
  api = clientsFor(cluster.kubeConfig);
}, START_TIMEOUT_MS);
afterAll(() => cluster?.stop());
afterEach(() => {
  if (cluster?.backend === 'test') cluster.faults.clear();
});

const PATH = '/api/v1/namespaces/default/configmaps';
const SETS_PATH = `/apis/${exporterSets.group}/${exporterSets.version}/namespaces/default/${exporterSets.plural}`;

/** What makeInformer returns: an informer with its cache. */
type Cache = Informer<V1ConfigMap> & ObjectCache<V1ConfigMap>;

interface Received {
  type: string;
  name?: string;
  code?: number;
}

/** Watches `path` from `resourceVersion` until `count` events arrived or the stream ended. */
function watchEvents(
  kc: KubeConfig,
  query: Record<string, string>,
  count: number,
  path = PATH,
): Promise<Received[]> {
  return new Promise((resolve, reject) => {
    const received: Received[] = [];
    let controller: AbortController | undefined;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      controller?.abort();
      resolve(received);
    };
    new Watch(kc)
      .watch(
        path,
        query,
        (type, object) => {
          received.push({ type, name: object?.metadata?.name, code: object?.code });
          if (received.length >= count) finish();
        },
        () => finish(),
      )
      .then((c) => {
        controller = c;
        if (finished) c.abort();
      }, reject);
  });
}

describe('watch › resume', () => {
  it('a watch from a resourceVersion delivers exactly the later events, in order', async () => {
    const labels = { suite: 'resume' };
    const first = await api.core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'r1', labels } },
    });
    const from = first.metadata!.resourceVersion!;
    await api.core.patchNamespacedConfigMap({
      name: 'r1',
      namespace: 'default',
      body: [{ op: 'add', path: '/data', value: { k: 'v' } }],
    });
    await api.core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'r2', labels } },
    });
    await api.core.deleteNamespacedConfigMap({ name: 'r1', namespace: 'default' });

    const events = await watchEvents(
      cluster.kubeConfig,
      { resourceVersion: from, labelSelector: 'suite=resume' },
      3,
    );
    expect(events).toEqual([
      { type: 'MODIFIED', name: 'r1' },
      { type: 'ADDED', name: 'r2' },
      { type: 'DELETED', name: 'r1' },
    ]);
  });

  it('a watch without a resourceVersion starts with ADDED for every current object', async () => {
    const labels = { suite: 'initial' };
    for (const name of ['i1', 'i2']) {
      await api.core.createNamespacedConfigMap({
        namespace: 'default',
        body: { metadata: { name, labels } },
      });
    }
    const events = await watchEvents(cluster.kubeConfig, { labelSelector: 'suite=initial' }, 2);
    expect(events.map((event) => `${event.type} ${event.name}`).sort()).toEqual(['ADDED i1', 'ADDED i2']);
  });

  // Test cluster only: it needs a cluster whose event window is 2 (`watchWindow`); kube-apiserver's
  // watch cache keeps every event of the last 75 s at least. The next case sees kube's 410.
  testClusterOnly(
    'a too-old resourceVersion gets one ERROR event with a 410 Expired Status, then the stream ends',
    async () => {
      const small = await startTestCluster({ watchWindow: 2 });
      try {
        const smallApi = clientsFor(small.kubeConfig);
        const first = await smallApi.core.createNamespacedConfigMap({
          namespace: 'default',
          body: { metadata: { name: 'old' } },
        });
        for (let i = 0; i < 5; i++) {
          await smallApi.core.createNamespacedConfigMap({
            namespace: 'default',
            body: { metadata: { name: `newer-${i}` } },
          });
        }
        const events = await watchEvents(
          small.kubeConfig,
          { resourceVersion: first.metadata!.resourceVersion! },
          10,
        );
        expect(events).toEqual([{ type: 'ERROR', name: undefined, code: 410 }]);
      } finally {
        await small.stop();
      }
    },
  );
  // A measured difference (README): kube-apiserver's watch cache of a custom resource starts when its
  // CRD is installed, so a watch from a resourceVersion before that is 410 Expired at once; the test
  // cluster keeps one event log for every kind and replays from any resourceVersion still in it.
  it('a custom resource watched from resourceVersion 1: kube answers 410, the test cluster replays', async () => {
    await api.custom.createNamespacedCustomObject({
      ...exporterSets,
      namespace: 'default',
      body: exporterSet('replayed'),
    });
    const events = await watchEvents(cluster.kubeConfig, { resourceVersion: '1' }, 1, SETS_PATH);
    expect(events).toEqual(
      backend === 'kube'
        ? [{ type: 'ERROR', name: undefined, code: 410 }]
        : [{ type: 'ADDED', name: 'replayed', code: undefined }],
    );
  });
});

describe('watch › informer recovery', () => {
  let informer: Cache | undefined;
  afterEach(async () => {
    await informer?.stop();
    informer = undefined;
  });

  /**
   * Starts an informer on configmaps labelled `suite`, as the identity `suite`, after adding `faults`
   * for that identity (so they apply from its first watch on). Returns the informer and the rule ids.
   */
  async function startInformer(
    suite: string,
    faults: FaultRule[] = [],
  ): Promise<{ cache: Cache; ids: string[] }> {
    const ids = faults.map((rule) =>
      asTestCluster(cluster).faults.add({ ...rule, resource: 'configmaps', identity: suite }),
    );
    const kc = cluster.kubeConfigFor(suite);
    const core = clientsFor(kc).core;
    const cache = makeInformer(
      kc,
      PATH,
      () => core.listNamespacedConfigMap({ namespace: 'default', labelSelector: `suite=${suite}` }),
      `suite=${suite}`,
    );
    cache.on('error', () => undefined); // stop() reports an AbortError
    await cache.start();
    informer = cache;
    return { cache, ids };
  }

  /** Creates, updates and deletes configmaps labelled `suite` while faults are active. */
  async function churn(suite: string): Promise<void> {
    const labels = { suite };
    for (let i = 0; i < 6; i++) {
      await api.core.createNamespacedConfigMap({
        namespace: 'default',
        body: { metadata: { name: `${suite}-${i}`, labels } },
      });
    }
    await api.core.patchNamespacedConfigMap({
      name: `${suite}-0`,
      namespace: 'default',
      body: [{ op: 'add', path: '/data', value: { changed: 'yes' } }],
    });
    await api.core.deleteNamespacedConfigMap({ name: `${suite}-1`, namespace: 'default' });
  }

  /** The informer's cache equals the server's list (names and resourceVersions). */
  async function converged(suite: string, cache: Cache): Promise<void> {
    await eventually(async () => {
      const list = await api.core.listNamespacedConfigMap({
        namespace: 'default',
        labelSelector: `suite=${suite}`,
      });
      const view = (items: readonly V1ConfigMap[]) =>
        items.map((item) => `${item.metadata?.name}@${item.metadata?.resourceVersion}`).sort();
      expect(view(cache.list('default'))).toEqual(view(list.items));
    });
  }

  /** The requests of identity `suite` with `verb`: the test cluster's counters, kube's audit log. */
  const requests = (suite: string, verb: 'list' | 'watch') =>
    cluster.backend === 'kube'
      ? cluster.audit.requests({ user: suite, verb, resource: 'configmaps' }).length
      : cluster.counters.total({ identity: suite, verb });
  const watches = (suite: string) => requests(suite, 'watch');
  const lists = (suite: string) => requests(suite, 'list');

  it('lists once, then watches, and its cache follows creates, updates and deletes', async () => {
    const { cache } = await startInformer('plain');
    await churn('plain');
    await converged('plain', cache);
    await cache.stop();
    informer = undefined;
    // kube-apiserver audits a watch when it ends.
    await eventually(() => expect(watches('plain')).toBeGreaterThanOrEqual(1), BACKGROUND_MS);
    expect(lists('plain')).toBe(1);
  });

  // Test cluster only (this case and the next two): the failures are injected faults (`expireWatch`,
  // `dropWatch`, `truncateWatch`) and counted by its fault injector; kube-apiserver cannot be made to
  // fail a watch on cue.
  testClusterOnly('re-lists after a 410 on its watch and converges', async () => {
    // Its first watch is dropped after one event; the re-watch is refused with 410, once.
    const { cache, ids } = await startInformer('expired', [
      { kind: 'dropWatch', afterEvents: 1, times: 1 },
      { kind: 'expireWatch', times: 1 },
    ]);
    await churn('expired');
    await converged('expired', cache);
    expect(ids.map((id) => asTestCluster(cluster).faults.hits(id))).toEqual([1, 1]);
    expect(lists('expired')).toBeGreaterThanOrEqual(2);
  });

  testClusterOnly('re-watches after dropped watches and converges', async () => {
    const { cache } = await startInformer('dropped', [{ kind: 'dropWatch', afterEvents: 2 }]);
    await churn('dropped');
    await converged('dropped', cache);
    expect(watches('dropped')).toBeGreaterThanOrEqual(4);
  });

  testClusterOnly('re-watches after a watch is cut in the middle of an event and converges', async () => {
    const { cache, ids } = await startInformer('truncated', [
      { kind: 'truncateWatch', afterEvents: 1, times: 3 },
    ]);
    await churn('truncated');
    await converged('truncated', cache);
    expect(asTestCluster(cluster).faults.hits(ids[0])).toBe(3);
  });

  it('re-watches after server-side watch timeouts, without a re-list, and stays current', async () => {
    const { cache } = await startInformer('timeout');
    // A timed-out watch ends cleanly (no 410), so the informer watches on from where it was.
    await eventually(() => expect(watches('timeout')).toBeGreaterThanOrEqual(3), BACKGROUND_MS);
    await churn('timeout');
    await converged('timeout', cache);
    expect(lists('timeout')).toBe(1);
  });
});
