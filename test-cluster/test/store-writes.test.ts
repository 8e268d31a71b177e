import { describe, expect, it } from '@jest/globals';
import { jumpstarterCrds, LeaseRuleMessages, ourCrds, RuleMessages } from 'virtual-exporters/internal';
import { manualClock } from '../src/clock';
import { createRegistry } from '../src/registry';
import { createStore } from '../src/store';
import type { KubeObject, ResourceType, WatchEvent } from '../src/types';
import { apiError } from './store-support';

const registry = createRegistry([...ourCrds, ...jumpstarterCrds]);
const type = (group: string, plural: string): ResourceType =>
  registry.all().find((rt) => rt.group === group && rt.plural === plural)!;
const configMaps = type('', 'configmaps');
const pods = type('', 'pods');
const exporterSets = type('virtualtarget.jumpstarter.dev', 'exportersets');
const leases = type('jumpstarter.dev', 'leases');

function setup() {
  const store = createStore({ registry, clock: manualClock(), namespaces: ['lab'] });
  const events: WatchEvent[] = [];
  store.watch(exporterSets, 'lab', {}, (e) => events.push(e));
  store.watch(configMaps, 'lab', {}, (e) => events.push(e));
  return { store, events };
}

function exporterSet(name = 'pool', spec: Record<string, unknown> = {}): KubeObject {
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
      ...spec,
    },
  };
}

/** A valid ExporterSet status: the required counters, plus `extra`. */
function status(extra: Record<string, unknown> = {}) {
  const counters = [
    'availableReplicas',
    'exportersActive',
    'exportersDisabled',
    'exportersIdle',
    'exportersOffline',
    'leasedReplicas',
    'podsFailed',
    'podsPending',
    'podsRunning',
    'podsUnknown',
    'readyReplicas',
    'replicas',
    'unavailableReplicas',
  ];
  return { ...Object.fromEntries(counters.map((c) => [c, 0])), ...extra };
}

const spec = (o: KubeObject) => o.spec as Record<string, unknown>;

describe('store › admission of custom resources', () => {
  it('applies the CRD defaults on create', () => {
    const { store } = setup();
    const created = store.create(exporterSets, 'lab', exporterSet());
    expect(spec(created)).toMatchObject({ minAvailableReplicas: 0, recycleStrategy: 'ExitAndReplace' });
  });

  it('rejects a CEL rule violation with 422, the rule message verbatim (no value shown for an object) and a FieldValueInvalid cause', () => {
    const { store } = setup();
    const err = apiError(() => store.create(exporterSets, 'lab', exporterSet('pool', { minReplicas: 5 })));
    expect(err).toMatchObject({ code: 422, reason: 'Invalid' });
    expect(err.message).toBe(
      `ExporterSet.virtualtarget.jumpstarter.dev "pool" is invalid: spec: Invalid value: ${RuleMessages.minReplicasLeMax}`,
    );
    expect(err.details).toEqual({
      name: 'pool',
      group: 'virtualtarget.jumpstarter.dev',
      kind: 'ExporterSet',
      causes: [
        {
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${RuleMessages.minReplicasLeMax}`,
          field: 'spec',
        },
      ],
    });
  });

  it('rejects a schema violation with the field and the type the API server decoded', () => {
    const { store } = setup();
    const err = apiError(() =>
      store.create(exporterSets, 'lab', exporterSet('pool', { maxReplicas: 'three' })),
    );
    expect(err.code).toBe(422);
    expect(err.details?.causes?.[0]).toEqual({
      reason: 'FieldValueTypeInvalid',
      message: 'Invalid value: "string": spec.maxReplicas in body must be of type integer: "string"',
      field: 'spec.maxReplicas',
    });
  });

  it('runs transition rules against the stored object on update', () => {
    const { store } = setup();
    const lease: KubeObject = {
      apiVersion: 'jumpstarter.dev/v1alpha1',
      kind: 'Lease',
      metadata: { name: 'l' },
      spec: {
        clientRef: { name: 'ci' },
        selector: { matchLabels: { board: 'rpi4' } },
        tags: { team: 'bsp' },
      },
    };
    store.create(leases, 'lab', lease);
    const err = apiError(() =>
      store.patch(leases, 'lab', 'l', 'merge', { spec: { tags: { team: 'kernel' } } }),
    );
    expect(err.code).toBe(422);
    expect(err.message).toContain(LeaseRuleMessages.tagsImmutable);
    expect(store.patch(leases, 'lab', 'l', 'merge', { spec: { release: true } }).spec).toMatchObject({
      release: true,
    });
  });
});

describe('store › optimistic concurrency', () => {
  it('rejects an update with a stale resourceVersion with 409 Conflict and Kubernetes wording', () => {
    const { store } = setup();
    const created = store.create(exporterSets, 'lab', exporterSet());
    store.update(exporterSets, 'lab', 'pool', {
      ...created,
      metadata: { ...created.metadata, labels: { a: 'b' } },
    });
    const err = apiError(() => store.update(exporterSets, 'lab', 'pool', created));
    expect(err).toMatchObject({ code: 409, reason: 'Conflict' });
    expect(err.message).toBe(
      'Operation cannot be fulfilled on exportersets.virtualtarget.jumpstarter.dev "pool": the object has been modified; please apply your changes to the latest version and try again',
    );
  });

  it('lets the last write win when the update carries no resourceVersion', () => {
    const { store } = setup();
    const created = store.create(configMaps, 'lab', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c' },
    });
    const { resourceVersion: _, ...meta } = created.metadata;
    const updated = store.update(configMaps, 'lab', 'c', { ...created, metadata: meta, data: { k: 'v' } });
    expect(updated.data).toEqual({ k: 'v' });
  });

  it('checks a resourceVersion carried by a patch', () => {
    const { store } = setup();
    store.create(exporterSets, 'lab', exporterSet());
    const err = apiError(() =>
      store.patch(exporterSets, 'lab', 'pool', 'merge', {
        metadata: { resourceVersion: '1' },
        spec: { maxReplicas: 4 },
      }),
    );
    expect(err.code).toBe(409);
  });

  it('keeps uid and creationTimestamp: another uid is a 409, another name a 400', () => {
    const { store } = setup();
    const created = store.create(exporterSets, 'lab', exporterSet());
    const otherUid = { ...created, metadata: { ...created.metadata, uid: 'x' } };
    expect(apiError(() => store.update(exporterSets, 'lab', 'pool', otherUid)).code).toBe(409);
    expect(apiError(() => store.update(exporterSets, 'lab', 'other', created)).code).toBe(400);
    const stamped = {
      ...created,
      metadata: { ...created.metadata, creationTimestamp: '2000-01-01T00:00:00Z', labels: { a: 'b' } },
    };
    expect(store.update(exporterSets, 'lab', 'pool', stamped).metadata.creationTimestamp).toBe(
      created.metadata.creationTimestamp,
    );
  });
});

describe('store › status subresource and generation', () => {
  it('ignores status in main-resource writes', () => {
    const { store } = setup();
    const created = store.create(exporterSets, 'lab', exporterSet());
    const updated = store.update(exporterSets, 'lab', 'pool', { ...created, status: { replicas: 9 } });
    expect(updated).not.toHaveProperty('status');
    expect(store.patch(exporterSets, 'lab', 'pool', 'merge', { status: { replicas: 9 } })).not.toHaveProperty(
      'status',
    );
  });

  it('changes only status through /status, keeping metadata and spec, and bumps only the resourceVersion', () => {
    const { store } = setup();
    const created = store.create(exporterSets, 'lab', exporterSet());
    const written = store.update(
      exporterSets,
      'lab',
      'pool',
      {
        ...created,
        metadata: { ...created.metadata, labels: { sneaky: 'yes' } },
        spec: { ...spec(created), maxReplicas: 9 },
        status: status({ replicas: 2 }),
      },
      'status',
    );
    expect(written.status).toMatchObject({ replicas: 2 });
    expect(written.metadata.labels).toBeUndefined();
    expect(spec(written).maxReplicas).toBe(3);
    expect(written.metadata.generation).toBe(1);
    expect(Number(written.metadata.resourceVersion)).toBeGreaterThan(
      Number(created.metadata.resourceVersion),
    );
    const patched = store.patch(
      exporterSets,
      'lab',
      'pool',
      'merge',
      { status: status({ replicas: 3 }) },
      'status',
    );
    expect(patched.status).toMatchObject({ replicas: 3 });
  });

  it('validates status written through /status', () => {
    const { store } = setup();
    store.create(exporterSets, 'lab', exporterSet());
    const err = apiError(() =>
      store.patch(exporterSets, 'lab', 'pool', 'merge', { status: status({ replicas: 'two' }) }, 'status'),
    );
    expect(err.code).toBe(422);
  });

  it('bumps generation on spec changes only, not on labels, annotations or status', () => {
    const { store } = setup();
    store.create(exporterSets, 'lab', exporterSet());
    const labelled = store.patch(exporterSets, 'lab', 'pool', 'merge', {
      metadata: { labels: { a: 'b' }, annotations: { n: 'x' } },
    });
    expect(labelled.metadata.generation).toBe(1);
    const reported = store.patch(
      exporterSets,
      'lab',
      'pool',
      'merge',
      { status: status({ replicas: 1 }) },
      'status',
    );
    expect(reported.metadata.generation).toBe(1);
    expect(
      store.patch(exporterSets, 'lab', 'pool', 'merge', { spec: { maxReplicas: 4 } }).metadata.generation,
    ).toBe(2);
  });

  it('bumps generation on any non-metadata change of a kind without status subresource', () => {
    const { store } = setup();
    store.create(configMaps, 'lab', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c' },
      data: { a: '1' },
    });
    expect(
      store.patch(configMaps, 'lab', 'c', 'merge', { metadata: { labels: { x: 'y' } } }).metadata.generation,
    ).toBe(1);
    expect(store.patch(configMaps, 'lab', 'c', 'merge', { data: { a: '2' } }).metadata.generation).toBe(2);
  });

  it('answers 404 for a subresource the kind does not have', () => {
    const { store } = setup();
    store.create(configMaps, 'lab', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } });
    expect(apiError(() => store.get(configMaps, 'lab', 'c', 'status')).code).toBe(404);
    expect(apiError(() => store.get(configMaps, 'lab', 'c', 'scale')).code).toBe(404);
  });

  it('isolates pod status like any status subresource', () => {
    const { store } = setup();
    store.create(pods, 'lab', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [] },
    });
    const running = store.patch(pods, 'lab', 'p', 'merge', { status: { phase: 'Running' } }, 'status');
    expect(running.status).toEqual({ phase: 'Running' });
    expect(store.patch(pods, 'lab', 'p', 'merge', { metadata: { labels: { a: 'b' } } }).status).toEqual({
      phase: 'Running',
    });
  });
});

describe('store › no-op writes', () => {
  it('keep the resourceVersion and emit no event', () => {
    const { store, events } = setup();
    const created = store.create(exporterSets, 'lab', exporterSet());
    const count = events.length;
    expect(store.update(exporterSets, 'lab', 'pool', created).metadata.resourceVersion).toBe(
      created.metadata.resourceVersion,
    );
    store.patch(exporterSets, 'lab', 'pool', 'merge', { spec: { maxReplicas: 3 } });
    store.patch(exporterSets, 'lab', 'pool', 'json', [{ op: 'test', path: '/spec/maxReplicas', value: 3 }]);
    store.patch(exporterSets, 'lab', 'pool', 'merge', { metadata: { labels: {} } });
    expect(events).toHaveLength(count);
    expect(store.resourceVersion()).toBe(created.metadata.resourceVersion);
  });
});

describe('store › patches', () => {
  it('applies merge, JSON and strategic merge patches', () => {
    const { store } = setup();
    store.create(exporterSets, 'lab', {
      ...exporterSet(),
      metadata: { name: 'pool', labels: { a: '1', b: '2' } },
    });
    const merged = store.patch(exporterSets, 'lab', 'pool', 'merge', {
      metadata: { labels: { a: null, c: '3' } },
    });
    expect(merged.metadata.labels).toEqual({ b: '2', c: '3' });
    const jsonPatched = store.patch(exporterSets, 'lab', 'pool', 'json', [
      { op: 'replace', path: '/spec/maxReplicas', value: 5 },
      { op: 'add', path: '/metadata/labels/d', value: '4' },
    ]);
    expect(spec(jsonPatched).maxReplicas).toBe(5);
    expect(jsonPatched.metadata.labels).toEqual({ b: '2', c: '3', d: '4' });
    const strategic = store.patch(exporterSets, 'lab', 'pool', 'strategic', { spec: { minReplicas: 2 } });
    expect(spec(strategic)).toMatchObject({ minReplicas: 2, maxReplicas: 5 });
  });

  it('rejects a JSON patch whose test fails with 422 Invalid and changes nothing', () => {
    const { store } = setup();
    const created = store.create(exporterSets, 'lab', exporterSet());
    const err = apiError(() =>
      store.patch(exporterSets, 'lab', 'pool', 'json', [
        { op: 'replace', path: '/spec/maxReplicas', value: 7 },
        { op: 'test', path: '/spec/minReplicas', value: 2 },
      ]),
    );
    expect(err).toMatchObject({ code: 422, reason: 'Invalid' });
    expect(store.get(exporterSets, 'lab', 'pool')).toEqual(created);
  });

  it('answers 404 for a patch of a missing object', () => {
    const { store } = setup();
    expect(apiError(() => store.patch(exporterSets, 'lab', 'nope', 'merge', {})).code).toBe(404);
  });
});

describe('store › scale subresource', () => {
  it('reads an autoscaling/v1 Scale from the scale paths', () => {
    const { store } = setup();
    store.create(exporterSets, 'lab', exporterSet());
    store.patch(
      exporterSets,
      'lab',
      'pool',
      'merge',
      { status: status({ replicas: 2, selector: 'board=rpi4' }) },
      'status',
    );
    const scale = store.get(exporterSets, 'lab', 'pool', 'scale');
    expect(scale).toMatchObject({
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name: 'pool', namespace: 'lab' },
      spec: { replicas: 3 },
      status: { replicas: 2, selector: 'board=rpi4' },
    });
  });

  it('writes spec.replicas to the spec path, bumping generation, through update and patch', () => {
    const { store } = setup();
    store.create(exporterSets, 'lab', exporterSet());
    const scale = store.get(exporterSets, 'lab', 'pool', 'scale');
    const scaled = store.update(exporterSets, 'lab', 'pool', { ...scale, spec: { replicas: 6 } }, 'scale');
    expect(scaled.spec).toEqual({ replicas: 6 });
    const set = store.get(exporterSets, 'lab', 'pool');
    expect(spec(set).maxReplicas).toBe(6);
    expect(set.metadata.generation).toBe(2);
    store.patch(exporterSets, 'lab', 'pool', 'merge', { spec: { replicas: 4 } }, 'scale');
    expect(spec(store.get(exporterSets, 'lab', 'pool')).maxReplicas).toBe(4);
  });

  it('runs admission on the scaled object and checks its resourceVersion', () => {
    const { store } = setup();
    store.create(exporterSets, 'lab', exporterSet('pool', { minReplicas: 2 }));
    const scale = store.get(exporterSets, 'lab', 'pool', 'scale');
    const err = apiError(() =>
      store.update(exporterSets, 'lab', 'pool', { ...scale, spec: { replicas: 1 } }, 'scale'),
    );
    expect(err.message).toContain(RuleMessages.minReplicasLeMax);
    store.patch(exporterSets, 'lab', 'pool', 'merge', { spec: { maxReplicas: 5 } });
    expect(
      apiError(() => store.update(exporterSets, 'lab', 'pool', { ...scale, spec: { replicas: 4 } }, 'scale'))
        .code,
    ).toBe(409);
    expect(
      apiError(() => store.patch(exporterSets, 'lab', 'pool', 'merge', { spec: { replicas: -1 } }, 'scale'))
        .code,
    ).toBe(422);
  });
});
