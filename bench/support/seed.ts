/**
 * Settled pools written straight into a test cluster's store (no HTTP: 10,000 instances through the
 * API would take minutes), exactly as the controller would have left them: each set with its drain
 * finalizer; its Exporters built by the planner's own `desiredExporter` with the current template
 * revision, recorded as a ControllerRevision (`desiredRevision`); the credentials issued by the Jumpstarter simulator; the config Secret and Pod rendered
 * by the provisioner from the Exporter and its token (as the reconciler renders them); the Pods booted
 * by the kubelet simulator and the exporters Online. Optional Leases, created as clients would and
 * assigned by the simulator, hold some instances of each set. A controller started afterwards finds
 * nothing to create, delete or re-sync — only each set's first status to write.
 */
import {
  API_VERSION,
  DEFAULT_QEMU_DRIVERS,
  DRAIN_FINALIZER,
  ExporterConditionTypes,
  Kinds,
  mergeParameters,
  qemuProvisioner,
  type Exporter,
  type ExporterSet,
  type ExporterSetSpec,
  type Lease,
  type VirtualTargetClass,
} from 'virtual-exporters/internal';
import {
  currentRevision,
  desiredExporter,
  desiredRevision,
  revisionInputs,
} from '../../controller/src/planner';
import type { KubeObject, ResourceType, TestCluster } from 'virtual-exporters-test-cluster';
import { waitUntil } from './clock';

export interface PoolLayout {
  readonly namespaces: readonly string[];
  /** Sets named `pool-0`, `pool-1`, … in each namespace. */
  readonly setsPerNamespace: number;
  readonly instancesPerSet: number;
  /** Instances of each set that a Lease holds. @default 0 */
  readonly leasedPerSet?: number;
  /** Spec of every set besides its class, selector and template. @default {} */
  readonly setSpec?: Partial<ExporterSetSpec>;
}

export interface SeedReport {
  readonly sets: number;
  readonly instances: number;
  readonly leases: number;
  /** Wall milliseconds per phase. */
  readonly phasesMs: Readonly<Record<string, number>>;
}

export const CLASS_NAME = 'qemu';

export const setNameOf = (index: number): string => `pool-${index}`;

/** The template labels of a set: unique per set within its namespace, so a lease selects one pool. */
export const poolLabels = (set: string): Record<string, string> => ({ pool: set });

function resource(cluster: TestCluster, group: string, version: string, plural: string): ResourceType {
  const rt = cluster.registry.get(group, version, plural);
  if (!rt) throw new Error(`the test cluster does not serve ${group}/${version} ${plural}`);
  return rt;
}

export function resourcesOf(cluster: TestCluster) {
  return {
    sets: resource(cluster, 'virtualtarget.jumpstarter.dev', 'v1alpha1', 'exportersets'),
    classes: resource(cluster, 'virtualtarget.jumpstarter.dev', 'v1alpha1', 'virtualtargetclasses'),
    exporters: resource(cluster, 'jumpstarter.dev', 'v1alpha1', 'exporters'),
    leases: resource(cluster, 'jumpstarter.dev', 'v1alpha1', 'leases'),
    pods: resource(cluster, '', 'v1', 'pods'),
    secrets: resource(cluster, '', 'v1', 'secrets'),
    revisions: resource(cluster, 'apps', 'v1', 'controllerrevisions'),
  };
}

/** The class every pool of a namespace uses. */
export function classObject(): KubeObject {
  return {
    apiVersion: API_VERSION,
    kind: Kinds.VirtualTargetClass,
    metadata: { name: CLASS_NAME },
    spec: { provisioner: qemuProvisioner.name, parameters: { arch: 'x86_64' } },
  };
}

/** A set of the benchmark's pools (with the finalizer when it is seeded as already reconciled). */
export function setObject(name: string, spec: Partial<ExporterSetSpec>, finalizer: boolean): KubeObject {
  const labels = poolLabels(name);
  return {
    apiVersion: API_VERSION,
    kind: Kinds.ExporterSet,
    metadata: { name, ...(finalizer ? { finalizers: [DRAIN_FINALIZER] } : {}) },
    spec: {
      virtualTargetClassName: CLASS_NAME,
      selector: { matchLabels: { ...labels } },
      template: { metadata: { labels: { ...labels } }, spec: { drivers: [...DEFAULT_QEMU_DRIVERS] } },
      ...spec,
    },
  };
}

export const isOnline = (exporter: Exporter): boolean =>
  (exporter.status?.conditions ?? []).some(
    (c) => c.type === ExporterConditionTypes.Online && c.status === 'True',
  );

/** Writes the pools of `layout` and waits until they are settled. */
export async function seedSettledPools(
  cluster: TestCluster,
  layout: PoolLayout,
  options: { timeoutMs?: number } = {},
): Promise<SeedReport> {
  const jumpstarter = cluster.jumpstarter;
  if (!jumpstarter || !cluster.kubelet) throw new Error('seeding settled pools needs both simulators');
  const rt = resourcesOf(cluster);
  const { store } = cluster;
  const timeoutMs = options.timeoutMs ?? 300_000;
  const phasesMs: Record<string, number> = {};
  let started = Date.now();
  const phase = (name: string) => {
    phasesMs[name] = Date.now() - started;
    started = Date.now();
  };

  // Classes, sets and their Exporters.
  const pools: { namespace: string; set: ExporterSet; cls: VirtualTargetClass; names: string[] }[] = [];
  for (const namespace of layout.namespaces) {
    store.ensureNamespace(namespace);
    const cls = store.create(rt.classes, namespace, classObject()) as unknown as VirtualTargetClass;
    for (let s = 0; s < layout.setsPerNamespace; s++) {
      const name = setNameOf(s);
      const set = store.create(
        rt.sets,
        namespace,
        setObject(name, layout.setSpec ?? {}, true),
      ) as unknown as ExporterSet;
      const revision = currentRevision(set, cls) ?? '';
      // The revision the instances run, recorded as the controller records it.
      const record = desiredRevision(set, revision, 1, revisionInputs(set, cls));
      store.create(rt.revisions, namespace, record as unknown as KubeObject);
      const names: string[] = [];
      for (let i = 0; i < layout.instancesPerSet; i++) {
        const exporter = desiredExporter(set, `${name}-${i}`, i, revision, false);
        store.create(rt.exporters, namespace, exporter as unknown as KubeObject);
        names.push(`${name}-${i}`);
      }
      pools.push({ namespace, set, cls, names });
    }
  }
  phase('exporters');
  const instances = pools.reduce((n, p) => n + p.names.length, 0);

  // Credentials come from the Jumpstarter simulator; then each instance is rendered as the reconciler does.
  await waitUntil(
    'credentials for every seeded Exporter',
    async () => {
      await cluster.settle();
      return pools.every((p) => p.names.every((n) => jumpstarter.token(p.namespace, n) !== undefined));
    },
    { timeoutMs, intervalMs: 50 },
  );
  phase('credentials');
  for (const { namespace, set, cls, names } of pools) {
    const parameters = mergeParameters(cls.spec?.parameters, set.spec?.parameters);
    for (const name of names) {
      const exporter = store.get(rt.exporters, namespace, name) as unknown as Exporter;
      const rendered = qemuProvisioner.render({
        exporterSet: set,
        virtualTargetClass: cls,
        parameters,
        exporter,
        token: jumpstarter.token(namespace, name) ?? '',
      });
      for (const object of rendered.objects) {
        store.create(
          object.kind === 'Pod' ? rt.pods : rt.secrets,
          namespace,
          object as unknown as KubeObject,
        );
      }
    }
  }
  phase('render');
  await waitUntil(
    'every seeded exporter Online',
    () => countExporters(cluster, layout.namespaces).online === instances,
    { timeoutMs, intervalMs: 200 },
  );
  phase('online');

  // Leases, as clients create them; the simulator assigns each to an available instance of its pool.
  const leasedPerSet = layout.leasedPerSet ?? 0;
  for (const { namespace, set } of pools) {
    const name = set.metadata.name ?? '';
    for (let k = 0; k < leasedPerSet; k++) {
      jumpstarter.leases.create({
        namespace,
        name: `${name}-held-${k}`,
        selector: { matchLabels: poolLabels(name) },
        duration: '24h',
        clientName: 'bench',
      });
    }
  }
  const leases = pools.length * leasedPerSet;
  if (leases > 0) {
    await waitUntil(
      'every seeded Lease assigned',
      () => {
        const all = store.list(rt.leases, undefined).items as unknown as Lease[];
        return all.filter((l) => l.status?.exporterRef?.name).length >= leases;
      },
      { timeoutMs, intervalMs: 200 },
    );
    await cluster.settle();
  }
  phase('leases');
  return { sets: pools.length, instances, leases, phasesMs };
}

/** Exporters in `namespaces` (all when undefined) and how many are Online. */
export function countExporters(
  cluster: TestCluster,
  namespaces?: readonly string[],
): { total: number; online: number } {
  const wanted = namespaces ? new Set(namespaces) : undefined;
  const rt = resourcesOf(cluster).exporters;
  let total = 0;
  let online = 0;
  for (const object of cluster.store.list(rt, undefined).items) {
    if (wanted && !wanted.has(object.metadata.namespace ?? '')) continue;
    total += 1;
    if (isOnline(object as unknown as Exporter)) online += 1;
  }
  return { total, online };
}
