/**
 * The HTTP layer of the test cluster beyond the object semantics: identities and request counters
 * (what benchmarks and the RBAC replay read), Kubernetes-shaped answers to malformed or unsupported
 * requests, non-resource endpoints, kubeconfigs, and a clean shutdown that ends open watches.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { KubeConfig, PatchStrategy, setHeaderOptions, Watch } from '@kubernetes/client-node';
import { GROUP, VERSION } from 'virtual-exporters/internal';
import { startTestCluster, tokenFor, type TestCluster } from '../src';
import { clientsFor, exporterSet, exporterSets, rejection, type Clients } from './conformance-support';

let cluster: TestCluster;
let api: Clients;

beforeAll(async () => {
  cluster = await startTestCluster();
  api = clientsFor(cluster.kubeConfig);
});
afterAll(() => cluster.stop());

/** A raw request to the cluster, for what client-node would never send. */
async function raw(
  path: string,
  init: { method?: string; body?: string; contentType?: string; token?: string } = {},
): Promise<{ code: number; body: any; contentType: string | null }> {
  const headers: Record<string, string> = { Authorization: `Bearer ${init.token ?? tokenFor('admin')}` };
  if (init.contentType) headers['Content-Type'] = init.contentType;
  const response = await fetch(cluster.url + path, {
    method: init.method ?? 'GET',
    body: init.body,
    headers,
  });
  const text = await response.text();
  const contentType = response.headers.get('content-type');
  return {
    code: response.status,
    body: contentType?.startsWith('application/json') ? JSON.parse(text) : text,
    contentType,
  };
}

describe('server › counters', () => {
  it('counts every request by identity, verb, group, resource, subresource and namespace, with its code', async () => {
    cluster.counters.reset();
    const controller = clientsFor(cluster.kubeConfigFor('controller'));
    const at = { ...exporterSets, namespace: 'default', name: 'counted' };
    await controller.custom.createNamespacedCustomObject({
      ...exporterSets,
      namespace: 'default',
      body: exporterSet('counted'),
    });
    await controller.custom.getNamespacedCustomObject(at);
    await rejection(
      controller.custom.createNamespacedCustomObject({
        ...exporterSets,
        namespace: 'default',
        body: exporterSet('counted'),
      }),
    );
    await controller.custom.patchNamespacedCustomObjectStatus(
      { ...at, body: { metadata: { labels: { a: 'b' } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await controller.custom.listClusterCustomObject(exporterSets);
    await api.core.listNamespacedConfigMap({ namespace: 'default' });

    const key = { identity: 'controller', group: GROUP, resource: 'exportersets', path: '' };
    expect(cluster.counters.snapshot({ identity: 'controller' })).toEqual([
      { ...key, verb: 'create', subresource: '', namespace: 'default', count: 2, byCode: { 201: 1, 409: 1 } },
      { ...key, verb: 'get', subresource: '', namespace: 'default', count: 1, byCode: { 200: 1 } },
      { ...key, verb: 'patch', subresource: 'status', namespace: 'default', count: 1, byCode: { 200: 1 } },
      { ...key, verb: 'list', subresource: '', namespace: '', count: 1, byCode: { 200: 1 } },
    ]);
    expect(cluster.counters.total({ identity: 'admin', verb: 'list', resource: 'configmaps' })).toBe(1);
    expect(cluster.counters.totalWithCode(409, { identity: 'controller' })).toBe(1);
    expect(cluster.counters.byVerb({ identity: 'controller' })).toEqual({
      create: 2,
      get: 1,
      patch: 1,
      list: 1,
    });
    expect(cluster.counters.identities().sort()).toEqual(['admin', 'controller']);

    cluster.counters.reset();
    expect(cluster.counters.total()).toBe(0);
  });

  it('counts discovery as non-resource requests by path', async () => {
    cluster.counters.reset();
    await clientsFor(cluster.kubeConfigFor('discoverer')).custom.getAPIResources({
      group: GROUP,
      version: VERSION,
    });
    expect(cluster.counters.snapshot({ identity: 'discoverer' })).toEqual([
      expect.objectContaining({ verb: 'get', resource: '', path: `/apis/${GROUP}/${VERSION}`, count: 1 }),
    ]);
  });

  it('counts a watch once, when it starts', async () => {
    cluster.counters.reset();
    const controller = await new Watch(cluster.kubeConfigFor('watcher')).watch(
      '/api/v1/pods',
      {},
      () => undefined,
      () => undefined,
    );
    controller.abort();
    expect(cluster.counters.snapshot({ identity: 'watcher' })).toEqual([
      expect.objectContaining({
        verb: 'watch',
        resource: 'pods',
        namespace: '',
        count: 1,
        byCode: { 200: 1 },
      }),
    ]);
  });
});

describe('server › identities', () => {
  it('refuses a token it never issued with 401, and serves requests without a token as anonymous', async () => {
    const refused = await raw('/api/v1/namespaces/default/configmaps', { token: 'forged' });
    expect(refused.code).toBe(401);
    expect(refused.body).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });

    cluster.counters.reset();
    const response = await fetch(`${cluster.url}/api/v1/namespaces/default/configmaps`);
    expect(response.status).toBe(200);
    expect(cluster.counters.identities()).toEqual(['system:anonymous']);
  });

  it('writes a kubeconfig YAML that client-node loads and uses as that identity', async () => {
    const kc = new KubeConfig();
    kc.loadFromString(cluster.kubeconfigYaml('from-yaml'));
    expect(kc.getCurrentCluster()?.server).toBe(cluster.url);
    cluster.counters.reset();
    await clientsFor(kc).core.listNamespacedConfigMap({ namespace: 'default' });
    expect(cluster.counters.identities()).toEqual(['from-yaml']);
  });
});

describe('server › malformed and unsupported requests', () => {
  const configMaps = '/api/v1/namespaces/default/configmaps';

  const json = 'application/json';
  it.each([
    { what: 'an unknown path', path: '/nowhere', code: 404, reason: 'NotFound' },
    {
      what: 'an unknown resource',
      path: '/api/v1/namespaces/default/widgets',
      code: 404,
      reason: 'NotFound',
    },
    { what: 'an unknown group version', path: '/apis/example.com/v9/things', code: 404, reason: 'NotFound' },
    {
      what: 'a cluster-scoped kind under a namespace',
      path: '/api/v1/namespaces/default/namespaces',
      code: 404,
      reason: 'NotFound',
    },
    { what: 'an unknown subresource', path: `${configMaps}/x/status`, code: 404, reason: 'NotFound' },
    {
      what: 'a POST to a named object',
      path: `${configMaps}/x`,
      method: 'POST',
      body: '{}',
      contentType: json,
      code: 405,
      reason: 'MethodNotAllowed',
    },
    {
      what: 'a create of a namespaced kind without a namespace',
      path: '/api/v1/configmaps',
      method: 'POST',
      body: '{}',
      contentType: json,
      code: 405,
      reason: 'MethodNotAllowed',
    },
    {
      what: 'invalid JSON',
      path: configMaps,
      method: 'POST',
      body: '{"metadata":',
      contentType: json,
      code: 400,
      reason: 'BadRequest',
    },
    {
      what: 'a kind that does not match the URL',
      path: configMaps,
      method: 'POST',
      body: '{"kind":"Secret","metadata":{"name":"k"}}',
      contentType: json,
      code: 400,
      reason: 'BadRequest',
    },
    {
      what: 'a YAML body',
      path: configMaps,
      method: 'POST',
      body: 'metadata: {}',
      contentType: 'application/yaml',
      code: 415,
      reason: 'UnsupportedMediaType',
    },
    {
      what: 'a server-side apply patch',
      path: `${configMaps}/x`,
      method: 'PATCH',
      body: '{}',
      contentType: 'application/apply-patch+yaml',
      code: 415,
      reason: 'UnsupportedMediaType',
    },
    {
      what: 'a JSON patch that is not an array',
      path: `${configMaps}/x`,
      method: 'PATCH',
      body: '{}',
      contentType: 'application/json-patch+json',
      code: 400,
      reason: 'BadRequest',
    },
    {
      what: 'a dry run',
      path: `${configMaps}?dryRun=All`,
      method: 'POST',
      body: '{"metadata":{"name":"dry"}}',
      contentType: json,
      code: 400,
      reason: 'BadRequest',
    },
    {
      what: 'an unknown propagation policy',
      path: `${configMaps}/x?propagationPolicy=Sideways`,
      method: 'DELETE',
      code: 422,
      reason: 'Invalid',
    },
  ])(
    'answers $what with a $code $reason Status',
    async ({ path, method, body, contentType, code, reason }) => {
      const result = await raw(path, { method, body, contentType });
      expect(result.code).toBe(code);
      expect(result.body).toMatchObject({ kind: 'Status', status: 'Failure', reason, code });
    },
  );

  it('refuses a dry run through client-node too, and creates nothing', async () => {
    const result = await rejection(
      api.core.createNamespacedConfigMap({
        namespace: 'default',
        body: { metadata: { name: 'dry' } },
        dryRun: 'All',
      }),
    );
    expect(result.code).toBe(400);
    expect(
      (await rejection(api.core.readNamespacedConfigMap({ name: 'dry', namespace: 'default' }))).code,
    ).toBe(404);
  });
});

describe('server › non-resource endpoints', () => {
  it('serves /api, /apis/<group>, /version and the health checks', async () => {
    expect((await raw('/api')).body).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    expect((await raw(`/apis/${GROUP}`)).body).toMatchObject({
      kind: 'APIGroup',
      name: GROUP,
      preferredVersion: { groupVersion: `${GROUP}/${VERSION}`, version: VERSION },
    });
    expect((await raw('/version')).body).toMatchObject({ major: '1' });
    for (const path of ['/healthz', '/livez', '/readyz'])
      expect(await raw(path)).toMatchObject({ code: 200, body: 'ok' });
    expect((await raw('/openapi/v2')).code).toBe(404);
  });
});

describe('server › watch timeouts', () => {
  it('ends a watch cleanly at the server-side timeout, after a BOOKMARK when the client allows them', async () => {
    const own = await startTestCluster({ watchTimeoutSeconds: 0.05 });
    try {
      const path = '/api/v1/namespaces/default/configmaps?watch=1&allowWatchBookmarks=true';
      const response = await fetch(own.url + path);
      const lines = (await response.text())
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines.map((line) => line.type)).toEqual(['BOOKMARK']);
      expect(lines[0].object).toMatchObject({
        kind: 'ConfigMap',
        metadata: { resourceVersion: own.store.resourceVersion() },
      });
      const plain = await fetch(`${own.url}/api/v1/namespaces/default/configmaps?watch=true`);
      expect(await plain.text()).toBe('');
    } finally {
      await own.stop();
    }
  });
});

describe('server › lifecycle', () => {
  it('stop() runs the onStop hooks last-first, ends open watches and refuses new connections', async () => {
    const own = await startTestCluster();
    const order: string[] = [];
    own.onStop(() => void order.push('first'));
    own.onStop(async () => void order.push('second'));
    let ended: (error: unknown) => void = () => undefined;
    const watchEnded = new Promise((resolve) => (ended = resolve));
    await new Watch(own.kubeConfig).watch(
      '/api/v1/namespaces/default/configmaps',
      {},
      () => undefined,
      ended,
    );

    await own.stop();
    expect(order).toEqual(['second', 'first']);
    expect(await watchEnded).toBeNull();
    await expect(fetch(`${own.url}/healthz`)).rejects.toThrow();
    await own.stop(); // idempotent
  });
});
