/**
 * Conformance of paginated lists, through client-node's generated `CoreV1Api` and `CustomObjectsApi`:
 * `limit` cuts pages in key order, `continue` resumes after the last item, every page of one list
 * shows the snapshot of its first page (writes made in between are not seen, deleted objects still
 * are), a token's key is relative to its list (another namespace's list continues after the same
 * name), a forged token is 400 with kube-apiserver's words, and a token whose snapshot left the
 * event window is 410.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { startKubeCluster } from '../src';
import {
  BACKGROUND_MS,
  clientsFor,
  eventually,
  exporterSet,
  exporterSets,
  rawGet,
  rejection,
  START_TIMEOUT_MS,
  startConformanceCluster,
  type Clients,
  type ConformanceCluster,
} from './conformance-support';

let cluster: ConformanceCluster;
let api: Clients;
const WINDOW = 40;

beforeAll(async () => {
  cluster = await startConformanceCluster(['pages', 'pages-2', 'other', 'window'], { watchWindow: WINDOW });
  api = clientsFor(cluster.kubeConfig);
  for (const name of ['c', 'a', 'e', 'b', 'd']) {
    await api.core.createNamespacedConfigMap({
      namespace: 'pages',
      body: { metadata: { name, labels: { page: 'yes' } }, data: { v: '1' } },
    });
  }
  for (const [namespace, name] of [
    ['other', 'a'],
    ['other', 'b'],
    ['pages-2', 'a'],
  ]) {
    await api.core.createNamespacedConfigMap({ namespace, body: { metadata: { name } } });
  }
}, START_TIMEOUT_MS);
afterAll(() => cluster?.stop());

const names = (items: V1ConfigMap[]) => items.map((item) => item.metadata?.name);

describe('limit and continue', () => {
  it('pages through a namespace in name order with the first page resourceVersion', async () => {
    const first = await api.core.listNamespacedConfigMap({ namespace: 'pages', limit: 2 });
    expect(names(first.items)).toEqual(['a', 'b']);
    expect(first.metadata?.remainingItemCount).toBe(3);
    const second = await api.core.listNamespacedConfigMap({
      namespace: 'pages',
      limit: 2,
      _continue: first.metadata!._continue!,
    });
    expect(names(second.items)).toEqual(['c', 'd']);
    const last = await api.core.listNamespacedConfigMap({
      namespace: 'pages',
      limit: 2,
      _continue: second.metadata!._continue!,
    });
    expect(names(last.items)).toEqual(['e']);
    expect(last.metadata?._continue).toBeUndefined();
    expect(last.metadata?.remainingItemCount).toBeUndefined();
    expect(new Set([first, second, last].map((l) => l.metadata?.resourceVersion)).size).toBe(1);
  });

  it('serves one page without a limit, and omits remainingItemCount under a selector', async () => {
    const all = await api.core.listNamespacedConfigMap({ namespace: 'pages' });
    expect(names(all.items)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(all.metadata?._continue).toBeUndefined();
    const selected = await api.core.listNamespacedConfigMap({
      namespace: 'pages',
      labelSelector: 'page=yes',
      limit: 4,
    });
    expect(names(selected.items)).toEqual(['a', 'b', 'c', 'd']);
    expect(selected.metadata?._continue).toBeDefined();
    expect(selected.metadata?.remainingItemCount).toBeUndefined();
  });

  it('pages across namespaces in key order (namespace/name as bytes: pages-2 before pages)', async () => {
    const first = await api.core.listConfigMapForAllNamespaces({ limit: 1 });
    const seen = [`${first.items[0].metadata?.namespace}/${first.items[0].metadata?.name}`];
    let token = first.metadata?._continue;
    while (token) {
      const page = await api.core.listConfigMapForAllNamespaces({ limit: 1, _continue: token });
      seen.push(...page.items.map((i) => `${i.metadata?.namespace}/${i.metadata?.name}`));
      token = page.metadata?._continue;
    }
    expect(seen.filter((key) => !key.startsWith('kube-') && !key.startsWith('default/'))).toEqual([
      'other/a',
      'other/b',
      'pages-2/a',
      'pages/a',
      'pages/b',
      'pages/c',
      'pages/d',
      'pages/e',
    ]);
  });

  it('shows every page as of the first page: later creates, updates and deletes are not seen', async () => {
    for (const name of ['p1', 'p2', 'p3', 'p4'])
      await api.custom.createNamespacedCustomObject({
        ...exporterSets,
        namespace: 'pages',
        body: exporterSet(name),
      });
    const first = (await api.custom.listNamespacedCustomObject({
      ...exporterSets,
      namespace: 'pages',
      limit: 2,
    })) as { metadata: { _continue?: string; continue?: string }; items: { metadata: any }[] };
    expect(first.items.map((i) => i.metadata.name)).toEqual(['p1', 'p2']);
    await api.custom.deleteNamespacedCustomObject({ ...exporterSets, namespace: 'pages', name: 'p3' });
    const p4 = await api.custom.getNamespacedCustomObject({
      ...exporterSets,
      namespace: 'pages',
      name: 'p4',
    });
    p4.metadata.labels = { changed: 'yes' };
    await api.custom.replaceNamespacedCustomObject({
      ...exporterSets,
      namespace: 'pages',
      name: 'p4',
      body: p4,
    });
    await api.custom.createNamespacedCustomObject({
      ...exporterSets,
      namespace: 'pages',
      body: exporterSet('p5'),
    });
    const rest = (await api.custom.listNamespacedCustomObject({
      ...exporterSets,
      namespace: 'pages',
      limit: 10,
      _continue: first.metadata.continue!,
    })) as { items: { metadata: any }[] };
    expect(rest.items.map((i) => i.metadata.name)).toEqual(['p3', 'p4']);
    expect(rest.items[1].metadata.labels?.changed).toBeUndefined();
    const fresh = (await api.custom.listNamespacedCustomObject({ ...exporterSets, namespace: 'pages' })) as {
      items: { metadata: any }[];
    };
    expect(fresh.items.map((i) => i.metadata.name)).toEqual(['p1', 'p2', 'p4', 'p5']);
  });

  it('continues a token of another namespace after the same name there (its key is relative)', async () => {
    const pages = await api.core.listNamespacedConfigMap({ namespace: 'pages', limit: 1 });
    expect(names(pages.items)).toEqual(['a']);
    const other = await api.core.listNamespacedConfigMap({
      namespace: 'other',
      limit: 1,
      _continue: pages.metadata!._continue!,
    });
    expect(names(other.items)).toEqual(['b']);
    expect(other.metadata?._continue).toBeUndefined();
  });

  const token = (fields: Record<string, unknown>) =>
    Buffer.from(JSON.stringify(fields)).toString('base64url');
  it.each([
    ['not base64 of JSON', 'not-a-token', /^invalid continue token: continue key is not valid: /],
    [
      'an unknown version',
      token({ v: 'meta.k8s.io/v2', rv: 5, start: '/a' }),
      /^invalid continue token: continue key is not valid: server does not recognize this encoded version meta\.k8s\.io\/v2$/,
    ],
    [
      'resourceVersion 0',
      token({ v: 'meta.k8s.io/v1', rv: 0, start: '/a' }),
      /^invalid continue token: continue key is not valid: incorrect encoded start resourceVersion \(version meta\.k8s\.io\/v1\)$/,
    ],
    [
      'an empty start key',
      token({ v: 'meta.k8s.io/v1', rv: 5, start: '' }),
      /^invalid continue token: continue key is not valid: encoded start key empty \(version meta\.k8s\.io\/v1\)$/,
    ],
    [
      'a start key that climbs out of the list',
      token({ v: 'meta.k8s.io/v1', rv: 5, start: '/../x' }),
      /^invalid continue token: continue key is not valid: \/\.\.\/x$/,
    ],
  ])('refuses a continue token with %s: 400 BadRequest', async (_label, _continue, message) => {
    const refused = await rejection(
      api.core.listNamespacedConfigMap({ namespace: 'pages', limit: 1, _continue }),
    );
    expect(refused.code).toBe(400);
    expect(refused.status.reason).toBe('BadRequest');
    expect(refused.status.message).toMatch(message);
  });

  it('continues a token of a negative resourceVersion from the latest state', async () => {
    const latest = await api.core.listNamespacedConfigMap({
      namespace: 'pages',
      limit: 1,
      _continue: token({ v: 'meta.k8s.io/v1', rv: -1, start: '/c\u0000' }),
    });
    expect(names(latest.items)).toEqual(['d']);
  });

  it('answers a token from a future resourceVersion with 504 Timeout', async () => {
    const future = await rejection(
      api.core.listNamespacedConfigMap({
        namespace: 'pages',
        limit: 1,
        _continue: token({ v: 'meta.k8s.io/v1', rv: 999_999_999, start: '/a\u0000' }),
      }),
    );
    expect(future.code).toBe(504);
    expect(future.status).toMatchObject({
      reason: 'Timeout',
      details: { causes: [{ reason: 'ResourceVersionTooLarge' }], retryAfterSeconds: 1 },
    });
    expect(future.status.message).toMatch(/^Timeout: Too large resource version: 999999999, current: \d+$/);
  });

  it.each([
    ['two', 'strconv.ParseInt: parsing "two": invalid syntax'],
    ['99999999999999999999', 'strconv.ParseInt: parsing "99999999999999999999": value out of range'],
  ])('refuses limit=%s with 400 and strconv.ParseInt words', async (limit, message) => {
    const response = await rawGet(cluster.kubeConfig, `/api/v1/namespaces/pages/configmaps?limit=${limit}`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ reason: 'BadRequest', message });
  });

  it('serves every item for limit 0 or a negative limit', async () => {
    for (const limit of [0, -1]) {
      const all = await api.core.listNamespacedConfigMap({ namespace: 'pages', limit });
      expect(names(all.items)).toEqual(['a', 'b', 'c', 'd', 'e']);
      expect(all.metadata?._continue).toBeUndefined();
    }
  });

  // The snapshot goes: on the test cluster it leaves the event window (`watchWindow`); on kube etcd
  // compacts it, which a cluster of its own does every second (--etcd-compaction-interval=1s).
  it(
    'answers a token whose snapshot is gone with 410 Expired',
    async () => {
      const target =
        cluster.backend === 'kube'
          ? await startKubeCluster({
              namespaces: ['window'],
              apiServerFlags: ['--etcd-compaction-interval=1s'],
            })
          : cluster;
      try {
        const core = clientsFor(target.kubeConfig).core;
        for (const name of ['w1', 'w2']) {
          await core.createNamespacedConfigMap({ namespace: 'window', body: { metadata: { name } } });
        }
        const first = await core.listNamespacedConfigMap({ namespace: 'window', limit: 1 });
        for (let i = 0; i <= WINDOW; i += 1) {
          await core.replaceNamespacedConfigMap({
            namespace: 'window',
            name: 'w2',
            body: { metadata: { name: 'w2' }, data: { i: String(i) } },
          });
        }
        const expired = await eventually(async () => {
          const refused = await rejection(
            core.listNamespacedConfigMap({
              namespace: 'window',
              limit: 1,
              _continue: first.metadata!._continue!,
            }),
          );
          expect(refused.code).toBe(410);
          return refused;
        }, BACKGROUND_MS);
        expect(expired.status).toMatchObject({
          reason: 'Expired',
          message:
            'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
        });
        // The Status carries a token that continues after the same key in the latest state.
        const rest = await core.listNamespacedConfigMap({
          namespace: 'window',
          _continue: expired.status.metadata.continue,
        });
        expect(names(rest.items)).toEqual(['w2']);
        expect(rest.items[0].data).toEqual({ i: String(WINDOW) });
      } finally {
        if (target !== cluster) await target.stop();
      }
    },
    START_TIMEOUT_MS,
  );
});
