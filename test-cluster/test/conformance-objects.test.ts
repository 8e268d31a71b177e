/**
 * Conformance of the test cluster's object API, driven only through @kubernetes/client-node: what a
 * controller relies on from any API server — CRUD of core and custom objects, generateName, label and
 * field selectors, optimistic concurrency, merge and JSON patch, and discovery-driven generic access.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ApisApi,
  PatchStrategy,
  setHeaderOptions,
  VersionApi,
  type KubernetesObject,
  type V1ConfigMap,
} from '@kubernetes/client-node';
import { API_VERSION, CATEGORY, GROUP, Kinds, ShortNames, VERSION } from 'virtual-exporters/internal';
import {
  clientsFor,
  exporterSet,
  exporterSets,
  onBackend,
  rawGet,
  rejection,
  START_TIMEOUT_MS,
  startConformanceCluster,
  type Clients,
  type ConformanceCluster,
} from './conformance-support';

let cluster: ConformanceCluster;
let api: Clients;

beforeAll(async () => {
  cluster = await startConformanceCluster(['default', 'other']);
  api = clientsFor(cluster.kubeConfig);
}, START_TIMEOUT_MS);
afterAll(() => cluster?.stop());

const configMap = (name: string, labels: Record<string, string> = {}, data: Record<string, string> = {}) => ({
  metadata: { name, labels },
  data,
});

describe('objects › CRUD', () => {
  it('creates, reads, updates and deletes a core object', async () => {
    const created = await api.core.createNamespacedConfigMap({
      namespace: 'default',
      body: configMap('crud', {}, { a: '1' }),
    });
    expect(created.metadata?.uid).toBeTruthy();
    expect(created.metadata?.resourceVersion).toBeTruthy();
    expect(created.metadata?.creationTimestamp).toBeTruthy();
    expect(created.metadata?.namespace).toBe('default');

    const read = await api.core.readNamespacedConfigMap({ name: 'crud', namespace: 'default' });
    expect(read.data).toEqual({ a: '1' });

    const updated = await api.core.replaceNamespacedConfigMap({
      name: 'crud',
      namespace: 'default',
      body: { ...read, data: { a: '2' } },
    });
    expect(updated.data).toEqual({ a: '2' });
    expect(updated.metadata?.resourceVersion).not.toBe(read.metadata?.resourceVersion);

    await api.core.deleteNamespacedConfigMap({ name: 'crud', namespace: 'default' });
    const missing = await rejection(api.core.readNamespacedConfigMap({ name: 'crud', namespace: 'default' }));
    expect(missing.code).toBe(404);
    expect(missing.status).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
  });

  it('creates a custom object and returns it with apiVersion, kind and metadata filled in', async () => {
    const created = await api.custom.createNamespacedCustomObject({
      ...exporterSets,
      namespace: 'default',
      body: exporterSet('crud-set'),
    });
    expect(created).toMatchObject({
      apiVersion: API_VERSION,
      kind: Kinds.ExporterSet,
      metadata: { name: 'crud-set', namespace: 'default', generation: 1 },
    });
    const read = await api.custom.getNamespacedCustomObject({
      ...exporterSets,
      namespace: 'default',
      name: 'crud-set',
    });
    expect(read.metadata.uid).toBe(created.metadata.uid);
    await api.custom.deleteNamespacedCustomObject({
      ...exporterSets,
      namespace: 'default',
      name: 'crud-set',
    });
    const missing = await rejection(
      api.custom.getNamespacedCustomObject({ ...exporterSets, namespace: 'default', name: 'crud-set' }),
    );
    expect(missing.code).toBe(404);
  });

  it('creating an existing name is 409 AlreadyExists', async () => {
    await api.core.createNamespacedConfigMap({ namespace: 'default', body: configMap('twice') });
    const again = await rejection(
      api.core.createNamespacedConfigMap({ namespace: 'default', body: configMap('twice') }),
    );
    expect(again.code).toBe(409);
    expect(again.status.reason).toBe('AlreadyExists');
  });

  it("refuses a name that is not a DNS-1123 subdomain with 422 in kube-apiserver's words", async () => {
    const name = await rejection(
      api.core.createNamespacedConfigMap({ namespace: 'default', body: configMap('Bad_Name') }),
    );
    expect(name.status).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: `ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    });
  });

  it('generateName gives every object a distinct name starting with the prefix', async () => {
    const body = { metadata: { generateName: 'gen-' } };
    const names = await Promise.all(
      [1, 2, 3].map(
        async () => (await api.core.createNamespacedConfigMap({ namespace: 'default', body })).metadata?.name,
      ),
    );
    for (const name of names) expect(name).toMatch(/^gen-.+/);
    expect(new Set(names).size).toBe(3);
  });

  it('rejects an object whose namespace differs from the URL with 400', async () => {
    const wrong = { metadata: { name: 'elsewhere', namespace: 'other' } };
    const result = await rejection(api.core.createNamespacedConfigMap({ namespace: 'default', body: wrong }));
    expect(result.code).toBe(400);
  });
});

describe('objects › list', () => {
  beforeAll(async () => {
    const seed: [string, string, Record<string, string>][] = [
      ['default', 'sel-a', { tier: 'web', env: 'prod' }],
      ['default', 'sel-b', { tier: 'db', env: 'prod' }],
      ['default', 'sel-c', { tier: 'web' }],
      ['other', 'sel-a', { tier: 'web', env: 'dev' }],
    ];
    for (const [namespace, name, labels] of seed) {
      await api.core.createNamespacedConfigMap({
        namespace,
        body: configMap(name, { sel: 'yes', ...labels }),
      });
    }
  });

  const names = (items: V1ConfigMap[]) =>
    items.map((item) => `${item.metadata?.namespace}/${item.metadata?.name}`).sort();

  it.each([
    ['sel=yes,tier=web', ['default/sel-a', 'default/sel-c']],
    ['sel=yes,tier!=web', ['default/sel-b']],
    ['sel=yes,tier in (db,cache)', ['default/sel-b']],
    ['sel=yes,env notin (prod)', ['default/sel-c']],
    ['sel=yes,env', ['default/sel-a', 'default/sel-b']],
    ['sel=yes,!env', ['default/sel-c']],
  ])('labelSelector %s selects %j', async (labelSelector, expected) => {
    const list = await api.core.listNamespacedConfigMap({ namespace: 'default', labelSelector });
    expect(names(list.items)).toEqual(expected);
  });

  it('fieldSelector selects by metadata.name and metadata.namespace across namespaces', async () => {
    const byName = await api.core.listConfigMapForAllNamespaces({
      labelSelector: 'sel=yes',
      fieldSelector: 'metadata.name=sel-a',
    });
    expect(names(byName.items)).toEqual(['default/sel-a', 'other/sel-a']);
    const byNamespace = await api.core.listConfigMapForAllNamespaces({
      labelSelector: 'sel=yes',
      fieldSelector: 'metadata.namespace!=default',
    });
    expect(names(byNamespace.items)).toEqual(['other/sel-a']);
  });

  it('refuses a field selector the kind does not have with 400 and the fields it has', async () => {
    const refused = await rejection(
      api.core.listNamespacedConfigMap({ namespace: 'default', fieldSelector: 'data.a=1' }),
    );
    expect(refused.status).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: '"data.a" is not a known field selector: only "metadata.name", "metadata.namespace"',
    });
  });

  it('deletecollection deletes the selected objects only', async () => {
    const labels = { sweep: 'yes' };
    for (const [name, extra] of [
      ['sweep-a', { doomed: 'yes' }],
      ['sweep-b', { doomed: 'yes' }],
      ['sweep-c', {}],
    ] as const) {
      await api.core.createNamespacedConfigMap({
        namespace: 'default',
        body: configMap(name, { ...labels, ...extra }),
      });
    }
    await api.core.deleteCollectionNamespacedConfigMap({
      namespace: 'default',
      labelSelector: 'sweep=yes,doomed=yes',
    });
    const left = await api.core.listNamespacedConfigMap({ namespace: 'default', labelSelector: 'sweep=yes' });
    expect(names(left.items)).toEqual(['default/sweep-c']);
  });

  it('a list carries its list kind, apiVersion, a resourceVersion and typed items', async () => {
    const list = await api.custom.listNamespacedCustomObject({ ...exporterSets, namespace: 'default' });
    expect(list).toMatchObject({ kind: 'ExporterSetList', apiVersion: API_VERSION });
    expect(list.metadata.resourceVersion).toMatch(/^\d+$/);
    await api.custom.createNamespacedCustomObject({
      ...exporterSets,
      namespace: 'default',
      body: exporterSet('listed'),
    });
    const after = await api.custom.listNamespacedCustomObject({ ...exporterSets, namespace: 'default' });
    expect(
      after.items.map((item: KubernetesObject) => [item.apiVersion, item.kind, item.metadata?.name]),
    ).toContainEqual([API_VERSION, Kinds.ExporterSet, 'listed']);
    expect(BigInt(after.metadata.resourceVersion)).toBeGreaterThan(BigInt(list.metadata.resourceVersion));
  });
});

describe('objects › concurrency and patches', () => {
  it('an update with a stale resourceVersion is 409 Conflict, and the newer write stays', async () => {
    const original = await api.core.createNamespacedConfigMap({
      namespace: 'default',
      body: configMap('occ', {}, { v: '0' }),
    });
    await api.core.replaceNamespacedConfigMap({
      name: 'occ',
      namespace: 'default',
      body: { ...original, data: { v: '1' } },
    });
    const stale = await rejection(
      api.core.replaceNamespacedConfigMap({
        name: 'occ',
        namespace: 'default',
        body: { ...original, data: { v: '2' } },
      }),
    );
    expect(stale.code).toBe(409);
    expect(stale.status.reason).toBe('Conflict');
    expect((await api.core.readNamespacedConfigMap({ name: 'occ', namespace: 'default' })).data).toEqual({
      v: '1',
    });
  });

  it('an update without a resourceVersion: last write wins for a core kind, 422 for a custom resource', async () => {
    const cm = await api.core.createNamespacedConfigMap({ namespace: 'default', body: configMap('blind') });
    const { resourceVersion: _cmRv, ...cmMeta } = cm.metadata!;
    const blind = await api.core.replaceNamespacedConfigMap({
      name: 'blind',
      namespace: 'default',
      body: { ...cm, metadata: cmMeta, data: { v: '1' } },
    });
    expect(blind.data).toEqual({ v: '1' });

    const at = { ...exporterSets, namespace: 'default', name: 'blind-set' };
    const set = await api.custom.createNamespacedCustomObject({
      ...exporterSets,
      namespace: 'default',
      body: exporterSet('blind-set'),
    });
    const { resourceVersion: _setRv, ...setMeta } = set.metadata;
    const expected = {
      code: 422,
      reason: 'Invalid',
      message: `${exporterSets.plural}.${exporterSets.group} "blind-set" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update`,
      details: {
        name: 'blind-set',
        group: exporterSets.group,
        kind: exporterSets.plural,
        causes: [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: 0: must be specified for an update',
            field: 'metadata.resourceVersion',
          },
        ],
      },
    };
    const spec = { ...set.spec, minReplicas: 1 };
    const replaced = await rejection(
      api.custom.replaceNamespacedCustomObject({ ...at, body: { ...set, metadata: setMeta, spec } }),
    );
    expect(replaced.status).toMatchObject(expected);
    const status = await rejection(
      api.custom.replaceNamespacedCustomObjectStatus({ ...at, body: { ...set, metadata: setMeta } }),
    );
    expect(status.status).toMatchObject(expected);
    const patched = await rejection(
      api.custom.patchNamespacedCustomObject(
        { ...at, body: { metadata: { resourceVersion: null }, spec: { minReplicas: 1 } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      ),
    );
    expect(patched.status).toMatchObject(expected);
    expect((await api.custom.getNamespacedCustomObject(at)).spec.minReplicas).toBe(0);
  });

  it("an update's uid is a precondition (409); a patch that changes it is invalid (422)", async () => {
    const cm = await api.core.createNamespacedConfigMap({ namespace: 'default', body: configMap('uid') });
    const put = await rejection(
      api.core.replaceNamespacedConfigMap({
        name: 'uid',
        namespace: 'default',
        body: { ...cm, metadata: { ...cm.metadata, uid: 'someone-else' } },
      }),
    );
    expect(put.status).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on configmaps "uid": StorageError: invalid object, Code: 4, Key: /registry/configmaps/default/uid, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: someone-else, UID in object meta: ${cm.metadata!.uid}`,
    });
    const patch = await rejection(
      api.core.patchNamespacedConfigMap(
        { name: 'uid', namespace: 'default', body: { metadata: { uid: 'someone-else' } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      ),
    );
    expect(patch.status).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: 'ConfigMap "uid" is invalid: metadata.uid: Invalid value: "someone-else": field is immutable',
    });
  });

  it('a merge patch sets and removes the keys it names and keeps the rest', async () => {
    await api.core.createNamespacedConfigMap({
      namespace: 'default',
      body: configMap('merge', {}, { keep: 'k', drop: 'd' }),
    });
    const patched = await api.core.patchNamespacedConfigMap(
      { name: 'merge', namespace: 'default', body: { data: { drop: null, add: 'a' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    expect(patched.data).toEqual({ keep: 'k', add: 'a' });
  });

  it('a JSON patch applies its operations in order, and a failed test operation changes nothing', async () => {
    await api.core.createNamespacedConfigMap({
      namespace: 'default',
      body: configMap('jsonpatch', {}, { a: '1' }),
    });
    const patched = await api.core.patchNamespacedConfigMap({
      name: 'jsonpatch',
      namespace: 'default',
      body: [
        { op: 'test', path: '/data/a', value: '1' },
        { op: 'replace', path: '/data/a', value: '2' },
        { op: 'add', path: '/data/b', value: '3' },
      ],
    });
    expect(patched.data).toEqual({ a: '2', b: '3' });
    const failed = await rejection(
      api.core.patchNamespacedConfigMap({
        name: 'jsonpatch',
        namespace: 'default',
        body: [
          { op: 'test', path: '/data/a', value: '1' },
          { op: 'replace', path: '/data/a', value: '9' },
        ],
      }),
    );
    expect(failed.code).toBe(422);
    expect(failed.status.reason).toBe('Invalid');
    // A known difference: the test cluster says which operation failed.
    expect(failed.status.message).toMatch(
      onBackend({
        kube: /^the server rejected our request due to an error in our request$/,
        test: /^the server rejected our request due to an error in our request: test operation failed: the value at "\/data\/a" is not "1"$/,
      }),
    );
    expect(
      (await api.core.readNamespacedConfigMap({ name: 'jsonpatch', namespace: 'default' })).data,
    ).toEqual({
      a: '2',
      b: '3',
    });
  });

  it('a JSON patch applies as kube-apiserver applies it: replace adds a missing member, test of a missing member passes for null', async () => {
    const at = { name: 'lax', namespace: 'default' };
    await api.core.createNamespacedConfigMap({
      namespace: 'default',
      body: configMap('lax', {}, { a: '1' }),
    });
    const patched = await api.core.patchNamespacedConfigMap({
      ...at,
      body: [
        { op: 'replace', path: '/data/added', value: 'by replace' },
        { op: 'test', path: '/data/missing', value: null },
      ],
    });
    expect(patched.data).toEqual({ a: '1', added: 'by replace' });
    for (const operation of [
      { op: 'test', path: '/data/missing', value: 'x' },
      { op: 'replace', path: '/nothing/here', value: 'x' },
      { op: 'jump', path: '/data/a' },
      { op: 'copy', path: '/data/b' },
    ]) {
      const refused = await rejection(api.core.patchNamespacedConfigMap({ ...at, body: [operation] }));
      expect([operation, refused.code, refused.status.reason]).toEqual([operation, 422, 'Invalid']);
    }
  });
});

describe('objects › discovery', () => {
  it('lists our groups and their kinds with short names, categories and subresources', async () => {
    const groups = await cluster.kubeConfig.makeApiClient(ApisApi).getAPIVersions();
    expect(groups.groups.map((group) => group.name)).toEqual(
      expect.arrayContaining([GROUP, 'jumpstarter.dev']),
    );

    const resources = await api.custom.getAPIResources({ group: GROUP, version: VERSION });
    const byName = new Map(resources.resources.map((resource) => [resource.name, resource]));
    expect(byName.get('exportersets')).toMatchObject({
      kind: Kinds.ExporterSet,
      namespaced: true,
      singularName: 'exporterset',
      shortNames: [ShortNames.ExporterSet],
      categories: [CATEGORY],
    });
    expect(byName.get('exportersets')?.verbs).toEqual(
      expect.arrayContaining(['get', 'list', 'watch', 'patch']),
    );
    expect(byName.get('exportersets/status')).toBeDefined();
    expect(byName.get('exportersets/scale')).toMatchObject({
      kind: 'Scale',
      group: 'autoscaling',
      version: 'v1',
    });

    const core = await api.core.getAPIResources();
    expect(core.resources.find((resource) => resource.name === 'namespaces')?.namespaced).toBe(false);
    expect((await cluster.kubeConfig.makeApiClient(VersionApi).getCode()).major).toBe('1');
  });

  it('KubernetesObjectApi finds paths through discovery for custom and core kinds', async () => {
    const set = exporterSet('generic');
    set.metadata.namespace = 'default';
    const created = await api.objects.create(set);
    expect(created.metadata?.uid).toBeTruthy();
    const read = await api.objects.read({
      apiVersion: API_VERSION,
      kind: Kinds.ExporterSet,
      metadata: { name: 'generic', namespace: 'default' },
    });
    expect(read.metadata?.uid).toBe(created.metadata?.uid);
    const patched = await api.objects.patch(
      {
        apiVersion: API_VERSION,
        kind: Kinds.ExporterSet,
        metadata: { name: 'generic', namespace: 'default', labels: { patched: 'yes' } },
      },
      undefined,
      undefined,
      undefined,
      undefined,
      PatchStrategy.MergePatch,
    );
    expect(patched.metadata?.labels).toEqual({ patched: 'yes' });
    const list = await api.objects.list(
      API_VERSION,
      Kinds.ExporterSet,
      'default',
      undefined,
      undefined,
      undefined,
      undefined,
      'patched=yes',
    );
    expect(list.items.map((item) => item.metadata?.name)).toEqual(['generic']);
    await api.objects.delete({
      apiVersion: API_VERSION,
      kind: Kinds.ExporterSet,
      metadata: { name: 'generic', namespace: 'default' },
    });

    const ns = await api.objects.read({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } });
    expect(ns.metadata?.name).toBe('other');
  });
});

describe('objects › known differences', () => {
  it('words a malformed label selector differently (same code and reason)', async () => {
    const selector = await rejection(
      api.core.listNamespacedConfigMap({ namespace: 'default', labelSelector: 'a in b' }),
    );
    expect([selector.code, selector.status.reason]).toEqual([400, 'BadRequest']);
    expect(selector.status.message).toBe(
      onBackend({
        kube: "unable to parse requirement: found 'b' expected: '('",
        test: 'unable to parse requirement: label selector "a in b": expected "(" after "in"',
      }),
    );
  });

  it("types a built-in kind's fields on kube only: a ConfigMap's data as a string", async () => {
    await api.core.createNamespacedConfigMap({ namespace: 'default', body: configMap('untyped') });
    const write = api.core.patchNamespacedConfigMap(
      { name: 'untyped', namespace: 'default', body: { data: 'a string' } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    if (cluster.backend === 'kube') {
      const refused = await rejection(write);
      expect([refused.code, refused.status.reason]).toEqual([422, 'Invalid']);
      expect(refused.status.message).toContain(
        'json: cannot unmarshal string into Go struct field ConfigMap.data of type map[string]string',
      );
    } else {
      await write;
      const stored = await rawGet(cluster.kubeConfig, '/api/v1/namespaces/default/configmaps/untyped');
      expect(stored.body.data).toBe('a string');
    }
  });

  it('serves only the metadata field selectors: a Pod by status.phase is listed on kube, 400 here', async () => {
    const list = api.core.listNamespacedPod({ namespace: 'default', fieldSelector: 'status.phase=Running' });
    if (cluster.backend === 'kube') {
      expect((await list).items).toEqual([]);
    } else {
      const refused = await rejection(list);
      expect(refused.status).toMatchObject({
        code: 400,
        message: '"status.phase" is not a known field selector: only "metadata.name", "metadata.namespace"',
      });
    }
  });
});
