/**
 * The informers' indexes (object-index.ts): objects under the keys their function gives, moved when an
 * update changes the keys, gone when deleted; on an informer, the index follows the cluster through the
 * first list, watch events and a relabel, and an index added to a synced cache holds what it caches.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Labels } from 'virtual-exporters/internal';
import { createClients } from '../../src/kube/clients';
import { createInformers } from '../../src/kube/informers';
import type { WireObject } from '../../src/kube/informer-contract';
import { ObjectIndex } from '../../src/kube/object-index';
import { mergePatch } from '../../src/kube/patch';
import { SET_INDEX, addSetIndexes } from '../../src/reconciler/set-index';
import { startTestCluster, type TestCluster } from 'virtual-exporters-test-cluster';
import { eventually, exporter, names } from './support';

const object = (name: string, ...tags: string[]): WireObject =>
  ({
    metadata: { name, namespace: 'lab', labels: Object.fromEntries(tags.map((t) => [t, 'yes'])) },
  }) as WireObject;
const byTags = (o: WireObject) => Object.keys(o.metadata?.labels ?? {});

describe('object index', () => {
  it('files an object under each of its keys, once', () => {
    const index = new ObjectIndex(byTags);
    index.put(object('a', 'x', 'y'));
    index.put(object('b', 'y'));
    expect(names(index.get('x'))).toEqual(['a']);
    expect(names(index.get('y')).sort()).toEqual(['a', 'b']);
    expect(index.get('z')).toEqual([]);
  });

  it('moves an updated object to its new keys and holds its newest version', () => {
    const index = new ObjectIndex(byTags);
    index.put(object('a', 'x'));
    const moved = object('a', 'y');
    index.put(moved);
    expect(index.get('x')).toEqual([]);
    expect(index.get('y')).toEqual([moved]);
  });

  it('forgets a deleted object, whatever version of it the delete carries', () => {
    const index = new ObjectIndex(byTags);
    index.put(object('a', 'x'));
    index.put(object('b', 'x'));
    index.remove(object('a'));
    expect(names(index.get('x'))).toEqual(['b']);
    index.remove(object('b', 'other'));
    expect(index.get('x')).toEqual([]);
  });

  it('keeps objects of the same name in different namespaces apart', () => {
    const index = new ObjectIndex(byTags);
    const other = { metadata: { ...object('a', 'x').metadata, namespace: 'other' } } as WireObject;
    index.put(object('a', 'x'));
    index.put(other);
    index.remove(object('a'));
    expect(index.get('x')).toEqual([other]);
  });
});

describe('informer indexes against the test cluster', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startTestCluster({ namespaces: ['lab'] });
  });
  afterAll(() => cluster.stop());

  it("keeps each set's Exporters through the list, creates, a relabel and deletes", async () => {
    const api = createClients(cluster.kubeConfig);
    await api.exporters.create('lab', exporter('listed', 'pool'));
    const informers = createInformers(createClients(cluster.kubeConfigFor('index')), {});
    addSetIndexes(informers);
    informers.start();
    try {
      await informers.synced;
      expect(names(informers.exporters.byIndex(SET_INDEX, 'lab/pool'))).toEqual(['listed']);
      await api.exporters.create('lab', exporter('watched', 'pool'));
      await api.exporters.create('lab', exporter('elsewhere', 'other'));
      await eventually(() =>
        expect(names(informers.exporters.byIndex(SET_INDEX, 'lab/pool')).sort()).toEqual([
          'listed',
          'watched',
        ]),
      );
      await api.exporters.patch(
        'lab',
        'watched',
        mergePatch({ metadata: { labels: { [Labels.exporterSetName]: 'other' } } }),
      );
      await api.exporters.delete('lab', 'listed');
      await eventually(() => expect(informers.exporters.byIndex(SET_INDEX, 'lab/pool')).toEqual([]));
      expect(names(informers.exporters.byIndex(SET_INDEX, 'lab/other')).sort()).toEqual([
        'elsewhere',
        'watched',
      ]);

      // Added to a synced cache, an index starts with what the cache holds.
      informers.exporters.addIndex('late', (e) => [e.metadata?.name ?? '']);
      expect(names(informers.exporters.byIndex('late', 'elsewhere'))).toEqual(['elsewhere']);
      expect(() => informers.exporters.byIndex('missing', 'x')).toThrow(
        'the exporters informer keeps no index missing; addIndex it first',
      );
    } finally {
      await informers.stop();
    }
  });
});
