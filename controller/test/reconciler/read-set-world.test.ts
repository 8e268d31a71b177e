/**
 * The caches the reconciler keeps for snapshot assembly (the CA bundle read and the render memo) belong
 * to its dependencies and are dropped by `forget`; a set whose class names another provisioner is read
 * without rendering anything. The informer caches are in-memory maps here, and the provisioner and the
 * ConfigMap GET count their calls.
 */
import { describe, expect, it } from '@jest/globals';
import type { CoreV1Api } from '@kubernetes/client-node';
import {
  API_VERSION,
  JUMPSTARTER_API_VERSION,
  Kinds,
  Labels,
  configSecretName,
  qemuProvisioner,
  type Exporter,
  type ExporterSet,
  type Provisioner,
  type VirtualTargetClass,
} from 'virtual-exporters/internal';
import { secretCacheView } from '../../src/kube/cache-views';
import type { KubeClients } from '../../src/kube/clients';
import type { CacheView, WireObject } from '../../src/kube/informer-contract';
import { createLogger } from '../../src/process/logger';
import { CaBundleCache } from '../../src/reconciler/ca-bundle-cache';
import { EventRecorder } from '../../src/reconciler/event-recorder';
import { Expectations } from '../../src/reconciler/expectations';
import { Reconciler } from '../../src/reconciler/reconciler';
import { RenderMemo } from '../../src/reconciler/render-memo';
import { SlowStart } from '../../src/reconciler/slow-start';
import { readSetWorld, type SnapshotCaches, type SnapshotDeps } from '../../src/reconciler/read-set-world';
import { SET_INDEX, setOfRevision, setsOfExporter } from '../../src/reconciler/set-index';
import { PodWaits } from '../../src/reconciler/pod-wait-tracker';
import { StatusMemo } from '../../src/reconciler/status-memo';
import { manualClock } from 'virtual-exporters-test-cluster';

const NS = 'lab';
const CONFIG = { 'exporter.yaml': Buffer.from('endpoint: grpc.jumpstarter:443').toString('base64') };
const KEY = `${NS}/pool`;

/** A read-only cache over fixed objects; its set index (set-index.ts) computed on each read. */
function cacheOf<T extends WireObject>(
  objects: readonly T[],
  setKeys: (object: WireObject) => string[] = () => [],
): CacheView<T> {
  const inNamespace = (namespace?: string) =>
    objects.filter((o) => namespace === undefined || (o.metadata?.namespace ?? NS) === namespace);
  return {
    list: (namespace) => inNamespace(namespace),
    get: (namespace, name) => inNamespace(namespace).find((o) => o.metadata?.name === name),
    byLabel: (key, value, namespace) =>
      inNamespace(namespace).filter((o) => o.metadata?.labels?.[key] === value),
    byIndex: (index, key) => {
      if (index !== SET_INDEX) throw new Error(`no index ${index}`);
      return objects.filter((o) => setKeys(o).includes(key));
    },
  };
}

const set = {
  apiVersion: API_VERSION,
  kind: Kinds.ExporterSet,
  metadata: { name: 'pool', namespace: NS, uid: 'set-uid' },
  spec: { virtualTargetClassName: 'vm', parameters: {} },
} as unknown as ExporterSet;

/** An instance of another set of the namespace. */
const otherSetsExporter = {
  apiVersion: JUMPSTARTER_API_VERSION,
  kind: 'Exporter',
  metadata: { name: 'other-0', namespace: NS, labels: { [Labels.exporterSetName]: 'other' } },
} as unknown as Exporter;

const classOf = (provisioner: string) =>
  ({
    apiVersion: API_VERSION,
    kind: Kinds.VirtualTargetClass,
    metadata: { name: 'vm', namespace: NS, uid: 'class-uid' },
    spec: { provisioner },
  }) as unknown as VirtualTargetClass;

/** A live instance of the set: owned, with a credential, an endpoint and a running Pod. */
const exporter = (name: string) =>
  ({
    apiVersion: JUMPSTARTER_API_VERSION,
    kind: 'Exporter',
    metadata: {
      name,
      namespace: NS,
      ownerReferences: [
        { apiVersion: API_VERSION, kind: Kinds.ExporterSet, name: 'pool', uid: 'set-uid', controller: true },
      ],
    },
    spec: {},
    status: { credential: { name: `${name}-exporter` }, endpoint: 'grpc.jumpstarter:443' },
  }) as unknown as Exporter;

function world(classProvisioner: string) {
  let renders = 0;
  let caReads = 0;
  const provisioner: Provisioner = {
    ...qemuProvisioner,
    render: ({ exporter: instance }) => {
      renders += 1;
      const name = instance.metadata?.name ?? '';
      return { objects: [{ kind: 'Secret', metadata: { name: configSecretName(name) }, data: CONFIG }] };
    },
  };
  const core = {
    readNamespacedConfigMap: () => {
      caReads += 1;
      return Promise.resolve({ data: { 'ca.crt': 'CA' } });
    },
  } as unknown as CoreV1Api;
  const names = ['pool-0', 'pool-1'];
  const caches: SnapshotCaches = {
    exporterSets: cacheOf([set]),
    virtualTargetClasses: cacheOf([classOf(classProvisioner)]),
    exporters: cacheOf([...names.map(exporter), otherSetsExporter], setsOfExporter),
    leases: cacheOf([]),
    controllerRevisions: cacheOf([], setOfRevision),
    pods: cacheOf(names.map((name) => ({ metadata: { name, namespace: NS }, status: { phase: 'Running' } }))),
    secrets: cacheOf([
      ...names.map((name) => ({
        metadata: { name: `${name}-exporter`, namespace: NS },
        data: { token: Buffer.from('token').toString('base64') },
      })),
      // In sync: each config Secret holds what its instance renders to.
      ...names.map((name) =>
        secretCacheView({
          metadata: { name: configSecretName(name), namespace: NS },
          data: CONFIG,
        } as WireObject),
      ),
    ]),
  };
  const clock = manualClock();
  const deps: SnapshotDeps = {
    caches,
    caBundles: new CaBundleCache(core, clock),
    renders: new RenderMemo(),
    provisioner,
    expectations: new Expectations(clock),
    statuses: new StatusMemo(),
    podWaits: new PodWaits(clock),
    clock,
  };
  const logger = createLogger({ level: 'silent' });
  const reconciler = new Reconciler({
    ...deps,
    clients: {} as KubeClients,
    slowStart: new SlowStart(),
    logger,
    events: new EventRecorder(core, clock, logger),
  });
  return { deps, reconciler, counts: () => ({ renders, caReads }) };
}

describe('snapshot caches', () => {
  it("reads the set's Exporters from the set index, never scanning the namespace", async () => {
    const { deps } = world(qemuProvisioner.name);
    const exporters = deps.caches.exporters;
    const noScan: SnapshotCaches = {
      ...deps.caches,
      exporters: {
        ...exporters,
        list: () => {
          throw new Error('a pass scanned every Exporter of the namespace');
        },
      },
    };
    const read = await readSetWorld(KEY, { ...deps, caches: noScan });
    expect(read!.snapshot.instances.map((i) => i.exporter.metadata?.name)).toEqual(['pool-0', 'pool-1']);
  });

  it('forget drops the render memo and the CA bundle read of the set', async () => {
    const { deps, reconciler, counts } = world(qemuProvisioner.name);
    await readSetWorld(KEY, deps);
    expect(counts()).toEqual({ renders: 2, caReads: 1 });
    await readSetWorld(KEY, deps);
    expect(counts()).toEqual({ renders: 2, caReads: 1 }); // both kept across passes

    reconciler.forget(KEY);
    const again = await readSetWorld(KEY, deps);
    expect(counts()).toEqual({ renders: 4, caReads: 2 }); // nothing of the set was kept
    expect(again!.snapshot.instances.map((i) => i.desiredConfigSecretData)).toEqual([undefined, undefined]);
  });

  it('renders nothing for a set whose class names another provisioner', async () => {
    const { deps, counts } = world('another');
    const read = await readSetWorld(KEY, deps);
    expect(read!.snapshot.instances).toHaveLength(2);
    expect(read!.snapshot.instances.every((i) => i.desiredConfigSecretData === undefined)).toBe(true);
    expect(counts()).toEqual({ renders: 0, caReads: 0 });
  });
});
