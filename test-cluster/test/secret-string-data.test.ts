/**
 * Secrets in the test cluster behave as on a real API server: `stringData` is write-only, merged into
 * `data` as base64 on create, update and patch (its keys win), and never stored or returned.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CoreV1Api } from '@kubernetes/client-node';
import { startTestCluster, type TestCluster } from '../src';

let cluster: TestCluster;
let core: CoreV1Api;
beforeAll(async () => {
  cluster = await startTestCluster({ namespaces: ['lab'] });
  core = cluster.kubeConfig.makeApiClient(CoreV1Api);
});
afterAll(() => cluster.stop());

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('test cluster › Secret stringData', () => {
  it('is merged into data on create and never stored', async () => {
    const created = await core.createNamespacedSecret({
      namespace: 'lab',
      body: {
        metadata: { name: 's1' },
        data: { a: b64('from data'), b: b64('old') },
        stringData: { b: 'new' },
      },
    });
    expect(created.data).toEqual({ a: b64('from data'), b: b64('new') });
    expect(created.stringData).toBeUndefined();
    const read = await core.readNamespacedSecret({ namespace: 'lab', name: 's1' });
    expect(read.stringData).toBeUndefined();
    expect(read.data?.b).toBe(b64('new'));
  });

  it('is merged on replace as well', async () => {
    await core.createNamespacedSecret({
      namespace: 'lab',
      body: { metadata: { name: 's2' }, stringData: { t: '1' } },
    });
    const replaced = await core.replaceNamespacedSecret({
      namespace: 'lab',
      name: 's2',
      body: { metadata: { name: 's2' }, stringData: { t: '2' } },
    });
    expect(replaced.data).toEqual({ t: b64('2') });
  });
});
