import { describe, expect, it } from '@jest/globals';
import { manualClock } from '../src/clock';
import { createRegistry } from '../src/registry';
import { createStore } from '../src/store';
import type { KubeObject, WatchEvent } from '../src/types';
import { apiError } from './store-support';

const registry = createRegistry();
const configMaps = registry.get('', 'v1', 'configmaps')!;
const secrets = registry.get('', 'v1', 'secrets')!;

function setup(watchWindow?: number) {
  return createStore({ registry, clock: manualClock(), namespaces: ['lab', 'other'], watchWindow });
}

const cm = (name: string, labels?: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...(labels ? { labels } : {}) },
});

const summary = (events: WatchEvent[]) => events.map((e) => `${e.type} ${e.object.metadata.name ?? ''}`);

describe('store › watch', () => {
  it.each([undefined, '0'])(
    'starts with a synthetic ADDED per current object (resourceVersion %s), then live events',
    (resourceVersion) => {
      const store = setup();
      store.create(configMaps, 'lab', cm('b'));
      store.create(configMaps, 'lab', cm('a'));
      const events: WatchEvent[] = [];
      store.watch(configMaps, 'lab', { resourceVersion }, (e) => events.push(e));
      store.create(configMaps, 'lab', cm('c'));
      store.patch(configMaps, 'lab', 'a', 'merge', { data: { x: '1' } });
      store.delete(configMaps, 'lab', 'b');
      expect(summary(events)).toEqual(['ADDED a', 'ADDED b', 'ADDED c', 'MODIFIED a', 'DELETED b']);
      expect(events.every((e) => e.object.apiVersion === 'v1' && e.object.kind === 'ConfigMap')).toBe(true);
    },
  );

  it('resumes after a resourceVersion by replaying the kept events, with no synthetic ADDED', () => {
    const store = setup();
    store.create(configMaps, 'lab', cm('a'));
    const from = store.resourceVersion();
    store.create(configMaps, 'lab', cm('b'));
    store.create(secrets, 'lab', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } });
    store.delete(configMaps, 'lab', 'a');
    const events: WatchEvent[] = [];
    store.watch(configMaps, 'lab', { resourceVersion: from }, (e) => events.push(e));
    expect(summary(events)).toEqual(['ADDED b', 'DELETED a']);
    expect(events.map((e) => Number(e.object.metadata.resourceVersion))).toEqual(
      [...events.map((e) => Number(e.object.metadata.resourceVersion))].sort((x, y) => x - y),
    );
  });

  it('answers 410 Expired for a resourceVersion older than the kept window', () => {
    const store = setup(3);
    store.create(configMaps, 'lab', cm('a'));
    const old = store.resourceVersion();
    for (const name of ['b', 'c', 'd', 'e']) store.create(configMaps, 'lab', cm(name));
    const err = apiError(() => store.watch(configMaps, 'lab', { resourceVersion: old }, () => {}));
    expect(err).toMatchObject({ code: 410, reason: 'Expired' });
    expect(err.message).toMatch(new RegExp(`^too old resource version: ${old} \\(\\d+\\)$`));
    const oldest = err.message.match(/\((\d+)\)$/)![1];
    const events: WatchEvent[] = [];
    store.watch(configMaps, 'lab', { resourceVersion: oldest }, (e) => events.push(e));
    expect(summary(events)).toEqual(['ADDED c', 'ADDED d', 'ADDED e']);
  });

  it('rejects a malformed resourceVersion or selector with 400', () => {
    const store = setup();
    expect(apiError(() => store.watch(configMaps, 'lab', { resourceVersion: 'abc' }, () => {})).code).toBe(
      400,
    );
    expect(apiError(() => store.watch(configMaps, 'lab', { labelSelector: 'a in b' }, () => {})).code).toBe(
      400,
    );
  });

  it('filters by namespace and selectors, turning objects that start or stop matching into ADDED or DELETED', () => {
    const store = setup();
    const events: WatchEvent[] = [];
    store.watch(configMaps, 'lab', { labelSelector: 'app=x' }, (e) => events.push(e));
    store.create(configMaps, 'other', cm('elsewhere', { app: 'x' }));
    store.create(configMaps, 'lab', cm('a', { app: 'y' }));
    store.patch(configMaps, 'lab', 'a', 'merge', { metadata: { labels: { app: 'x' } } });
    store.patch(configMaps, 'lab', 'a', 'merge', { data: { k: 'v' } });
    store.patch(configMaps, 'lab', 'a', 'merge', { metadata: { labels: { app: 'z' } } });
    expect(summary(events)).toEqual(['ADDED a', 'MODIFIED a', 'DELETED a']);
    expect(events[2].object.metadata.labels).toEqual({ app: 'x' });
    expect(events[2].object.metadata.resourceVersion).toBe(store.resourceVersion());
  });

  it('watches every namespace when none is given', () => {
    const store = setup();
    const events: WatchEvent[] = [];
    store.watch(configMaps, undefined, { fieldSelector: 'metadata.name=a' }, (e) => events.push(e));
    store.create(configMaps, 'lab', cm('a'));
    store.create(configMaps, 'other', cm('a'));
    store.create(configMaps, 'other', cm('b'));
    expect(events.map((e) => e.object.metadata.namespace)).toEqual(['lab', 'other']);
  });

  it('gives each watcher its own deep copy', () => {
    const store = setup();
    const first: WatchEvent[] = [];
    const second: WatchEvent[] = [];
    store.watch(configMaps, 'lab', {}, (e) => {
      e.object.metadata.labels = { changed: 'by-watcher' };
      first.push(e);
    });
    store.watch(configMaps, 'lab', {}, (e) => second.push(e));
    store.create(configMaps, 'lab', cm('a', { v: '1' }));
    expect(second[0].object.metadata.labels).toEqual({ v: '1' });
    expect(store.get(configMaps, 'lab', 'a').metadata.labels).toEqual({ v: '1' });
  });

  it('delivers events in commit order to every watcher, even when a watcher writes from its callback', () => {
    const store = setup();
    const seenByReactor: string[] = [];
    const seenByObserver: string[] = [];
    store.watch(configMaps, 'lab', {}, (e) => {
      seenByReactor.push(`${e.type} ${e.object.metadata.name}`);
      if (e.type === 'ADDED' && e.object.metadata.name === 'a')
        store.create(configMaps, 'lab', cm('reaction'));
    });
    store.watch(configMaps, 'lab', {}, (e) => seenByObserver.push(e.object.metadata.resourceVersion!));
    store.create(configMaps, 'lab', cm('a'));
    expect(seenByReactor).toEqual(['ADDED a', 'ADDED reaction']);
    expect(seenByObserver.map(Number)).toEqual([...seenByObserver.map(Number)].sort((x, y) => x - y));
    expect(seenByObserver).toHaveLength(2);
  });

  it('stops delivering after stop()', () => {
    const store = setup();
    const events: WatchEvent[] = [];
    const watch = store.watch(configMaps, 'lab', {}, (e) => events.push(e));
    store.create(configMaps, 'lab', cm('a'));
    watch.stop();
    store.create(configMaps, 'lab', cm('b'));
    expect(summary(events)).toEqual(['ADDED a']);
  });

  it('sends a BOOKMARK with the current resourceVersion only when the watch allows bookmarks', () => {
    const store = setup();
    const plain: WatchEvent[] = [];
    const withBookmarks: WatchEvent[] = [];
    const a = store.watch(configMaps, 'lab', {}, (e) => plain.push(e));
    const b = store.watch(configMaps, 'lab', { allowBookmarks: true }, (e) => withBookmarks.push(e));
    store.create(secrets, 'lab', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } });
    a.bookmark();
    b.bookmark();
    expect(plain).toEqual([]);
    expect(withBookmarks).toEqual([
      {
        type: 'BOOKMARK',
        object: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { resourceVersion: store.resourceVersion() },
        },
      },
    ]);
  });
});
