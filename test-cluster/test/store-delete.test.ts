import { describe, expect, it } from '@jest/globals';
import { manualClock } from '../src/clock';
import { createRegistry } from '../src/registry';
import { createStore } from '../src/store';
import type { KubeObject, ResourceType, WatchEvent } from '../src/types';
import { apiError } from './store-support';

const registry = createRegistry();
const configMaps = registry.get('', 'v1', 'configmaps')!;

function setup() {
  const clock = manualClock(Date.parse('2025-06-01T12:00:00Z'));
  const store = createStore({ registry, clock, namespaces: ['lab'] });
  const events: WatchEvent[] = [];
  store.watch(configMaps, 'lab', {}, (e) => events.push(e));
  return { clock, store, events };
}

const cm = (name: string, finalizers?: string[]): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...(finalizers ? { finalizers } : {}) },
});

const exists = (store: ReturnType<typeof setup>['store'], rt: ResourceType, name: string) =>
  store.list(rt, 'lab', { fieldSelector: `metadata.name=${name}` }).items.length > 0;

describe('store › delete', () => {
  it('removes an object without finalizers at once and emits DELETED with a new resourceVersion', () => {
    const { store, events } = setup();
    const created = store.create(configMaps, 'lab', cm('a'));
    const deleted = store.delete(configMaps, 'lab', 'a');
    expect(deleted.metadata.name).toBe('a');
    expect(Number(deleted.metadata.resourceVersion)).toBeGreaterThan(
      Number(created.metadata.resourceVersion),
    );
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'DELETED']);
    expect(events[1].object.metadata.resourceVersion).toBe(store.resourceVersion());
    expect(apiError(() => store.get(configMaps, 'lab', 'a')).code).toBe(404);
    expect(apiError(() => store.delete(configMaps, 'lab', 'a')).code).toBe(404);
  });

  it('checks uid and resourceVersion preconditions (409)', () => {
    const { store } = setup();
    const created = store.create(configMaps, 'lab', cm('a'));
    const wrongUid = apiError(() =>
      store.delete(configMaps, 'lab', 'a', { preconditions: { uid: 'other' } }),
    );
    expect(wrongUid).toMatchObject({ code: 409, reason: 'Conflict' });
    expect(wrongUid.message).toBe(
      `Operation cannot be fulfilled on ConfigMap "a": the UID in the precondition (other) does not match the UID in record (${created.metadata.uid}). The object might have been deleted and then recreated`,
    );
    const stale = apiError(() =>
      store.delete(configMaps, 'lab', 'a', { preconditions: { resourceVersion: '1' } }),
    );
    expect(stale.code).toBe(409);
    store.delete(configMaps, 'lab', 'a', {
      preconditions: { uid: created.metadata.uid, resourceVersion: created.metadata.resourceVersion },
    });
    expect(exists(store, configMaps, 'a')).toBe(false);
  });
});

describe('store › finalizers', () => {
  it('marks an object with finalizers as deleting: deletionTimestamp from the clock, generation + 1, kept', () => {
    const { store, events } = setup();
    store.create(configMaps, 'lab', cm('a', ['test/hold']));
    const deleting = store.delete(configMaps, 'lab', 'a');
    expect(deleting.metadata).toMatchObject({
      deletionTimestamp: '2025-06-01T12:00:00Z',
      deletionGracePeriodSeconds: 0,
      generation: 2,
      finalizers: ['test/hold'],
    });
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED']);
    expect(store.get(configMaps, 'lab', 'a').metadata.deletionTimestamp).toBe('2025-06-01T12:00:00Z');
  });

  it('does not change a deleting object on a second delete', () => {
    const { store, events } = setup();
    store.create(configMaps, 'lab', cm('a', ['test/hold']));
    const first = store.delete(configMaps, 'lab', 'a');
    expect(store.delete(configMaps, 'lab', 'a').metadata.resourceVersion).toBe(
      first.metadata.resourceVersion,
    );
    expect(events).toHaveLength(2);
  });

  it('deletes the object when its last finalizer is removed, by update or patch', () => {
    const { store, events } = setup();
    store.create(configMaps, 'lab', cm('a', ['test/one', 'test/two']));
    store.delete(configMaps, 'lab', 'a');
    const current = store.get(configMaps, 'lab', 'a');
    store.update(configMaps, 'lab', 'a', {
      ...current,
      metadata: { ...current.metadata, finalizers: ['test/two'] },
    });
    expect(exists(store, configMaps, 'a')).toBe(true);
    store.patch(configMaps, 'lab', 'a', 'json', [{ op: 'remove', path: '/metadata/finalizers' }]);
    expect(exists(store, configMaps, 'a')).toBe(false);
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'MODIFIED', 'DELETED']);
    expect(events[3].object.metadata.finalizers).toBeUndefined();
  });

  it('keeps the deletionTimestamp through updates and refuses new finalizers while deleting (422)', () => {
    const { store } = setup();
    store.create(configMaps, 'lab', cm('a', ['test/hold']));
    const deleting = store.delete(configMaps, 'lab', 'a');
    const { deletionTimestamp: _, ...meta } = deleting.metadata;
    const relabelled = store.update(configMaps, 'lab', 'a', {
      ...deleting,
      metadata: { ...meta, labels: { x: 'y' } },
    });
    expect(relabelled.metadata.deletionTimestamp).toBe(deleting.metadata.deletionTimestamp);
    const err = apiError(() =>
      store.patch(configMaps, 'lab', 'a', 'merge', { metadata: { finalizers: ['test/hold', 'test/new'] } }),
    );
    expect(err).toMatchObject({ code: 422, reason: 'Invalid' });
    expect(err.details?.causes?.[0]).toMatchObject({
      field: 'metadata.finalizers',
      reason: 'FieldValueForbidden',
    });
  });
});
