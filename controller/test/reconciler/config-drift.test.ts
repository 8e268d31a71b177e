/**
 * A config Secret changed under the controller is rendered back, although the Secret cache holds only a
 * digest of its data (cache-views.ts `secretCacheView`): the render memo compares digests.
 */
import { describe, expect, it } from '@jest/globals';
import { configSecretName } from 'virtual-exporters/internal';
import type { CachedSecret } from '../../src/kube/cache-views';
import { NS, createClass, createSet, instancesOf, scenarioPerTest, until } from '../scenarios/support';

const startScenario = scenarioPerTest();
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('config Secret drift', () => {
  it('repairs a config Secret whose data was edited, from a cache that holds only its digest', async () => {
    const { cluster, manager } = await startScenario({ speedUp: 20 });
    createClass(cluster);
    createSet(cluster, 'pool', { minAvailableReplicas: 1 });
    const secrets = cluster.registry.get('', 'v1', 'secrets')!;
    const name = await until('the instance', () => instancesOf(cluster, 'pool')[0]?.metadata?.name);
    const secretName = configSecretName(name);
    await until('the config Secret', () => {
      try {
        return cluster.store.get(secrets, NS, secretName);
      } catch {
        return undefined;
      }
    });
    await cluster.settle();
    const liveData = () => cluster.store.get(secrets, NS, secretName).data as Record<string, string>;
    const rendered = liveData();
    expect(Object.keys(rendered).length).toBeGreaterThan(0);
    const cached = () => manager.informers.secrets.get(NS, secretName) as CachedSecret | undefined;
    expect(cached()?.data).toBeUndefined();
    const digest = cached()?.dataDigest;
    expect(digest).toEqual(expect.any(String));

    // Someone edits the config; the controller may repair it before a poll sees the edit.
    const [key] = Object.keys(rendered);
    const edited = cluster.store.patch(secrets, NS, secretName, 'merge', {
      data: { [key!]: b64('edited: true\n') },
    });
    const editedVersion = Number(edited.metadata?.resourceVersion);
    const repaired = await until('the config rendered back', () => {
      const live = cluster.store.get(secrets, NS, secretName);
      const data = live.data as Record<string, string>;
      return Number(live.metadata?.resourceVersion) > editedVersion && data[key!] === rendered[key!]
        ? live.metadata?.resourceVersion
        : undefined;
    });
    await until(
      'the repair in the cache',
      () => cached()?.metadata?.resourceVersion === repaired || undefined,
    );
    expect(cached()?.dataDigest).toBe(digest);
    expect(cached()?.data).toBeUndefined();
    // Once in sync, further passes write nothing (not even a no-op patch): the digests match.
    // (A pass that started before the repair reached the cache may still patch the same data: wait.)
    const idle = () => manager.queue.depth() + manager.queue.inFlight() === 0 || undefined;
    await until('the passes in flight done', idle);
    const version = cluster.store.get(secrets, NS, secretName).metadata?.resourceVersion;
    const secretWrites = () =>
      cluster.counters.total({
        identity: 'controller',
        resource: 'secrets',
        verb: ['patch', 'update', 'create'],
      });
    const writes = secretWrites();
    for (let pass = 0; pass < 2; pass += 1) {
      manager.queue.add(`${NS}/pool`);
      await until('the pass done', idle);
    }
    expect(cluster.store.get(secrets, NS, secretName).metadata?.resourceVersion).toBe(version);
    expect(secretWrites()).toBe(writes);
  });

  it('removes a key added to a config Secret, so its digest matches again and passes stop writing', async () => {
    const { cluster, manager } = await startScenario({ speedUp: 20 });
    createClass(cluster);
    createSet(cluster, 'pool', { minAvailableReplicas: 1 });
    const secrets = cluster.registry.get('', 'v1', 'secrets')!;
    const name = await until('the instance', () => instancesOf(cluster, 'pool')[0]?.metadata?.name);
    const secretName = configSecretName(name);
    const live = () => {
      try {
        return cluster.store.get(secrets, NS, secretName);
      } catch {
        return undefined;
      }
    };
    await until('the config Secret', live);
    await cluster.settle();
    const rendered = { ...(live()!.data as Record<string, string>) };

    cluster.store.patch(secrets, NS, secretName, 'merge', { data: { 'extra.yaml': b64('added: true\n') } });
    await until('the extra key removed', () => {
      const data = live()?.data as Record<string, string> | undefined;
      return (data !== undefined && !('extra.yaml' in data)) || undefined;
    });
    expect(live()!.data).toEqual(rendered);
    const idle = () => manager.queue.depth() + manager.queue.inFlight() === 0 || undefined;
    await until('the passes in flight done', idle);
    const version = live()!.metadata?.resourceVersion;
    for (let pass = 0; pass < 2; pass += 1) {
      manager.queue.add(`${NS}/pool`);
      await until('the pass done', idle);
    }
    expect(live()!.metadata?.resourceVersion).toBe(version);
  });
});
