/**
 * Conformance of paginated lists, through client-node's generated `CoreV1Api` and `CustomObjectsApi`:
 * `limit` cuts pages in name order, `continue` resumes after the last item, every page of one list
 * shows the snapshot of its first page (writes made in between are not seen, deleted objects still
 * are), a foreign or forged token is 400 and a token whose snapshot left the event window is 410.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { startTestCluster, tokenFor, type TestCluster } from '../src';
import { clientsFor, exporterSet, exporterSets, rejection, type Clients } from './conformance-support';

let cluster: TestCluster;
let api: Clients;
const WINDOW = 40;

beforeAll(async () => {
  cluster = await startTestCluster({ namespaces: ['pages', 'other', 'window'], watchWindow: WINDOW });
  api = clientsFor(cluster.kubeConfig);
  for (const name of ['c', 'a', 'e', 'b', 'd']) {
    await api.core.createNamespacedConfigMap({
      namespace: 'pages',
      body: { metadata: { name, labels: { page: 'yes' } }, data: { v: '1' } },
    });
  }
  await api.core.createNamespacedConfigMap({ namespace: 'other', body: { metadata: { name: 'a' } } });
});
afterAll(() => cluster.stop());

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

  it('pages across namespaces by namespace, then name', async () => {
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
    const p4 = exporterSet('p4');
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

  it('refuses a forged token, a token of another namespace and a malformed limit with 400', async () => {
    const forged = await rejection(
      api.core.listNamespacedConfigMap({ namespace: 'pages', limit: 1, _continue: 'not-a-token' }),
    );
    expect(forged.code).toBe(400);
    expect(forged.status.message).toMatch(/continue key is not valid/);
    const other = await api.core.listNamespacedConfigMap({ namespace: 'pages', limit: 1 });
    const foreign = await rejection(
      api.core.listNamespacedConfigMap({
        namespace: 'other',
        limit: 1,
        _continue: other.metadata!._continue!,
      }),
    );
    expect(foreign.code).toBe(400);
    expect(foreign.status.message).toMatch(/namespace "pages", not "other"/);
    const response = await fetch(`${cluster.url}/api/v1/namespaces/pages/configmaps?limit=two`, {
      headers: { Authorization: `Bearer ${tokenFor('admin')}` },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/limit must be a whole number/);
  });

  it('answers a token whose snapshot left the event window with 410 Expired', async () => {
    for (const name of ['w1', 'w2']) {
      await api.core.createNamespacedConfigMap({ namespace: 'window', body: { metadata: { name } } });
    }
    const first = await api.core.listNamespacedConfigMap({ namespace: 'window', limit: 1 });
    for (let i = 0; i <= WINDOW; i += 1) {
      await api.core.replaceNamespacedConfigMap({
        namespace: 'window',
        name: 'w2',
        body: { metadata: { name: 'w2' }, data: { i: String(i) } },
      });
    }
    const expired = await rejection(
      api.core.listNamespacedConfigMap({
        namespace: 'window',
        limit: 1,
        _continue: first.metadata!._continue!,
      }),
    );
    expect(expired.code).toBe(410);
    expect(expired.status.reason).toBe('Expired');
  });
});
