/**
 * P3 idle: 100 settled ExporterSets (10 namespaces × 10 sets × 10 instances, 3 of each set leased,
 * warm buffer 7), the controller in its own process with its caches synced and its first passes done.
 * Over the measured period (60 s of wall time; `--idle-seconds`, 10 s in quick mode) nothing changes
 * in the cluster, so the controller should make no write at all (SPEC §3.15, target 0 per minute);
 * its CPU use is the controller process's own (`process.cpuUsage()` read by the preloaded probe).
 */
import type { Benchmark } from './support/benchmark';
import { profileFlags } from './support/benchmark';
import { startClusterChild } from './support/cluster-child';
import { sleep } from './support/clock';
import { metricTotal, startControllerChild } from './support/controller-child';
import { CONTROLLER_IDENTITY, waitForQuiet, WRITE_VERBS, writesOf } from './support/quiet';
import type { BenchResult } from './support/results';

const NAMESPACES = Array.from({ length: 10 }, (_, i) => `idle-${i}`);
const PASSES = 'jumpstarter_exporterset_reconcile_duration_seconds_count';

export const p3: Benchmark = {
  id: 'p3',
  name: 'p3-idle',
  title: 'idle: writes and CPU of the controller with 100 settled sets',
  async run(context): Promise<BenchResult> {
    const cluster = await startClusterChild({
      backend: context.settings.backend,
      namespaces: NAMESPACES,
      identities: [CONTROLLER_IDENTITY],
    });
    try {
      const seed = await cluster.call('seed', {
        namespaces: NAMESPACES,
        setsPerNamespace: 10,
        instancesPerSet: 10,
        leasedPerSet: 3,
        setSpec: { minReplicas: 0, minAvailableReplicas: 7, maxReplicas: 20 },
      });
      const controller = await startControllerChild({
        kubeconfigYaml: cluster.kubeconfigs[CONTROLLER_IDENTITY],
        nodeFlags: profileFlags(context.settings, 'p3'),
      });
      try {
        await controller.ready();
        const settledMs = await waitForQuiet(cluster, { quietMs: 3000 });
        const warmUpWrites = await writesOf(cluster);
        const seconds = context.settings.idleSeconds;
        context.log(`p3: settled after ${warmUpWrites} writes; measuring ${seconds} s of idle`);
        const requestsFrom = (await cluster.call('requests', 0)).next;
        const passesBefore = metricTotal(await controller.metrics(), PASSES);
        const before = await controller.usage();
        await sleep(seconds * 1000);
        const after = await controller.usage();
        const passes = metricTotal(await controller.metrics(), PASSES) - passesBefore;
        const requests = (await cluster.call('requests', requestsFrom)).entries.filter(
          (r) => r.identity === CONTROLLER_IDENTITY && r.at <= after.at + cluster.clockOffset.offsetMs,
        );
        const writes = requests.filter((r) => WRITE_VERBS.includes(r.verb as never));
        const wallMs = after.at - before.at;
        const cpuMs = (after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system) / 1000;
        const minutes = wallMs / 60_000;
        const byVerb: Record<string, number> = {};
        for (const r of requests) {
          const key = `${r.verb} ${r.resource}${r.subresource ? `/${r.subresource}` : ''}`;
          byVerb[key] = (byVerb[key] ?? 0) + 1;
        }
        return {
          name: 'p3-idle',
          title: this.title,
          figures: [
            {
              label: 'writes per minute',
              value: Math.round((writes.length / minutes) * 100) / 100,
              unit: '/min',
              target: { op: '==', value: 0 },
            },
            { label: 'controller CPU', value: Math.round((cpuMs / wallMs) * 100 * 1000) / 1000, unit: '%' },
            // The metrics' /metrics scrapes above are the benchmark's; they are not part of the period.
            {
              label: 'reconcile passes per minute',
              value: Math.round((passes / minutes) * 100) / 100,
              unit: '/min',
            },
          ],
          details: {
            sets: seed.sets,
            instances: seed.instances,
            leases: seed.leases,
            seed,
            settledMs,
            warmUpWrites,
            measuredSeconds: Math.round(wallMs) / 1000,
            writes: writes.length,
            requestsByVerb: byVerb,
            cpuMs: Math.round(cpuMs),
            rssMiB: Math.round((after.memory.rss / 2 ** 20) * 10) / 10,
          },
          notes: ['the /metrics scrapes that count passes are made outside the measured period'],
        };
      } finally {
        await controller.stop();
      }
    } finally {
      await cluster.stop();
    }
  },
};
