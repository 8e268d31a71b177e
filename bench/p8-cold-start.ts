/**
 * P8 cold start: a controller started against 1,000 settled sets and 10,000 instances (100 namespaces ×
 * 10 sets × 10 instances, P4's pools; `--quick`: 20 namespaces, 2,000 instances) lists, plans and
 * settles without a single write, and its memory while listing stays within 1.5× of what it keeps once
 * settled.
 *
 * "Settled" means as a controller left it: the pools are seeded (support/seed.ts), then a first
 * controller runs until it has made no write for 3 s (it writes each set's first status) and is
 * stopped. The controller measured is a second one started on that cluster — a restart, which is what
 * a cold start is in a Deployment. It should find nothing to write at all.
 *
 * Times are from just before the controller process is forked (the bench process's clock):
 * - **listening**: `/healthz` answers (modules loaded, servers up; the informers start right after);
 * - **listed and synced**: `/readyz` answers 200 (every informer's first list is in its cache);
 * - **first pass of every set**: every set reports its pool gauges (`jumpstarter_exporterset_replicas`
 *   has one series per set; a pass sets them), read from `/metrics` every 250 ms;
 * - **settled**: the last write or reconcile pass seen before 3 s of neither (writes from the cluster's
 *   request counters, passes from `/metrics`).
 *
 * Writes: the controller's create, update, patch and delete requests from its start until settled (the
 * request log), but for the SelfSubjectAccessReviews of its permission check at start — questions
 * sent as creates, nothing stored (on the real server; the test cluster is not asked them).
 *
 * Memory: the controller process's `VmHWM` (the most it was ever resident, from `/proc/<pid>/status`)
 * read once settled, against its RSS then after two full GCs (`controller.usage({ gc: true })`).
 * Target: peak / settled ≤ 1.5. `VmRSS` is also sampled every 20 ms, so the details tell the peak
 * while listing from the peak during the first passes.
 */
import type { Benchmark } from './support/benchmark';
import { profileFlags } from './support/benchmark';
import { startClusterChild, type ClusterChild } from './support/cluster-child';
import { epochNow, sleep } from './support/clock';
import {
  metricSeries,
  metricTotal,
  runtimeEnv,
  startControllerChild,
  type ControllerChild,
} from './support/controller-child';
import { peakBetween, residentMemory, sampleRss } from './support/proc-status';
import { CONTROLLER_IDENTITY, waitForQuiet, WRITE_VERBS, writesOf } from './support/quiet';
import type { BenchResult } from './support/results';

const PASSES = 'jumpstarter_exporterset_reconcile_duration_seconds_count';
/** One series per set that has had a pass (pass-report.ts `recordPassMetrics`). */
const PER_SET_GAUGE = 'jumpstarter_exporterset_replicas';
const QUIET_MS = 3000;
const METRICS_POLL_MS = 250;
const RSS_SAMPLE_MS = 20;
const HEAP_SAMPLE_MS = 250;

const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
const ms = (value: number) => Math.round(value);

export const namespacesOf = (count: number): string[] =>
  Array.from({ length: count }, (_, i) => `cold-${String(i).padStart(2, '0')}`);

interface Activity {
  /** When every set had had its first pass (bench clock). */
  readonly firstPassesAt: number;
  /** The last write or pass seen before the quiet period. */
  readonly settledAt: number;
  readonly passes: number;
  readonly metricsPolls: number;
}

/**
 * Polls `/metrics` and the controller's writes until every set has had a pass and neither passes nor
 * writes moved for `QUIET_MS`.
 */
async function watchActivity(
  cluster: ClusterChild,
  controller: ControllerChild,
  sets: number,
  since: number,
  timeoutMs = 600_000,
): Promise<Activity> {
  let firstPassesAt: number | undefined;
  let last = { writes: -1, passes: -1 };
  let lastChange = since;
  let polls = 0;
  for (;;) {
    const [text, writes] = await Promise.all([controller.metrics(), writesOf(cluster)]);
    const at = epochNow();
    polls += 1;
    const passes = metricTotal(text, PASSES);
    if (firstPassesAt === undefined && metricSeries(text, PER_SET_GAUGE) >= sets) firstPassesAt = at;
    if (passes !== last.passes || writes !== last.writes) {
      last = { writes, passes };
      lastChange = at;
    } else if (firstPassesAt !== undefined && at - lastChange >= QUIET_MS) {
      return { firstPassesAt, settledAt: Math.max(lastChange, firstPassesAt), passes, metricsPolls: polls };
    }
    if (at - since > timeoutMs) {
      throw new Error(`the controller did not settle within ${timeoutMs} ms of its start`);
    }
    await sleep(METRICS_POLL_MS);
  }
}

/** The controller's V8 heap (committed and in use) every `HEAP_SAMPLE_MS`, without a GC. */
function sampleHeap(controller: ControllerChild) {
  const samples: { at: number; heapTotal: number; heapUsed: number }[] = [];
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    controller
      .usage()
      .then((u) =>
        samples.push({ at: epochNow(), heapTotal: u.memory.heapTotal, heapUsed: u.memory.heapUsed }),
      )
      .catch(() => undefined)
      .finally(() => (busy = false));
  }, HEAP_SAMPLE_MS);
  return {
    stop: () => clearInterval(timer),
    peak(from: number, to: number) {
      const within = samples.filter((s) => s.at >= from && s.at < to);
      return {
        heapTotal: mib(Math.max(0, ...within.map((s) => s.heapTotal))),
        heapUsed: mib(Math.max(0, ...within.map((s) => s.heapUsed))),
      };
    },
  };
}

export const p8: Benchmark = {
  id: 'p8',
  name: 'p8-cold-start',
  title: 'cold start: a restart against 1,000 settled sets and 10,000 instances',
  async run(context): Promise<BenchResult> {
    const namespaces = namespacesOf(context.settings.quick ? 20 : 100);
    const cluster = await startClusterChild({
      backend: context.settings.backend,
      namespaces,
      identities: [CONTROLLER_IDENTITY],
    });
    try {
      context.log(`p8: seeding ${namespaces.length * 10} sets, ${namespaces.length * 100} instances`);
      const seed = await cluster.call('seed', {
        namespaces,
        setsPerNamespace: 10,
        instancesPerSet: 10,
        setSpec: { minReplicas: 0, minAvailableReplicas: 10, maxReplicas: 20 },
      });
      const kubeconfigYaml = cluster.kubeconfigs[CONTROLLER_IDENTITY];
      // The controller that leaves the cluster settled: its first statuses are what a restart finds.
      const first = await startControllerChild({ kubeconfigYaml });
      let warmUp: { settledMs: number; writes: number };
      try {
        await first.ready();
        const settledMs = await waitForQuiet(cluster, { quietMs: QUIET_MS });
        warmUp = { settledMs, writes: await writesOf(cluster) };
      } finally {
        await first.stop();
      }
      context.log(`p8: the first controller settled after ${warmUp.writes} writes; restarting`);
      const writesBefore = await writesOf(cluster);
      const requestsFrom = (await cluster.call('requests', 0)).next;

      const forkedAt = epochNow();
      const controller = await startControllerChild({
        kubeconfigYaml,
        nodeFlags: profileFlags(context.settings, 'p8'),
      });
      const listeningAt = epochNow();
      const sampler = sampleRss(controller.pid, RSS_SAMPLE_MS, epochNow);
      const heap = sampleHeap(controller);
      try {
        await controller.ready(600_000);
        const syncedAt = epochNow();
        const activity = await watchActivity(cluster, controller, seed.sets, forkedAt);
        sampler.stop();
        heap.stop();
        const resident = residentMemory(controller.pid);
        const settled = await controller.usage({ gc: true });
        const requests = (await cluster.call('requests', requestsFrom)).entries.filter(
          (r) => r.identity === CONTROLLER_IDENTITY,
        );
        // A SelfSubjectAccessReview is a question sent as a create (the permission check at start,
        // process/permissions.ts): nothing is stored, so it is no write.
        const isReview = (resource: string) => resource.endsWith('accessreviews');
        const writes = requests.filter(
          (r) => WRITE_VERBS.includes(r.verb as never) && !isReview(r.resource),
        ).length;
        const counted = (await writesOf(cluster)) - writesBefore;
        const byVerb: Record<string, number> = {};
        for (const r of requests) {
          const key = `${r.verb} ${r.resource}${r.subresource ? `/${r.subresource}` : ''}`;
          byVerb[key] = (byVerb[key] ?? 0) + 1;
        }
        const peak = resident?.peak ?? Math.max(...sampler.samples.map((s) => s.rss));
        const listingPeak = peakBetween(sampler.samples, listeningAt, syncedAt) ?? 0;
        const passesPeak = peakBetween(sampler.samples, syncedAt, activity.settledAt + 1) ?? 0;
        const ratio = (bytes: number) => Math.round((bytes / settled.memory.rss) * 100) / 100;
        return {
          name: 'p8-cold-start',
          title: this.title,
          figures: [
            {
              label: 'writes during the cold start',
              value: writes,
              unit: 'writes',
              target: { op: '==', value: 0 },
            },
            {
              label: 'peak RSS / settled RSS',
              value: ratio(peak),
              unit: 'x',
              target: { op: '<=', value: 1.5 },
            },
            { label: 'listed and synced after', value: ms(syncedAt - forkedAt), unit: 'ms' },
            {
              label: 'first pass of every set after',
              value: ms(activity.firstPassesAt - forkedAt),
              unit: 'ms',
            },
            { label: 'settled after', value: ms(activity.settledAt - forkedAt), unit: 'ms' },
            { label: 'peak RSS while listing / settled RSS', value: ratio(listingPeak), unit: 'x' },
            { label: 'settled RSS (after GC)', value: mib(settled.memory.rss), unit: 'MiB' },
          ],
          details: {
            sets: seed.sets,
            instances: seed.instances,
            seed,
            warmUp,
            runtimeEnv: runtimeEnv(),
            timesMs: {
              listening: ms(listeningAt - forkedAt),
              synced: ms(syncedAt - forkedAt),
              firstPassOfEverySet: ms(activity.firstPassesAt - forkedAt),
              settled: ms(activity.settledAt - forkedAt),
              resolution: `first passes and settled: /metrics every ${METRICS_POLL_MS} ms; synced: /readyz every 25 ms`,
            },
            passes: activity.passes,
            metricsPolls: activity.metricsPolls,
            writes,
            writesCountedByTheServer: counted,
            permissionReviews: requests.filter((r) => isReview(r.resource)).length,
            requestsByVerb: byVerb,
            memoryMiB: {
              peakVmHWM: mib(peak),
              sampledPeakWhileListing: mib(listingPeak),
              sampledPeakDuringFirstPasses: mib(passesPeak),
              rssAtSettleBeforeGc: mib(resident?.rss ?? 0),
              settledAfterGc: mib(settled.memory.rss),
              heapUsedAfterGc: mib(settled.memory.heapUsed),
              heapTotalAfterGc: mib(settled.memory.heapTotal),
            },
            rssSamples: sampler.samples.length,
            // Where the peak is: the V8 heap's share, read from the process every 250 ms.
            heapPeaksMiB: {
              whileListing: heap.peak(listeningAt, syncedAt),
              duringFirstPasses: heap.peak(syncedAt, activity.settledAt + 1),
            },
          },
          notes: [
            'the cluster was left settled by a first controller (its status writes are in warmUp); the figures are of a second one',
          ],
        };
      } finally {
        sampler.stop();
        heap.stop();
        await controller.stop();
      }
    } finally {
      await cluster.stop();
    }
  },
};
