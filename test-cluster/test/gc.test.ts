import { describe, expect, it } from '@jest/globals';
import { manualClock } from '../src/clock';
import { createRegistry } from '../src/registry';
import { createStore } from '../src/store';
import type { KubeObject } from '../src/types';

const registry = createRegistry();
const configMaps = registry.get('', 'v1', 'configmaps')!;
const secrets = registry.get('', 'v1', 'secrets')!;
const namespaces = registry.get('', 'v1', 'namespaces')!;

function setup() {
  const clock = manualClock();
  const store = createStore({ registry, clock, namespaces: ['lab'] });
  const names = () => store.list(configMaps, undefined).items.map((o) => o.metadata.name);
  const get = (name: string) =>
    store.list(configMaps, 'lab', { fieldSelector: `metadata.name=${name}` }).items[0];
  return { clock, store, names, get };
}

type Owner = { name: string; uid?: string; blockOwnerDeletion?: boolean };

const cm = (name: string, owners: Owner[] = [], finalizers?: string[]): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name,
    ...(owners.length
      ? {
          ownerReferences: owners.map((o) => ({
            apiVersion: 'v1',
            kind: 'ConfigMap',
            name: o.name,
            uid: o.uid ?? '',
            ...(o.blockOwnerDeletion !== undefined ? { blockOwnerDeletion: o.blockOwnerDeletion } : {}),
          })),
        }
      : {}),
    ...(finalizers ? { finalizers } : {}),
  },
});

/** owner ← child ← grandchild, each owned by the one before. */
function chain(store: ReturnType<typeof setup>['store'], blockOwnerDeletion?: boolean) {
  const owner = store.create(configMaps, 'lab', cm('owner'));
  const child = store.create(
    configMaps,
    'lab',
    cm('child', [{ name: 'owner', uid: owner.metadata.uid, blockOwnerDeletion }]),
  );
  store.create(
    configMaps,
    'lab',
    cm('grandchild', [{ name: 'child', uid: child.metadata.uid, blockOwnerDeletion }]),
  );
}

describe('garbage collection › Background (the default)', () => {
  it('removes the owner at once and its dependents asynchronously on the clock, through two levels', () => {
    const { clock, store, names } = setup();
    chain(store);
    const deleted: string[] = [];
    store.watch(configMaps, 'lab', { resourceVersion: store.resourceVersion() }, (e) => {
      if (e.type === 'DELETED') deleted.push(e.object.metadata.name!);
    });
    store.delete(configMaps, 'lab', 'owner');
    expect(names()).toEqual(['child', 'grandchild']);
    clock.advance(0);
    expect(names()).toEqual([]);
    expect(deleted).toEqual(['owner', 'child', 'grandchild']);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('collects at once when asked (collectGarbage), with an explicit Background policy too', () => {
    const { clock, store, names } = setup();
    chain(store);
    store.delete(configMaps, 'lab', 'owner', { propagationPolicy: 'Background' });
    store.collectGarbage();
    expect(names()).toEqual([]);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('keeps a dependent that still has another owner and drops the reference to the gone one', () => {
    const { store, get } = setup();
    const a = store.create(configMaps, 'lab', cm('a'));
    const b = store.create(configMaps, 'lab', cm('b'));
    store.create(
      configMaps,
      'lab',
      cm('shared', [
        { name: 'a', uid: a.metadata.uid },
        { name: 'b', uid: b.metadata.uid },
      ]),
    );
    store.delete(configMaps, 'lab', 'a');
    store.collectGarbage();
    expect(get('shared').metadata.ownerReferences?.map((o) => o.name)).toEqual(['b']);
  });

  it('deletes an object created with an owner that does not exist (or whose uid is another)', () => {
    const { store, names } = setup();
    const real = store.create(configMaps, 'lab', cm('real'));
    store.create(
      configMaps,
      'lab',
      cm('orphan', [{ name: 'ghost', uid: '00000000-0000-4000-8000-000000000000' }]),
    );
    store.create(configMaps, 'lab', cm('impostor', [{ name: 'real', uid: 'not-the-uid' }]));
    store.create(configMaps, 'lab', cm('kept', [{ name: 'real', uid: real.metadata.uid }]));
    store.collectGarbage();
    expect(names()).toEqual(['kept', 'real']);
  });

  it('keeps dependents whose owner is of a kind the server does not serve', () => {
    const { store, names } = setup();
    const unknown = cm('foreign');
    unknown.metadata.ownerReferences = [
      { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: 'u-1' },
    ];
    store.create(configMaps, 'lab', unknown);
    store.collectGarbage();
    expect(names()).toEqual(['foreign']);
  });

  it('collects dependents of other kinds', () => {
    const { store } = setup();
    const owner = store.create(configMaps, 'lab', cm('owner'));
    store.create(secrets, 'lab', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 's',
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid! }],
      },
    });
    store.delete(configMaps, 'lab', 'owner');
    store.collectGarbage();
    expect(store.list(secrets, 'lab').items).toEqual([]);
  });
});

describe('garbage collection › Orphan', () => {
  it('removes the owner reference from dependents, then the orphan finalizer, then the owner', () => {
    const { store, names, get } = setup();
    chain(store);
    const deleting = store.delete(configMaps, 'lab', 'owner', { propagationPolicy: 'Orphan' });
    expect(deleting.metadata.finalizers).toEqual(['orphan']);
    expect(deleting.metadata.deletionTimestamp).toBeDefined();
    store.collectGarbage();
    expect(names()).toEqual(['child', 'grandchild']);
    expect(get('child').metadata.ownerReferences).toBeUndefined();
    expect(get('grandchild').metadata.ownerReferences).toHaveLength(1);
  });
});

describe('garbage collection › Foreground', () => {
  it('keeps the owner (foregroundDeletion) until blocking dependents are gone, deleting the chain bottom-up', () => {
    const { store, names, get } = setup();
    chain(store, true);
    const deleting = store.delete(configMaps, 'lab', 'owner', { propagationPolicy: 'Foreground' });
    expect(deleting.metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(names()).toEqual(['child', 'grandchild', 'owner']);
    const deleted: string[] = [];
    store.watch(configMaps, 'lab', { resourceVersion: store.resourceVersion() }, (e) => {
      if (e.type === 'DELETED') deleted.push(e.object.metadata.name!);
    });
    store.collectGarbage();
    // The child has a dependent, so the collector deletes it in the foreground too: it outlives the grandchild.
    expect(deleted).toEqual(['grandchild', 'child', 'owner']);
    expect(names()).toEqual([]);
    expect(get('owner')).toBeUndefined();
  });

  it('waits for a blocking dependent held by its own finalizer', () => {
    const { store, names } = setup();
    const owner = store.create(configMaps, 'lab', cm('owner'));
    store.create(
      configMaps,
      'lab',
      cm('held', [{ name: 'owner', uid: owner.metadata.uid, blockOwnerDeletion: true }], ['test/hold']),
    );
    store.delete(configMaps, 'lab', 'owner', { propagationPolicy: 'Foreground' });
    store.collectGarbage();
    expect(names()).toEqual(['held', 'owner']);
    store.patch(configMaps, 'lab', 'held', 'merge', { metadata: { finalizers: null } });
    store.collectGarbage();
    expect(names()).toEqual([]);
  });

  it('does not wait for dependents that do not block, but still deletes them', () => {
    const { store, names } = setup();
    const owner = store.create(configMaps, 'lab', cm('owner'));
    store.create(configMaps, 'lab', cm('loose', [{ name: 'owner', uid: owner.metadata.uid }], ['test/hold']));
    store.delete(configMaps, 'lab', 'owner', { propagationPolicy: 'Foreground' });
    store.collectGarbage();
    expect(names()).toEqual(['loose']);
    expect(store.get(configMaps, 'lab', 'loose').metadata.deletionTimestamp).toBeDefined();
  });
});

describe('namespace lifecycle', () => {
  it('terminates a namespace: deletes its content, waits for finalizers, then removes it', () => {
    const { store } = setup();
    store.ensureNamespace('team');
    store.create(configMaps, 'team', cm('plain'));
    store.create(configMaps, 'team', cm('held', [], ['test/hold']));
    store.create(configMaps, 'lab', cm('elsewhere'));
    expect(store.delete(namespaces, undefined, 'team').status).toEqual({ phase: 'Terminating' });
    store.collectGarbage();
    expect(store.list(configMaps, 'team').items.map((o) => o.metadata.name)).toEqual(['held']);
    expect(store.get(namespaces, undefined, 'team').metadata.deletionTimestamp).toBeDefined();
    store.patch(configMaps, 'team', 'held', 'merge', { metadata: { finalizers: null } });
    store.collectGarbage();
    expect(store.list(namespaces, undefined).items.map((o) => o.metadata.name)).toEqual(['lab']);
    expect(store.list(configMaps, 'lab').items).toHaveLength(1);
  });
});
