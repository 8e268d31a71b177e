/**
 * P4 memory: the controller's resident memory per cached instance at 10,000 instances (1,000 sets in
 * 100 namespaces; each instance an Exporter, its Pod, its config Secret and its credential Secret —
 * all cached by the controller). The controller runs in its own process with `--expose-gc`; its
 * probe runs two full GCs before each reading.
 *
 * "Before" is read while the controller has loaded and started everything but its caches are still
 * empty: the cluster holds the controller's list requests for a few seconds (a latency fault), so
 * the informers are waiting for their first lists. "After" is read once the caches are synced and the
 * first pass of every set is done. Figure = (RSS after − RSS before) / 10,000; target ≤ 4 KB. The
 * heap's share is reported beside it. The controller runs with the runtime settings (V8 and malloc
 * flags) of the installer's Deployment, read from the rendered manifest (support/deployment-env.ts).
 *
 * On the real server (`--backend kube`) there are no fault rules: the controller reaches
 * kube-apiserver through a proxy of the bench (`support/hold-proxy.ts`) that holds its connections for
 * the same few seconds, so everything it asks for waits, lists included. Every object there carries
 * `metadata.managedFields`, which the controller's caches drop (controller/src/kube/cache-views.ts);
 * the details say how many bytes of JSON that is per instance, read from a sample of the seeded objects.
 */
import type { Benchmark } from './support/benchmark';
import { profileFlags } from './support/benchmark';
import { startClusterChild } from './support/cluster-child';
import { sleep } from './support/clock';
import type { ClusterChild } from './support/cluster-child';
import { runtimeEnv, startControllerChild, type Usage } from './support/controller-child';
import { startHoldProxy, type HoldProxy } from './support/hold-proxy';
import { CONTROLLER_IDENTITY, waitForQuiet } from './support/quiet';
import type { BenchResult } from './support/results';
import { setNameOf } from './support/seed';

const NAMESPACES = Array.from({ length: 100 }, (_, i) => `memory-${String(i).padStart(2, '0')}`);
/** How long the cluster holds the controller's first lists, so "before" is read with empty caches. */
const HOLD_LISTS_MS = 4000;

const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

function memoryOf(usage: Usage) {
  const { rss, heapTotal, heapUsed, external, arrayBuffers } = usage.memory;
  return {
    rssMiB: mib(rss),
    heapTotalMiB: mib(heapTotal),
    heapUsedMiB: mib(heapUsed),
    heapPhysicalMiB: mib(usage.heap.total_physical_size ?? 0),
    v8MallocedMiB: mib(usage.heap.malloced_memory ?? 0),
    v8PeakMallocedMiB: mib(usage.heap.peak_malloced_memory ?? 0),
    externalMiB: mib(external),
    arrayBuffersMiB: mib(arrayBuffers),
    ...(usage.resident
      ? {
          anonymousMiB: mib(usage.resident.anonymous * 1024),
          fileBackedMiB: mib((usage.resident.rss - usage.resident.anonymous) * 1024),
        }
      : {}),
  };
}

/**
 * Bytes of JSON per instance with and without `metadata.managedFields`, from the first set's instances
 * (its Exporters, Pods, config and credential Secrets) as the server returns them.
 */
async function managedFieldsBytes(cluster: ClusterChild, namespace: string, instances: number) {
  const size = (value: unknown) => Buffer.byteLength(JSON.stringify(value ?? null));
  const totals = { objects: 0, managedFields: 0 };
  const byKind: Record<string, { objects: number; managedFields: number }> = {};
  const count = (kind: string, object: { metadata?: { managedFields?: unknown } } | undefined) => {
    if (!object) return;
    const entry = (byKind[kind] ??= { objects: 0, managedFields: 0 });
    entry.objects += size(object);
    entry.managedFields += size(object.metadata?.managedFields ?? []) - 2;
  };
  for (let i = 0; i < instances; i++) {
    const name = `${setNameOf(0)}-${i}`;
    const exporter = (await cluster.call('get', 'exporters', namespace, name)) as
      { status?: { credential?: { name?: string } } } | undefined;
    count('Exporter', exporter as never);
    count('Pod', (await cluster.call('get', 'pods', namespace, name)) as never);
    count(
      'config Secret',
      (await cluster.call('get', 'secrets', namespace, `exporter-config-${name}`)) as never,
    );
    const credential = exporter?.status?.credential?.name;
    if (credential)
      count('credential Secret', (await cluster.call('get', 'secrets', namespace, credential)) as never);
  }
  for (const entry of Object.values(byKind)) {
    totals.objects += entry.objects;
    totals.managedFields += entry.managedFields;
  }
  const per = (n: number) => Math.round(n / instances);
  return {
    sampledInstances: instances,
    jsonBytesPerInstance: per(totals.objects),
    managedFieldsBytesPerInstance: per(totals.managedFields),
    byKind: Object.fromEntries(
      Object.entries(byKind).map(([kind, e]) => [
        kind,
        { jsonBytes: per(e.objects), managedFieldsBytes: per(e.managedFields) },
      ]),
    ),
  };
}

export const p4: Benchmark = {
  id: 'p4',
  name: 'p4-memory',
  title: 'memory: controller RSS per cached instance at 10,000 instances',
  async run(context): Promise<BenchResult> {
    const cluster = await startClusterChild({
      backend: context.settings.backend,
      namespaces: NAMESPACES,
      identities: [CONTROLLER_IDENTITY],
    });
    try {
      context.log('p4: seeding 1,000 sets, 10,000 instances');
      const seed = await cluster.call('seed', {
        namespaces: NAMESPACES,
        setsPerNamespace: 10,
        instancesPerSet: 10,
        setSpec: { minReplicas: 0, minAvailableReplicas: 10, maxReplicas: 20 },
      });
      const kube = context.settings.backend === 'kube';
      // Lists held back: a latency fault on the test cluster, a proxy that holds connections on kube.
      let proxy: HoldProxy | undefined;
      let hold: string | undefined;
      let kubeconfigYaml = cluster.kubeconfigs[CONTROLLER_IDENTITY];
      if (kube) {
        proxy = await startHoldProxy(cluster.url);
        kubeconfigYaml = kubeconfigYaml.replace(cluster.url, proxy.url);
      } else {
        hold = await cluster.call('addFault', {
          kind: 'latency',
          ms: HOLD_LISTS_MS,
          verb: 'list',
          identity: CONTROLLER_IDENTITY,
        });
      }
      const controller = await startControllerChild({
        kubeconfigYaml,
        nodeFlags: profileFlags(context.settings, 'p4'),
      });
      try {
        await sleep(HOLD_LISTS_MS / 4);
        const before = await controller.usage({ gc: true });
        const heldConnections = proxy?.connections();
        if (proxy) proxy.release();
        else await cluster.call('clearFaults');
        await controller.ready();
        await waitForQuiet(cluster, { quietMs: 3000 });
        const after = await controller.usage({ gc: true });
        const managedFields = kube ? await managedFieldsBytes(cluster, NAMESPACES[0], 10) : undefined;
        const instances = seed.instances;
        const perInstance = (key: 'rss' | 'heapUsed' | 'heapTotal' | 'external') =>
          Math.round(((after.memory[key] - before.memory[key]) / instances / 1024) * 100) / 100;
        return {
          name: 'p4-memory',
          title: this.title,
          figures: [
            {
              label: 'RSS per cached instance',
              value: perInstance('rss'),
              unit: 'KB',
              target: { op: '<=', value: 4 },
            },
            { label: 'heap used per cached instance', value: perInstance('heapUsed'), unit: 'KB' },
            { label: 'RSS with caches synced', value: mib(after.memory.rss), unit: 'MiB' },
          ],
          details: {
            instances,
            sets: seed.sets,
            cachedPerInstance: 'Exporter, Pod, config Secret, credential Secret',
            runtimeEnv: runtimeEnv(),
            listsHeldMs: HOLD_LISTS_MS,
            ...(hold !== undefined ? { holdFault: hold } : {}),
            ...(heldConnections !== undefined ? { heldConnections } : {}),
            ...(managedFields ? { managedFields } : {}),
            before: memoryOf(before),
            after: memoryOf(after),
            perInstanceKB: {
              rss: perInstance('rss'),
              heapTotal: perInstance('heapTotal'),
              heapUsed: perInstance('heapUsed'),
              external: perInstance('external'),
            },
          },
        };
      } finally {
        await controller.stop();
        await proxy?.close();
      }
    } finally {
      await cluster.stop();
    }
  },
};
