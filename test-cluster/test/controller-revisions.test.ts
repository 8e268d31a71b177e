/**
 * apps/v1 ControllerRevisions in the test cluster, as a real API server serves them: discovered under
 * `apps/v1`, `revision` a whole number ≥ 0, and `data` immutable once stored (a revision is a
 * snapshot); labels and owners may change, and deletes work as for any kind.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AppsV1Api } from '@kubernetes/client-node';
import { startTestCluster, type TestCluster } from '../src';

let cluster: TestCluster;
let apps: AppsV1Api;
beforeAll(async () => {
  cluster = await startTestCluster({ namespaces: ['lab'] });
  apps = cluster.kubeConfig.makeApiClient(AppsV1Api);
});
afterAll(() => cluster.stop());

const body = (name: string, revision: number, data: object) => ({
  apiVersion: 'apps/v1',
  kind: 'ControllerRevision',
  metadata: { name, labels: { set: 'pool' } },
  data,
  revision,
});

/** The 4xx of a request that must fail: its code and Status message. */
async function refusal(request: () => Promise<unknown>): Promise<{ code?: number; message?: string }> {
  try {
    await request();
  } catch (error) {
    const { code, body: text } = error as { code?: number; body?: string };
    return { code, message: (JSON.parse(text ?? '{}') as { message?: string }).message };
  }
  throw new Error('the request was accepted');
}

describe('test cluster › ControllerRevisions', () => {
  it('are created, listed by label and deleted through apps/v1', async () => {
    await apps.createNamespacedControllerRevision({ namespace: 'lab', body: body('r1', 1, { a: 1 }) });
    const listed = await apps.listNamespacedControllerRevision({
      namespace: 'lab',
      labelSelector: 'set=pool',
    });
    expect(listed.items.map((r) => [r.metadata?.name, r.revision, r.data])).toEqual([['r1', 1, { a: 1 }]]);
    await apps.deleteNamespacedControllerRevision({ namespace: 'lab', name: 'r1' });
    expect((await apps.listNamespacedControllerRevision({ namespace: 'lab' })).items).toEqual([]);
  });

  it('refuse a change of data, and allow one of labels', async () => {
    await apps.createNamespacedControllerRevision({ namespace: 'lab', body: body('r2', 2, { a: 1 }) });
    const rt = cluster.registry.get('apps', 'v1', 'controllerrevisions')!;
    expect(() => cluster.store.patch(rt, 'lab', 'r2', 'merge', { data: { a: 2 } })).toThrow(
      'ControllerRevision.apps "r2" is invalid: data: Invalid value: "object": field is immutable',
    );
    cluster.store.patch(rt, 'lab', 'r2', 'merge', { metadata: { labels: { set: 'pool', extra: 'x' } } });
    const read = await apps.readNamespacedControllerRevision({ namespace: 'lab', name: 'r2' });
    expect([read.data, read.metadata?.labels]).toEqual([{ a: 1 }, { set: 'pool', extra: 'x' }]);
  });

  it('refuse a negative revision', async () => {
    expect(
      await refusal(() =>
        apps.createNamespacedControllerRevision({ namespace: 'lab', body: body('r3', -1, {}) }),
      ),
    ).toEqual({
      code: 422,
      message:
        'ControllerRevision.apps "r3" is invalid: revision: Invalid value: -1: must be greater than or equal to 0',
    });
  });
});
