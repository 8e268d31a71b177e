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
 */
import type { Benchmark } from './support/benchmark';
import { profileFlags } from './support/benchmark';
import { startClusterChild } from './support/cluster-child';
import { sleep } from './support/clock';
import { runtimeEnv, startControllerChild, type Usage } from './support/controller-child';
import { CONTROLLER_IDENTITY, waitForQuiet } from './support/quiet';
import type { BenchResult } from './support/results';

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

export const p4: Benchmark = {
  id: 'p4',
  name: 'p4-memory',
  title: 'memory: controller RSS per cached instance at 10,000 instances',
  async run(context): Promise<BenchResult> {
    const cluster = await startClusterChild({ namespaces: NAMESPACES, identities: [CONTROLLER_IDENTITY] });
    try {
      context.log('p4: seeding 1,000 sets, 10,000 instances');
      const seed = await cluster.call('seed', {
        namespaces: NAMESPACES,
        setsPerNamespace: 10,
        instancesPerSet: 10,
        setSpec: { minReplicas: 0, minAvailableReplicas: 10, maxReplicas: 20 },
      });
      const hold = await cluster.call('addFault', {
        kind: 'latency',
        ms: HOLD_LISTS_MS,
        verb: 'list',
        identity: CONTROLLER_IDENTITY,
      });
      const controller = await startControllerChild({
        kubeconfigYaml: cluster.kubeconfigs[CONTROLLER_IDENTITY],
        nodeFlags: profileFlags(context.settings, 'p4'),
      });
      try {
        await sleep(HOLD_LISTS_MS / 4);
        const before = await controller.usage({ gc: true });
        await cluster.call('clearFaults');
        await controller.ready();
        await waitForQuiet(cluster, { quietMs: 3000 });
        const after = await controller.usage({ gc: true });
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
            holdFault: hold,
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
      }
    } finally {
      await cluster.stop();
    }
  },
};
