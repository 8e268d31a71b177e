/**
 * The Secret cache (informers.ts `keepSecret`): the controller needs the Exporter credential Secrets,
 * which Jumpstarter creates without our label, so Secrets are watched unfiltered and kept only when an
 * Exporter owns them or they carry our label — from the initial list and from watch events alike. Any
 * other Secret of the namespace never stays in memory.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { V1Secret } from '@kubernetes/client-node';
import { JUMPSTARTER_API_VERSION, Labels } from 'virtual-exporters/internal';
import { createClients } from '../../src/kube/clients';
import { createInformers, keepSecret, type ControllerInformers } from '../../src/kube/informers';
import { startTestCluster, type TestCluster } from 'virtual-exporters-test-cluster';
import { eventually, names } from './support';

const NS = 'lab';
let cluster: TestCluster | undefined;
let informers: ControllerInformers | undefined;
afterEach(async () => {
  await informers?.stop();
  await cluster?.stop();
  informers = undefined;
  cluster = undefined;
});

/** Owner uids of the Exporters `setUp` created (the cluster's GC deletes Secrets of missing owners). */
const uids = new Map<string, string>();
const ownedByExporter = (name: string, exporter: string): V1Secret => ({
  metadata: {
    name,
    ownerReferences: [
      { apiVersion: JUMPSTARTER_API_VERSION, kind: 'Exporter', name: exporter, uid: uids.get(exporter)! },
    ],
  },
  stringData: { token: 'secret-token' },
});
const labelled = (name: string): V1Secret => ({
  metadata: { name, labels: { [Labels.exporterSetName]: 'pool' } },
});
const unrelated = (name: string): V1Secret => ({
  metadata: { name, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'x', uid: 'u' }] },
  stringData: { password: 'not ours' },
});

describe('the Secret cache', () => {
  it('keepSecret keeps ours and Exporter-owned Secrets only', () => {
    expect(keepSecret(labelled('a'))).toBe(true);
    expect(keepSecret(ownedByExporter('pool-0-exporter', 'pool-0'))).toBe(true);
    expect(keepSecret(unrelated('b'))).toBe(false);
    expect(keepSecret({ metadata: { name: 'c' } })).toBe(false);
    expect(keepSecret({})).toBe(false);
  });

  it('holds credentials and config Secrets, from the list and from the watch, and nothing else', async () => {
    cluster = await startTestCluster({ namespaces: [NS] });
    const exporters = cluster.registry.get('jumpstarter.dev', 'v1alpha1', 'exporters')!;
    for (const name of ['pool-0', 'pool-1']) {
      const created = cluster.store.create(exporters, NS, {
        apiVersion: JUMPSTARTER_API_VERSION,
        kind: 'Exporter',
        metadata: { name },
        spec: {},
      });
      uids.set(name, created.metadata.uid!);
    }
    const core = createClients(cluster.kubeConfig).core;
    // Before the informer starts: reaches it through the initial list.
    await core.createNamespacedSecret({ namespace: NS, body: ownedByExporter('pool-0-exporter', 'pool-0') });
    await core.createNamespacedSecret({ namespace: NS, body: unrelated('database') });
    informers = createInformers(createClients(cluster.kubeConfigFor('controller', NS)), { namespaces: [NS] });
    informers.start();
    await informers.synced;
    expect(names(informers.secrets.list())).toEqual(['pool-0-exporter']);

    // After: through watch events.
    await core.createNamespacedSecret({ namespace: NS, body: ownedByExporter('pool-1-exporter', 'pool-1') });
    await core.createNamespacedSecret({ namespace: NS, body: labelled('exporter-config-pool-1') });
    await core.createNamespacedSecret({ namespace: NS, body: unrelated('registry-pull') });
    await eventually(() =>
      expect(names(informers!.secrets.list())).toEqual([
        'exporter-config-pool-1',
        'pool-0-exporter',
        'pool-1-exporter',
      ]),
    );
    // A rotated credential is seen at once (no GET needed); a deleted one leaves the cache.
    await core.replaceNamespacedSecret({
      namespace: NS,
      name: 'pool-0-exporter',
      body: { ...ownedByExporter('pool-0-exporter', 'pool-0'), stringData: { token: 'rotated' } },
    });
    await eventually(() =>
      expect(
        Buffer.from(
          (informers!.secrets.get(NS, 'pool-0-exporter') as { data?: Record<string, string> }).data!.token,
          'base64',
        ).toString(),
      ).toBe('rotated'),
    );
    await core.deleteNamespacedSecret({ namespace: NS, name: 'pool-1-exporter' });
    await eventually(() => expect(informers!.secrets.get(NS, 'pool-1-exporter')).toBeUndefined());
    expect(informers.secrets.get(NS, 'database')).toBeUndefined();
    expect(informers.secrets.get(NS, 'registry-pull')).toBeUndefined();
  });
});
