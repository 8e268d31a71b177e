/**
 * The informers list in pages (`limit`/`continue`), so the controller never holds a whole collection's
 * list response: the cache gets every object of every page, one list request per page; a continue
 * token that expires between pages (410) makes the informer list again from the first page rather
 * than sync a partial cache or report an error; and the watch resumes from the list's version.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { createClients } from '../../src/kube/clients';
import type { ListPageRequest } from '../../src/kube/custom-objects';
import { ResourceInformer } from '../../src/kube/informer';
import type { InformerSource } from '../../src/kube/informer-contract';
import { createInformers, type ControllerInformers } from '../../src/kube/informers';
import { collectionPath } from '../../src/kube/resources';
import { startTestCluster, type TestCluster } from 'virtual-exporters-test-cluster';
import { eventually, exporter, exporterSet, names, pod } from './support';

/** Events kept by the cluster: small, so a few writes expire a list's snapshot. */
const WINDOW = 5;
let cluster: TestCluster;
let running: { stop(): Promise<void> }[] = [];

beforeAll(async () => {
  cluster = await startTestCluster({ namespaces: ['paged'], watchWindow: WINDOW, watchTimeoutSeconds: 5 });
  const api = createClients(cluster.kubeConfig);
  for (let i = 0; i < 5; i++) {
    await api.exporterSets.create('paged', exporterSet(`set-${i}`));
    await api.exporters.create('paged', exporter(`exporter-${i}`, 'pool'));
    await api.core.createNamespacedPod({ namespace: 'paged', body: pod(`pod-${i}`, 'pool') });
  }
});
afterEach(async () => {
  await Promise.all(running.map((r) => r.stop()));
  running = [];
});
afterAll(() => cluster.stop());

const lists = (identity: string, resource: string) =>
  cluster.counters.total({ identity, verb: 'list', resource });

describe('informers › paginated lists', () => {
  it('fill the cache from every page, one request per page, and follow the watch from there', async () => {
    const clients = createClients(cluster.kubeConfigFor('pages'));
    const informers: ControllerInformers = createInformers(clients, { listPageSize: 2 });
    running.push(informers);
    informers.start();
    await informers.synced;
    expect(names(informers.exporterSets.list('paged'))).toEqual([
      'set-0',
      'set-1',
      'set-2',
      'set-3',
      'set-4',
    ]);
    expect(names(informers.exporters.list('paged'))).toHaveLength(5);
    expect(names(informers.pods.list('paged'))).toHaveLength(5);
    expect(lists('pages', 'exportersets')).toBe(3);
    expect(lists('pages', 'exporters')).toBe(3);
    expect(lists('pages', 'pods')).toBe(3);

    await createClients(cluster.kubeConfig).exporterSets.create('paged', exporterSet('set-5'));
    await eventually(() => expect(names(informers.exporterSets.list('paged'))).toContain('set-5'));
    await createClients(cluster.kubeConfig).exporterSets.delete('paged', 'set-5');
    await eventually(() => expect(names(informers.exporterSets.list('paged'))).not.toContain('set-5'));
  });

  it('list again from the first page when the continue token expired between pages', async () => {
    const clients = createClients(cluster.kubeConfigFor('expiring'));
    const admin = createClients(cluster.kubeConfig);
    let expired = false;
    const source: InformerSource<ReturnType<typeof exporterSet>> = {
      resource: 'exportersets',
      path: (namespace) => collectionPath(clients.exporterSets.resource, namespace),
      async list(namespace, labelSelector, page: ListPageRequest) {
        if (page.continue !== undefined && !expired) {
          // More writes than the cluster keeps events for: the first page's snapshot is gone.
          expired = true;
          for (let i = 0; i <= WINDOW; i++) {
            await admin.exporterSets.patch('paged', 'set-4', {
              type: 'merge',
              body: { metadata: { labels: { round: String(i) } } },
            });
          }
        }
        return clients.exporterSets.list(namespace, labelSelector, page);
      },
    };
    const errors: unknown[] = [];
    const informer = new ResourceInformer(source, {
      kubeConfig: clients.kubeConfig,
      listPageSize: 2,
      restartBackoff: { initialMs: 10, maxMs: 40 },
      onError: (error) => errors.push(error),
    });
    running.push(informer);
    informer.start();
    await informer.synced;
    expect(expired).toBe(true);
    expect(errors).toEqual([]);
    expect(names(informer.list('paged'))).toEqual(['set-0', 'set-1', 'set-2', 'set-3', 'set-4']);
    expect(informer.get('paged', 'set-4')?.metadata?.labels?.round).toBe(String(WINDOW));
    // first page, the expired second page (410), then three pages of the new list
    expect(lists('expiring', 'exportersets')).toBe(5);
  });
});
