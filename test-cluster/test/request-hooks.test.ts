/**
 * Request hooks of the test cluster: a test's code runs before a matching request is served and the
 * request waits for it, so another writer's change lands between a client's read and its write
 * exactly when the test says; only matching requests, at most `times` of them; a hook that throws
 * answers the request with its error and nothing is written.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiError, startTestCluster, type TestCluster } from '../src';
import { clientsFor, rejection, type Clients } from './conformance-support';

let cluster: TestCluster;
let api: Clients;

beforeAll(async () => {
  cluster = await startTestCluster();
  api = clientsFor(cluster.kubeConfig);
});
afterAll(() => cluster.stop());
afterEach(() => cluster.hooks.clear());

const configMaps = () => cluster.registry.get('', 'v1', 'configmaps')!;
const create = (name: string) =>
  api.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name } } });

describe('request hooks', () => {
  it('run before a matching request is served, which waits for them', async () => {
    const read = await create('hooked');
    const seen: string[] = [];
    const hook = cluster.hooks.before(
      { verb: 'delete', resource: 'configmaps', times: 1 },
      async (request) => {
        seen.push(`${request.verb} ${request.name}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
        // Another writer changes the object between the client's read and its delete.
        cluster.store.patch(configMaps(), 'default', request.name, 'merge', { data: { moved: 'yes' } });
      },
    );
    const refused = await rejection(
      api.core.deleteNamespacedConfigMap({
        namespace: 'default',
        name: 'hooked',
        body: { preconditions: { resourceVersion: read.metadata!.resourceVersion } },
      }),
    );
    expect(seen).toEqual(['delete hooked']);
    expect(refused.code).toBe(409);
    expect(cluster.hooks.hits(hook)).toBe(1);
    // `times: 1`: the next delete is served as it comes.
    await api.core.deleteNamespacedConfigMap({ namespace: 'default', name: 'hooked' });
    expect(cluster.hooks.hits(hook)).toBe(1);
    expect(seen).toEqual(['delete hooked']);
  });

  it('leave other requests alone', async () => {
    let runs = 0;
    const hook = cluster.hooks.before({ verb: 'delete', resource: 'secrets' }, () => {
      runs += 1;
    });
    await create('untouched');
    await api.core.readNamespacedConfigMap({ namespace: 'default', name: 'untouched' });
    await api.core.deleteNamespacedConfigMap({ namespace: 'default', name: 'untouched' });
    expect(runs).toBe(0);
    expect(cluster.hooks.hits(hook)).toBe(0);
  });

  it('answer the request with the error a hook throws, and write nothing', async () => {
    cluster.hooks.before({ verb: 'create', resource: 'configmaps' }, () => {
      throw new ApiError(403, 'Forbidden', 'refused by the hook');
    });
    const refused = await rejection(create('never'));
    expect(refused.code).toBe(403);
    expect(refused.status.message).toBe('refused by the hook');
    const absent = await rejection(api.core.readNamespacedConfigMap({ namespace: 'default', name: 'never' }));
    expect(absent.code).toBe(404);
  });
});
