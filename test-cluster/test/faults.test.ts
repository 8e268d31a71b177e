/**
 * Fault injection of the test cluster: each fault kind does to a client what the real failure does —
 * error codes with Kubernetes `Status` bodies (and Retry-After), latency, watches that are refused
 * with 410, dropped, reset or cut mid-line — only for the requests its rule matches, and rates are
 * reproducible from the seed.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Watch } from '@kubernetes/client-node';
import { FaultInjector, startTestCluster, type RequestAttributes, type TestCluster } from '../src';
import { clientsFor, rejection, type Clients } from './conformance-support';

let cluster: TestCluster;
let api: Clients;

beforeAll(async () => {
  cluster = await startTestCluster();
  api = clientsFor(cluster.kubeConfig);
  await api.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'present' } } });
});
afterAll(() => cluster.stop());
afterEach(() => cluster.faults.clear());

const PATH = '/api/v1/namespaces/default/configmaps';
const listConfigMaps = (clients: Clients = api) =>
  clients.core.listNamespacedConfigMap({ namespace: 'default' });

describe('faults › errors', () => {
  it.each([
    [409, 'Conflict'],
    [429, 'TooManyRequests'],
    [500, 'InternalError'],
    [503, 'ServiceUnavailable'],
  ] as [409 | 429 | 500 | 503, string][])(
    'a %i rule at rate 1 answers every matching request with %s',
    async (code, reason) => {
      cluster.faults.add({ kind: 'error', code, verb: 'list', resource: 'configmaps' });
      for (let i = 0; i < 3; i++) {
        const result = await rejection(listConfigMaps());
        expect(result.code).toBe(code);
        expect(result.status).toMatchObject({
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          reason,
          code,
        });
      }
      // Other verbs and resources are served.
      await expect(
        api.core.readNamespacedConfigMap({ name: 'present', namespace: 'default' }),
      ).resolves.toBeDefined();
      await expect(api.core.listNamespacedSecret({ namespace: 'default' })).resolves.toBeDefined();
    },
  );

  it('a 429 says when to retry, in the Retry-After header and the Status details', async () => {
    cluster.faults.add({ kind: 'error', code: 429, verb: 'get', retryAfterSeconds: 7 });
    const call = api.core.readNamespacedConfigMap({ name: 'present', namespace: 'default' });
    const result = await rejection(call);
    expect(result.status.details.retryAfterSeconds).toBe(7);
    const response = await fetch(`${cluster.url}${PATH}/present`);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
  });

  it('a rule for one identity leaves the others alone', async () => {
    cluster.faults.add({ kind: 'error', code: 503, identity: 'controller' });
    expect((await rejection(listConfigMaps(clientsFor(cluster.kubeConfigFor('controller'))))).code).toBe(503);
    await expect(listConfigMaps()).resolves.toBeDefined();
  });

  it('a rule fires at most `times` times, and removed or cleared rules fire no more', async () => {
    const id = cluster.faults.add({ kind: 'error', code: 500, verb: 'list', times: 2 });
    expect((await rejection(listConfigMaps())).code).toBe(500);
    expect((await rejection(listConfigMaps())).code).toBe(500);
    await expect(listConfigMaps()).resolves.toBeDefined();
    expect(cluster.faults.hits(id)).toBe(2);

    const removed = cluster.faults.add({ kind: 'error', code: 500, verb: 'list' });
    expect(cluster.faults.remove(removed)).toBe(true);
    await expect(listConfigMaps()).resolves.toBeDefined();

    cluster.faults.add({ kind: 'error', code: 500, verb: 'list' });
    cluster.faults.clear();
    expect(cluster.faults.rules()).toEqual([]);
    await expect(listConfigMaps()).resolves.toBeDefined();
  });

  it('rates below 1 fire on some requests, in the same pattern for the same seed', () => {
    const request: RequestAttributes = {
      identity: 'admin',
      verb: 'get',
      group: '',
      version: 'v1',
      resource: 'pods',
      subresource: '',
      namespace: 'default',
      name: 'p',
      path: '',
    };
    const pattern = (seed: number) => {
      const faults = new FaultInjector({ seed });
      faults.add({ kind: 'error', code: 500, rate: 0.5 });
      return Array.from({ length: 64 }, () => (faults.errorFor(request) ? 1 : 0)).join('');
    };
    expect(pattern(42)).toBe(pattern(42));
    expect(pattern(42)).not.toBe(pattern(43));
    expect(pattern(42)).toContain('0');
    expect(pattern(42)).toContain('1');
  });
});

describe('faults › latency', () => {
  it('delays matching requests by at least the given time', async () => {
    cluster.faults.add({ kind: 'latency', ms: 80, verb: 'get', resource: 'configmaps' });
    const started = performance.now();
    await api.core.readNamespacedConfigMap({ name: 'present', namespace: 'default' });
    // Timers may fire a millisecond early; the bound only proves the delay was applied.
    expect(performance.now() - started).toBeGreaterThanOrEqual(75);
  });
});

describe('faults › watches', () => {
  interface WatchResult {
    events: string[];
    error: unknown;
  }
  /** Runs a watch on configmaps until the server ends it; `trigger` makes events once it is open. */
  async function watchUntilEnd(trigger: () => Promise<void> = async () => undefined): Promise<WatchResult> {
    const events: string[] = [];
    let settle: (result: WatchResult) => void = () => undefined;
    const ended = new Promise<WatchResult>((resolve) => (settle = resolve));
    await new Watch(cluster.kubeConfig).watch(
      PATH,
      { resourceVersion: await currentVersion() },
      (type, object) => events.push(`${type} ${object?.metadata?.name ?? object?.code}`),
      (error) => settle({ events, error }),
    );
    await trigger();
    return ended;
  }
  const currentVersion = async () => (await listConfigMaps()).metadata!.resourceVersion!;
  const createMaps = (prefix: string, n: number) => async () => {
    for (let i = 0; i < n; i++) {
      await api.core.createNamespacedConfigMap({
        namespace: 'default',
        body: { metadata: { name: `${prefix}-${i}` } },
      });
    }
  };

  it('a forced 410 answers the watch with one ERROR event carrying the Status, then ends it', async () => {
    cluster.faults.add({ kind: 'expireWatch', resource: 'configmaps' });
    const result = await watchUntilEnd();
    expect(result.events).toEqual(['ERROR 410']);
    expect(result.error).toBeNull();
  });

  it('a dropped watch ends cleanly after the given number of events', async () => {
    cluster.faults.add({ kind: 'dropWatch', resource: 'configmaps', afterEvents: 2 });
    const result = await watchUntilEnd(createMaps('drop', 4));
    expect(result.events).toEqual(['ADDED drop-0', 'ADDED drop-1']);
    expect(result.error).toBeNull();
  });

  it('a watch dropped after a time ends without events', async () => {
    cluster.faults.add({ kind: 'dropWatch', resource: 'configmaps', afterMs: 30 });
    const result = await watchUntilEnd();
    expect(result.events).toEqual([]);
    expect(result.error).toBeNull();
  });

  it('an abrupt drop resets the connection, which the client sees as an error', async () => {
    cluster.faults.add({ kind: 'dropWatch', resource: 'configmaps', afterEvents: 1, abrupt: true });
    const result = await watchUntilEnd(createMaps('reset', 2));
    expect(result.events).toEqual(['ADDED reset-0']);
    expect(result.error).toBeInstanceOf(Error);
  });

  it('a truncated watch sends the complete events, then half a line, then ends', async () => {
    cluster.faults.add({ kind: 'truncateWatch', resource: 'configmaps', afterEvents: 1 });
    const from = await currentVersion();
    const response = await fetch(`${cluster.url}${PATH}?watch=true&resourceVersion=${from}`);
    await createMaps('cut', 2)();
    const lines = (await response.text()).split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0])).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'cut-0' } } });
    expect(lines[1].length).toBeGreaterThan(0);
    expect(() => JSON.parse(lines[1])).toThrow();
  });

  it('an error rule on watch refuses the watch with that code', async () => {
    cluster.faults.add({ kind: 'error', code: 503, verb: 'watch' });
    const result = await watchUntilEnd();
    expect(result.events).toEqual([]);
    expect((result.error as { statusCode?: number }).statusCode).toBe(503);
  });
});
