import { describe, expect, it } from '@jest/globals';
import { jumpstarterCrds, ourCrds } from 'virtual-exporters/internal';
import { manualClock } from '../src/clock';
import { createRegistry } from '../src/registry';
import { createStore } from '../src/store';
import type { KubeObject, ResourceType } from '../src/types';
import { apiError } from './store-support';

const registry = createRegistry([...ourCrds, ...jumpstarterCrds]);
const type = (group: string, plural: string): ResourceType =>
  registry.all().find((rt) => rt.group === group && rt.plural === plural)!;
const pods = type('', 'pods');
const configMaps = type('', 'configmaps');
const namespaces = type('', 'namespaces');
const clusterRoles = type('rbac.authorization.k8s.io', 'clusterroles');
const exporterSets = type('virtualtarget.jumpstarter.dev', 'exportersets');

function setup() {
  const clock = manualClock(Date.parse('2025-03-04T05:06:07.890Z'));
  const store = createStore({ registry, clock, namespaces: ['default', 'lab'] });
  return { clock, store };
}

const configMap = (
  name: string,
  extra: Partial<KubeObject['metadata']> = {},
  data = { a: '1' },
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...extra },
  data,
});

describe('store › create', () => {
  it('sets uid, creationTimestamp (whole seconds of the clock), resourceVersion and generation 1', () => {
    const { store } = setup();
    const before = Number(store.resourceVersion());
    const created = store.create(configMaps, 'default', configMap('a'));
    expect(created.metadata).toMatchObject({
      name: 'a',
      namespace: 'default',
      creationTimestamp: '2025-03-04T05:06:07Z',
      generation: 1,
      resourceVersion: String(before + 1),
    });
    expect(created.metadata.uid).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    const second = store.create(configMaps, 'default', configMap('b'));
    expect(Number(second.metadata.resourceVersion)).toBe(before + 2);
    expect(store.resourceVersion()).toBe(second.metadata.resourceVersion);
  });

  it('ignores server fields sent by the client', () => {
    const { store } = setup();
    const created = store.create(
      configMaps,
      'default',
      configMap('a', {
        uid: 'mine',
        resourceVersion: '999',
        generation: 7,
        deletionTimestamp: '2020-01-01T00:00:00Z',
      }),
    );
    expect(created.metadata.uid).not.toBe('mine');
    expect(created.metadata.generation).toBe(1);
    expect(created.metadata).not.toHaveProperty('deletionTimestamp');
  });

  it('fills a missing apiVersion and kind from the resource and rejects wrong ones with 400', () => {
    const { store } = setup();
    const created = store.create(configMaps, 'default', { metadata: { name: 'bare' } } as KubeObject);
    expect(created).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' });
    const err = apiError(() => store.create(configMaps, 'default', { ...configMap('x'), kind: 'Secret' }));
    expect(err).toMatchObject({ code: 400, reason: 'BadRequest' });
  });

  it('names an object from generateName with a 5-character random suffix', () => {
    const { store } = setup();
    const names = new Set(
      Array.from(
        { length: 20 },
        () => store.create(configMaps, 'default', configMap('', { generateName: 'job-' })).metadata.name,
      ),
    );
    expect(names.size).toBe(20);
    for (const name of names) expect(name).toMatch(/^job-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('requires a name or generateName (422 Invalid)', () => {
    const { store } = setup();
    const err = apiError(() => store.create(configMaps, 'default', configMap('')));
    expect(err).toMatchObject({ code: 422, reason: 'Invalid' });
    expect(err.message).toBe(
      'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required',
    );
    expect(err.details?.causes).toEqual([
      {
        reason: 'FieldValueRequired',
        message: 'Required value: name or generateName is required',
        field: 'metadata.name',
      },
    ]);
  });

  it('rejects invalid names and labels with 422 and one cause each', () => {
    const { store } = setup();
    const err = apiError(() =>
      store.create(configMaps, 'default', configMap('Bad_Name', { labels: { 'a b': 'c' } })),
    );
    expect(err.code).toBe(422);
    // As kube-apiserver reports them: a label's cause names the labels, its value is the bad key.
    expect(err.details?.causes?.map((c) => c.field)).toEqual(['metadata.name', 'metadata.labels']);
    expect(err.message).toMatch(
      /^ConfigMap "Bad_Name" is invalid: \[metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain .+, metadata\.labels: Invalid value: "a b": name part must consist of/,
    );
  });

  it('accepts RBAC names with colons, as Kubernetes does', () => {
    const { store } = setup();
    const role = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'system:lab' },
    };
    expect(store.create(clusterRoles, undefined, role).metadata.name).toBe('system:lab');
  });

  it('answers 409 AlreadyExists with Kubernetes wording', () => {
    const { store } = setup();
    store.create(exporterSets, 'lab', exporterSet('pool'));
    const err = apiError(() => store.create(exporterSets, 'lab', exporterSet('pool')));
    expect(err).toMatchObject({ code: 409, reason: 'AlreadyExists' });
    expect(err.message).toBe('exportersets.virtualtarget.jumpstarter.dev "pool" already exists');
    expect(err.details).toEqual({
      name: 'pool',
      group: 'virtualtarget.jumpstarter.dev',
      kind: 'exportersets',
    });
  });

  it('requires a namespace for namespaced kinds and none for cluster-scoped ones (400)', () => {
    const { store } = setup();
    expect(apiError(() => store.create(configMaps, undefined, configMap('a'))).code).toBe(400);
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } };
    expect(apiError(() => store.create(namespaces, 'default', ns)).code).toBe(400);
    expect(
      apiError(() => store.create(configMaps, 'default', configMap('a', { namespace: 'lab' }))).message,
    ).toBe('the namespace of the provided object does not match the namespace sent on the request');
  });

  it('requires the namespace to exist (404) and not to be terminating (403)', () => {
    const { store } = setup();
    const missing = apiError(() => store.create(configMaps, 'nowhere', configMap('a')));
    expect(missing).toMatchObject({
      code: 404,
      reason: 'NotFound',
      message: 'namespaces "nowhere" not found',
    });
    store.ensureNamespace('doomed');
    store.create(configMaps, 'doomed', configMap('keep', { finalizers: ['test/hold'] }));
    store.delete(namespaces, undefined, 'doomed');
    const terminating = apiError(() => store.create(configMaps, 'doomed', configMap('late')));
    expect(terminating).toMatchObject({ code: 403, reason: 'Forbidden' });
    expect(terminating.message).toBe(
      'configmaps "late" is forbidden: unable to create new content in namespace doomed because it is being terminated',
    );
  });

  it('creates namespaces Active, and ensureNamespace only once', () => {
    const { store } = setup();
    const first = store.ensureNamespace('team');
    expect(first.status).toEqual({ phase: 'Active' });
    expect(store.ensureNamespace('team').metadata.uid).toBe(first.metadata.uid);
  });

  it('drops status on create when the kind has a status subresource, and keeps it otherwise', () => {
    const { store } = setup();
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: {},
      status: { phase: 'Running' },
    };
    expect(store.create(pods, 'default', pod)).not.toHaveProperty('status');
    const set = store.create(exporterSets, 'lab', { ...exporterSet('s'), status: { replicas: 3 } });
    expect(set).not.toHaveProperty('status');
    const cm = store.create(configMaps, 'default', { ...configMap('c'), status: { x: 1 } });
    expect(cm.status).toEqual({ x: 1 });
  });
});

describe('store › get and list', () => {
  it('answers 404 with Kubernetes wording for core and grouped resources', () => {
    const { store } = setup();
    expect(apiError(() => store.get(pods, 'default', 'nope'))).toMatchObject({
      code: 404,
      reason: 'NotFound',
      message: 'pods "nope" not found',
      details: { name: 'nope', kind: 'pods' },
    });
    expect(apiError(() => store.get(exporterSets, 'lab', 'nope')).message).toBe(
      'exportersets.virtualtarget.jumpstarter.dev "nope" not found',
    );
  });

  it('lists one namespace or all, sorted by namespace and name, with the current resourceVersion', () => {
    const { store } = setup();
    store.create(configMaps, 'lab', configMap('b'));
    store.create(configMaps, 'default', configMap('z'));
    store.create(configMaps, 'lab', configMap('a'));
    const all = store.list(configMaps, undefined);
    expect(all.items.map((o) => `${o.metadata.namespace}/${o.metadata.name}`)).toEqual([
      'default/z',
      'lab/a',
      'lab/b',
    ]);
    expect(all.resourceVersion).toBe(store.resourceVersion());
    expect(store.list(configMaps, 'lab').items.map((o) => o.metadata.name)).toEqual(['a', 'b']);
    expect(all.items.every((o) => o.apiVersion === 'v1' && o.kind === 'ConfigMap')).toBe(true);
  });

  it('filters by label selector and by metadata.name / metadata.namespace field selectors', () => {
    const { store } = setup();
    store.create(configMaps, 'lab', configMap('a', { labels: { app: 'x', tier: 'web' } }));
    store.create(configMaps, 'lab', configMap('b', { labels: { app: 'y' } }));
    store.create(configMaps, 'default', configMap('c', { labels: { app: 'x' } }));
    const names = (labelSelector?: string, fieldSelector?: string) =>
      store.list(configMaps, undefined, { labelSelector, fieldSelector }).items.map((o) => o.metadata.name);
    expect(names('app=x')).toEqual(['c', 'a']);
    expect(names('app in (x,y),!tier')).toEqual(['c', 'b']);
    expect(names('app!=x')).toEqual(['b']);
    expect(names(undefined, 'metadata.namespace=lab')).toEqual(['a', 'b']);
    expect(names('app=x', 'metadata.name!=a')).toEqual(['c']);
    expect(apiError(() => names('app in x')).code).toBe(400);
  });

  it('hands out copies: changing a result or the input changes nothing stored', () => {
    const { store } = setup();
    const input = configMap('a', { labels: { v: '1' } });
    const created = store.create(configMaps, 'default', input);
    input.metadata.labels!.v = 'input';
    created.metadata.labels!.v = 'created';
    const got = store.get(configMaps, 'default', 'a');
    got.metadata.labels!.v = 'got';
    store.list(configMaps, 'default').items[0].metadata.labels!.v = 'listed';
    expect(store.get(configMaps, 'default', 'a').metadata.labels).toEqual({ v: '1' });
  });
});

function exporterSet(name: string): KubeObject {
  return {
    apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
    kind: 'ExporterSet',
    metadata: { name },
    spec: {
      minReplicas: 1,
      maxReplicas: 3,
      virtualTargetClassName: 'qemu-rpi4',
      selector: { matchLabels: { board: 'rpi4' } },
      template: {
        metadata: { labels: { board: 'rpi4' } },
        spec: { drivers: [{ type: 'jumpstarter_driver_power.driver.QemuPower' }] },
      },
    },
  };
}
