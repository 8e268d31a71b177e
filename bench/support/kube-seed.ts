/**
 * Settled pools on a real API server (`--backend kube`): what `seedSettledPools` writes straight
 * into the test cluster's store, written through the API instead — there is no store to write into.
 * The same objects in the same order: each set with its drain finalizer, its ControllerRevision and
 * its Exporters from the planner's own `desiredExporter`; the credentials issued by the (remote)
 * Jumpstarter simulator; the config Secret and Pod rendered by the provisioner from the Exporter and
 * its token; the Pods booted by the kubelet simulator and the exporters Online; then the Leases,
 * created as clients create them and assigned by the simulator. Tens of requests are kept in flight,
 * so 10,000 instances take minutes rather than the test cluster's seconds; a controller started
 * afterwards finds nothing to create, delete or re-sync.
 */
import {
  mergeParameters,
  qemuProvisioner,
  type Exporter,
  type ExporterSet,
  type Lease,
  type VirtualTargetClass,
} from 'virtual-exporters/internal';
import type { KubeObject, RemoteSimulators } from 'virtual-exporters-test-cluster';
import {
  currentRevision,
  desiredExporter,
  desiredRevision,
  revisionInputs,
} from '../../controller/src/planner';
import { waitUntil } from './clock';
import type { KubeRest } from './kube-rest';
import { inParallel } from './parallel';
import {
  classObject,
  isOnline,
  poolLabels,
  setNameOf,
  setObject,
  type PoolLayout,
  type SeedReport,
} from './seed';

/** Requests the seed keeps in flight. */
const IN_FLIGHT = 32;

interface Pool {
  readonly namespace: string;
  readonly set: ExporterSet;
  readonly cls: VirtualTargetClass;
  readonly names: string[];
}

export async function seedSettledPoolsOverApi(
  rest: KubeRest,
  /** The simulators of each namespace (one instance per group of namespaces, kube-cluster-service.ts). */
  simsOf: (namespace: string) => RemoteSimulators,
  settle: () => Promise<void>,
  layout: PoolLayout,
  options: { timeoutMs?: number; log?: (message: string) => void } = {},
): Promise<SeedReport> {
  const jumpstarter = (namespace: string) => {
    const sims = simsOf(namespace);
    if (!sims.jumpstarter || !sims.kubelet) throw new Error('seeding settled pools needs both simulators');
    return sims.jumpstarter;
  };
  const timeoutMs = options.timeoutMs ?? 900_000;
  const phasesMs: Record<string, number> = {};
  let started = Date.now();
  const phase = (name: string) => {
    phasesMs[name] = Date.now() - started;
    options.log?.(`seed: ${name} in ${phasesMs[name]} ms`);
    started = Date.now();
  };
  const inLayout = (kind: 'Exporter' | 'Lease') =>
    layout.namespaces.flatMap((namespace) => simsOf(namespace).port.list(kind, namespace));

  // Classes, sets, their revisions and Exporters.
  const classes = new Map<string, VirtualTargetClass>();
  await inParallel(layout.namespaces, IN_FLIGHT, async (namespace) => {
    classes.set(
      namespace,
      (await rest.create('classes', namespace, classObject())) as unknown as VirtualTargetClass,
    );
  });
  const slots = layout.namespaces.flatMap((namespace) =>
    Array.from({ length: layout.setsPerNamespace }, (_, s) => ({ namespace, name: setNameOf(s) })),
  );
  const pools: Pool[] = [];
  await inParallel(slots, IN_FLIGHT, async ({ namespace, name }) => {
    const cls = classes.get(namespace)!;
    const set = (await rest.create(
      'sets',
      namespace,
      setObject(name, layout.setSpec ?? {}, true),
    )) as unknown as ExporterSet;
    const revision = currentRevision(set, cls) ?? '';
    const record = desiredRevision(set, revision, 1, revisionInputs(set, cls));
    await rest.create('revisions', namespace, record as unknown as KubeObject);
    pools.push({
      namespace,
      set,
      cls,
      names: Array.from({ length: layout.instancesPerSet }, (_, i) => `${name}-${i}`),
    });
  });
  const instances = pools.flatMap((pool) => pool.names.map((name, ordinal) => ({ pool, name, ordinal })));
  await inParallel(instances, IN_FLIGHT, async ({ pool, name, ordinal }) => {
    const revision = currentRevision(pool.set, pool.cls) ?? '';
    const exporter = desiredExporter(pool.set, name, ordinal, revision, false);
    await rest.create('exporters', pool.namespace, exporter as unknown as KubeObject);
  });
  phase('exporters');

  // Credentials come from the Jumpstarter simulator; then each instance is rendered as the reconciler does.
  const credentialed = (namespace: string, name: string): Exporter | undefined => {
    const exporter = simsOf(namespace).port.get('Exporter', namespace, name) as unknown as
      Exporter | undefined;
    return exporter?.status?.credential?.name &&
      exporter.status.endpoint &&
      jumpstarter(namespace).token(namespace, name) !== undefined
      ? exporter
      : undefined;
  };
  await waitUntil(
    'credentials for every seeded Exporter',
    () => instances.every(({ pool, name }) => credentialed(pool.namespace, name) !== undefined),
    { timeoutMs, intervalMs: 250 },
  );
  phase('credentials');
  await inParallel(instances, IN_FLIGHT, async ({ pool, name }) => {
    const rendered = qemuProvisioner.render({
      exporterSet: pool.set,
      virtualTargetClass: pool.cls,
      parameters: mergeParameters(pool.cls.spec?.parameters, pool.set.spec?.parameters),
      exporter: credentialed(pool.namespace, name)!,
      token: jumpstarter(pool.namespace).token(pool.namespace, name) ?? '',
    });
    for (const object of rendered.objects) {
      await rest.create(
        object.kind === 'Pod' ? 'pods' : 'secrets',
        pool.namespace,
        object as unknown as KubeObject,
      );
    }
  });
  phase('render');
  await waitUntil(
    'every seeded exporter Online',
    () => (inLayout('Exporter') as unknown as Exporter[]).filter(isOnline).length >= instances.length,
    {
      timeoutMs,
      intervalMs: 250,
    },
  );
  phase('online');

  // Leases, as clients create them; the simulator assigns each to an available instance of its pool.
  const leasedPerSet = layout.leasedPerSet ?? 0;
  const leases = pools.flatMap(({ namespace, set }) =>
    Array.from({ length: leasedPerSet }, (_, k) => ({ namespace, set: set.metadata.name ?? '', k })),
  );
  await inParallel(leases, IN_FLIGHT, async ({ namespace, set, k }) => {
    await jumpstarter(namespace).leases.create({
      namespace,
      name: `${set}-held-${k}`,
      selector: { matchLabels: poolLabels(set) },
      duration: '24h',
      clientName: 'bench',
    });
  });
  if (leases.length > 0) {
    await waitUntil(
      'every seeded Lease assigned',
      () =>
        (inLayout('Lease') as unknown as Lease[]).filter((l) => l.status?.exporterRef?.name).length >=
        leases.length,
      { timeoutMs, intervalMs: 250 },
    );
  }
  await settle();
  phase('leases');
  return { sets: pools.length, instances: instances.length, leases: leases.length, phasesMs };
}
