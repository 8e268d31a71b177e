/**
 * Patch helpers and the typed custom-object client against the test cluster: merge and JSON patches
 * land with their Content-Type, status goes through `/status` only, JSON pointers escape label keys,
 * a failing `test` operation changes nothing, and deletes honour uid preconditions.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiException } from '@kubernetes/client-node';
import { Labels, type ExporterSet } from 'virtual-exporters/internal';
import { createClients, type KubeClients } from '../../src/kube/clients';
import { ExporterSetResource } from '../../src/kube/resources';
import {
  jsonPatch,
  jsonPointer,
  mergePatch,
  patchCustomObjectStatus,
  patchSecret,
} from '../../src/kube/patch';
import { startTestCluster, type TestCluster } from 'virtual-exporters-test-cluster';
import { exporter, exporterSet } from './support';

const NS = 'default';
let cluster: TestCluster;
let api: KubeClients;

beforeAll(async () => {
  cluster = await startTestCluster();
  api = createClients(cluster.kubeConfigFor('patcher'));
});
afterAll(() => cluster.stop());

async function codeOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ApiException) return error.code;
    throw error;
  }
  throw new Error('expected the call to fail');
}

const patches = (subresource: string) =>
  cluster.counters.total({ identity: 'patcher', verb: 'patch', subresource });

describe('patch › JSON pointers', () => {
  it('escape "~" and "/" in segments', () => {
    expect(jsonPointer('metadata', 'labels', Labels.exporterSetName)).toBe(
      '/metadata/labels/exporterset.jumpstarter.dev~1name',
    );
    expect(jsonPointer('a~b', 'finalizers', 0)).toBe('/a~0b/finalizers/0');
  });
});

describe('patch › merge and JSON patches', () => {
  it('merge-patches a set: adds a label, and null deletes one', async () => {
    await api.exporterSets.create(NS, {
      ...exporterSet('merged'),
      metadata: { name: 'merged', labels: { keep: 'yes', drop: 'yes' } },
    });
    const patched = await api.exporterSets.patch(
      NS,
      'merged',
      mergePatch({ metadata: { labels: { added: 'yes', drop: null } } }),
    );
    expect(patched.metadata.labels).toEqual({ keep: 'yes', added: 'yes' });
    expect((await api.exporterSets.get(NS, 'merged')).metadata.labels).toEqual({ keep: 'yes', added: 'yes' });
  });

  it('JSON-patches an Exporter, with escaped label keys and a test precondition', async () => {
    await api.exporters.create(NS, exporter('json-0'));
    const before = patches('');
    const patched = await api.exporters.patch(
      NS,
      'json-0',
      jsonPatch([
        { op: 'add', path: jsonPointer('metadata', 'labels', Labels.exporterSetName), value: 'json' },
        { op: 'add', path: '/spec/enabled', value: false },
      ]),
    );
    expect(patched.metadata.labels?.[Labels.exporterSetName]).toBe('json');
    expect(patched.spec?.enabled).toBe(false);
    expect(patches('')).toBe(before + 1);

    // A failed `test` rejects the whole patch: nothing changes.
    const failed = codeOf(
      api.exporters.patch(
        NS,
        'json-0',
        jsonPatch([
          { op: 'test', path: '/spec/enabled', value: true },
          { op: 'replace', path: '/spec/enabled', value: true },
        ]),
      ),
    );
    expect(await failed).toBeGreaterThanOrEqual(400);
    expect((await api.exporters.get(NS, 'json-0')).spec?.enabled).toBe(false);
  });

  it('merge-patches a Secret and returns its wire form', async () => {
    await api.core.createNamespacedSecret({ namespace: NS, body: { metadata: { name: 'config' } } });
    const patched = await patchSecret(
      api.core,
      NS,
      'config',
      mergePatch({ data: { 'config.yaml': Buffer.from('a: 1').toString('base64') } }),
    );
    expect(patched.data).toEqual({ 'config.yaml': Buffer.from('a: 1').toString('base64') });
    expect(typeof patched.metadata?.creationTimestamp).toBe('string');
  });
});

/** The counters the ExporterSet status schema requires (upstream's), all zero. */
const ZERO_COUNTERS = Object.fromEntries(
  [
    'availableReplicas',
    'exportersActive',
    'exportersDisabled',
    'exportersIdle',
    'exportersOffline',
    'leasedReplicas',
    'podsFailed',
    'podsPending',
    'podsRunning',
    'podsUnknown',
    'readyReplicas',
    'unavailableReplicas',
  ].map((counter) => [counter, 0]),
);

describe('patch › status', () => {
  it('writes status through /status, where a patch of the main resource would not', async () => {
    await api.exporterSets.create(NS, exporterSet('counted'));
    // The main resource ignores status changes (status subresource isolation).
    await api.exporterSets.patch(NS, 'counted', mergePatch({ status: { replicas: 7 } }));
    expect((await api.exporterSets.get(NS, 'counted')).status?.replicas).toBeUndefined();

    const before = patches('status');
    const merged = await api.exporterSets.patchStatus(
      NS,
      'counted',
      mergePatch({ status: { ...ZERO_COUNTERS, replicas: 2, nextOrdinal: 3 } }),
    );
    expect(merged.status).toMatchObject({ replicas: 2, nextOrdinal: 3 });
    const viaJson = await patchCustomObjectStatus<ExporterSet>(
      api.custom,
      ExporterSetResource,
      NS,
      'counted',
      jsonPatch([{ op: 'replace', path: '/status/replicas', value: 1 }]),
    );
    expect(viaJson.status).toMatchObject({ replicas: 1, nextOrdinal: 3 });
    expect(patches('status')).toBe(before + 2);
  });
});

describe('custom-object client › delete', () => {
  it('deletes only the incarnation named by a uid precondition', async () => {
    const created = await api.exporters.create(NS, exporter('doomed'));
    expect(await codeOf(api.exporters.delete(NS, 'doomed', { uid: 'not-its-uid' }))).toBe(409);
    await api.exporters.delete(NS, 'doomed', { uid: created.metadata.uid! });
    expect(await codeOf(api.exporters.get(NS, 'doomed'))).toBe(404);
    const lists = await api.exporters.list(NS, `${Labels.exporterSetName}=nobody`);
    expect(lists.items).toEqual([]);
  });
});
