/**
 * The cost curve (`npm run bench -- --curve`, issue 28): passes per second, API requests and CPU per
 * pass, and RSS of the controller against the number of sets (10, 100, 1,000) and instances per set
 * (1, 10, 100) — the points up to 10,000 instances (support/curve-grid.ts says which are left out and
 * why), in namespaces of 10 sets, and 100 and 1,000 sets of 10 in one namespace; `--quick`: 10 and 100
 * sets of 1 and 10, and 100 sets of 10 in one namespace.
 *
 * Each point gets a fresh cluster, seeded with settled pools (support/seed.ts, the warm buffer all of
 * each set's instances), and a controller that runs until it has made no write
 * for 2 s. Then it is driven with rounds of "change every set once": a merge patch of each set's
 * `spec.scaleDownCooldown` (301s, 302s, … — nothing to create or delete, a new generation to report),
 * sent 50 at a time; a round ends when the controller's status write of every set arrived (the
 * request log's server time). Small points run many rounds: each point runs until it has made 1,000
 * changes or changed 10,000 instances (quick: 200 and 2,000), whichever comes first, and ≥ 2 rounds.
 *
 * - passes per second: the controller's reconcile passes while driven (its own metric, so a pass its
 *   own status write causes counts too) over the rounds' wall time;
 * - API requests per pass: the controller's requests while driven (request log) over those passes;
 * - CPU per pass: the controller process's user + system time while driven over those passes;
 * - RSS and V8 heap in use: the controller's, after two full GCs, once driven.
 *
 * Results: `<results dir>/curve.json` (the points, the fits, the skipped points) and
 * `<results dir>/curve.svg`, the charts bench/README.md shows (`.kube.` in both names on the real
 * server).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { BenchContext } from './support/benchmark';
import { profileFlags } from './support/benchmark';
import { startClusterChild, type ClusterChild } from './support/cluster-child';
import { epochNow, sleep, waitUntil } from './support/clock';
import {
  metricTotal,
  startControllerChild,
  type ControllerChild,
  type Usage,
} from './support/controller-child';
import { analyseCurve, curveCharts, type PointResult } from './support/curve-analysis';
import {
  curveGrid,
  curveLayout,
  instancesOf,
  isOneNamespace,
  roundsOf,
  type CurvePoint,
} from './support/curve-grid';
import { inParallel } from './support/parallel';
import { CONTROLLER_IDENTITY, waitForQuiet } from './support/quiet';
import { machine, resultFileName, type BenchResult } from './support/results';
import { setNameOf } from './support/seed';
import { renderCharts } from './support/svg-chart';

const PASSES = 'jumpstarter_exporterset_reconcile_duration_seconds_count';
const PATCHES_IN_FLIGHT = 50;
const STATUS_WRITES = {
  identity: CONTROLLER_IDENTITY,
  verb: ['patch', 'update'],
  resource: 'exportersets',
  subresource: 'status',
} as const;

const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
const round = (v: number, digits = 3) => Math.round(v * 10 ** digits) / 10 ** digits;

/** Every set of a point, as (namespace, name). */
function setsOf(point: CurvePoint): { namespace: string; name: string }[] {
  const layout = curveLayout(point);
  return layout.namespaces.flatMap((namespace) =>
    Array.from({ length: layout.setsPerNamespace }, (_, s) => ({ namespace, name: setNameOf(s) })),
  );
}

/** When the last status write of the controller from request cursor `from` on arrived (bench clock). */
async function lastStatusWrite(cluster: ClusterChild, from: number): Promise<{ at: number; next: number }> {
  const page = await cluster.call('requests', from);
  let at = -Infinity;
  for (const r of page.entries) {
    if (r.identity === CONTROLLER_IDENTITY && r.resource === 'exportersets' && r.subresource === 'status')
      at = Math.max(at, cluster.toLocal(r.at));
  }
  return { at, next: page.next };
}

/** Waits until the controller's pass count has not moved for `quietMs`. */
async function passesSettled(metrics: () => Promise<string>, quietMs: number): Promise<number> {
  let last = metricTotal(await metrics(), PASSES);
  let since = Date.now();
  for (;;) {
    await sleep(100);
    const now = metricTotal(await metrics(), PASSES);
    if (now !== last) [last, since] = [now, Date.now()];
    else if (Date.now() - since >= quietMs) return now;
  }
}

/**
 * The controller's usage once the passes the last round caused are done, read before any `/metrics`
 * scrape (rendering the metrics of 1,000 sets costs CPU that is not a pass's): a second apart, then the
 * pass count twice; again while it moves.
 */
async function quietAfterRounds(controller: ControllerChild): Promise<{ passes: number; usage: Usage }> {
  for (;;) {
    await sleep(1000);
    const usage = await controller.usage();
    const passes = metricTotal(await controller.metrics(), PASSES);
    await sleep(300);
    if (metricTotal(await controller.metrics(), PASSES) === passes) return { passes, usage };
  }
}

export async function measurePoint(
  context: BenchContext,
  point: CurvePoint,
): Promise<PointResult & { details: Record<string, unknown> }> {
  const layout = curveLayout(point);
  const kube = context.settings.backend === 'kube';
  const cluster = await startClusterChild({
    backend: context.settings.backend,
    namespaces: layout.namespaces,
    identities: [CONTROLLER_IDENTITY],
  });
  try {
    const seed = await cluster.call('seed', layout);
    const controller = await startControllerChild({
      kubeconfigYaml: cluster.kubeconfigs[CONTROLLER_IDENTITY],
      nodeFlags: profileFlags(
        context.settings,
        `curve-${point.sets}x${point.instancesPerSet}${isOneNamespace(point) ? '-one-namespace' : ''}`,
      ),
    });
    try {
      await controller.ready(600_000);
      const settledMs = await waitForQuiet(cluster, { quietMs: 2000 });
      const metrics = () => controller.metrics();
      const rounds = roundsOf(point, {
        minChanges: context.settings.quick ? 200 : 1000,
        minInstanceChanges: context.settings.quick ? 2000 : 10_000,
        minRounds: 2,
      });
      const sets = setsOf(point);
      const passesBefore = await passesSettled(metrics, 500);
      let cursor = (await cluster.call('requests', 0)).next;
      const requestsFrom = cursor;
      const clusterCpuBefore = await cluster.call('cpuUsage');
      const before = await controller.usage();
      let busyMs = 0;
      const roundMs: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const written = await cluster.call('requestTotal', STATUS_WRITES);
        const started = epochNow();
        await inParallel(sets, PATCHES_IN_FLIGHT, async ({ namespace, name }) => {
          await cluster.call('patch', 'sets', namespace, name, {
            spec: { scaleDownCooldown: `${301 + r}s` },
          });
        });
        await waitUntil(
          `the controller's status writes of round ${r + 1} (${sets.length} sets)`,
          async () => (await cluster.call('requestTotal', STATUS_WRITES)) >= written + sets.length,
          { timeoutMs: 300_000, intervalMs: kube ? 20 : 5 },
        );
        const last = await lastStatusWrite(cluster, cursor);
        cursor = last.next;
        roundMs.push(last.at - started);
        busyMs += last.at - started;
      }
      const { passes: passesAfter, usage: after } = await quietAfterRounds(controller);
      const clusterCpuAfter = await cluster.call('cpuUsage');
      const requests = (await cluster.call('requests', requestsFrom)).entries.filter(
        (r) => r.identity === CONTROLLER_IDENTITY && cluster.toLocal(r.at) <= after.at,
      );
      const settled = await controller.usage({ gc: true });
      const passes = passesAfter - passesBefore;
      const cpuMs = (after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system) / 1000;
      const byVerb: Record<string, number> = {};
      for (const r of requests) {
        const key = `${r.verb} ${r.resource}${r.subresource ? `/${r.subresource}` : ''}`;
        byVerb[key] = (byVerb[key] ?? 0) + 1;
      }
      const sorted = [...roundMs].sort((a, b) => a - b);
      return {
        ...point,
        instances: instancesOf(point),
        rounds,
        passes,
        passesPerSecond: round(passes / (busyMs / 1000), 1),
        requestsPerPass: round(requests.length / passes),
        cpuMsPerPass: round(cpuMs / passes),
        rssMiB: mib(settled.memory.rss),
        heapUsedMiB: mib(settled.memory.heapUsed),
        details: {
          seedPhasesMs: seed.phasesMs,
          settledMs,
          changes: rounds * sets.length,
          busyMs: Math.round(busyMs),
          roundMs: {
            min: round(sorted[0], 1),
            median: round(sorted[Math.floor(sorted.length / 2)], 1),
            max: round(sorted[sorted.length - 1], 1),
          },
          controllerCpuMs: Math.round(cpuMs),
          clusterCpuMs: Math.round(
            (clusterCpuAfter.user +
              clusterCpuAfter.system -
              clusterCpuBefore.user -
              clusterCpuBefore.system) /
              1000,
          ),
          requestsByVerb: byVerb,
          heapTotalMiB: mib(settled.memory.heapTotal),
          rssBeforeGcMiB: mib(after.memory.rss),
        },
      };
    } finally {
      await controller.stop();
    }
  } finally {
    await cluster.stop();
  }
}

/** Runs the curve, writes its JSON and SVG into `resultsDir`, and returns the result. */
export async function runCurve(context: BenchContext, resultsDir: string): Promise<BenchResult> {
  const { points, skipped } = curveGrid(context.settings.quick);
  for (const s of skipped) context.log(`curve: ${s.sets} sets × ${s.instancesPerSet} left out: ${s.why}`);
  const results: (PointResult & { details: Record<string, unknown> })[] = [];
  for (const point of points) {
    const started = Date.now();
    context.log(
      `curve: ${point.sets} sets × ${point.instancesPerSet} instances, ${point.setsPerNamespace} sets a namespace`,
    );
    const result = await measurePoint(context, point);
    results.push(result);
    context.log(
      `  ${result.passesPerSecond} passes/s, ${result.cpuMsPerPass} ms CPU and ${result.requestsPerPass} requests per pass, ${result.rssMiB} MiB (${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
  }
  const plain = results.map(({ details: _details, ...p }) => p);
  const analysis = analyseCurve(plain);
  const host = machine();
  const svg = renderCharts(curveCharts(plain), {
    columns: 3,
    caption: `npm run bench -- --curve${context.settings.quick ? ' --quick' : ''}${context.settings.backend === 'kube' ? ' --backend kube' : ''}: ${new Date().toISOString().slice(0, 16)} UTC, ${host.cpus} × ${host.model}, load ${host.loadAverage[0]}`,
  });
  const svgFile = path.join(
    resultsDir,
    resultFileName('curve', context.settings.backend).replace(/\.json$/, '.svg'),
  );
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(svgFile, svg);
  context.log(`curve: charts in ${svgFile}`);
  const figures: BenchResult['figures'] = [
    ...(analysis.steepestPerInstance !== undefined
      ? [
          {
            label: 'CPU per pass against instances per set: steepest log-log slope',
            value: analysis.steepestPerInstance,
            unit: '',
            target: { op: '<=' as const, value: 1.15 },
          },
        ]
      : []),
    ...(analysis.steepestPerSet !== undefined
      ? [
          {
            label: 'CPU per pass against sets: steepest log-log slope',
            value: analysis.steepestPerSet,
            unit: '',
            target: { op: '<=' as const, value: 0.2 },
          },
        ]
      : []),
    ...(analysis.oneNamespaceRatio
      ? [
          {
            label: `CPU per pass, ${analysis.oneNamespaceRatio.sets} sets in one namespace / in namespaces of 10`,
            value: analysis.oneNamespaceRatio.ratio,
            unit: 'x',
            target: { op: '<=' as const, value: 1.25 },
          },
        ]
      : []),
    ...(analysis.rss
      ? [
          { label: 'RSS per instance (linear fit)', value: analysis.rss.perInstanceKB, unit: 'KB' },
          { label: 'RSS fit R²', value: analysis.rss.r2, unit: '' },
        ]
      : []),
    ...(analysis.heap
      ? [
          { label: 'heap in use per instance (linear fit)', value: analysis.heap.perInstanceKB, unit: 'KB' },
          { label: 'heap in use fit R²', value: analysis.heap.r2, unit: '' },
        ]
      : []),
  ];
  return {
    name: 'curve',
    title: 'cost curve: passes/s, requests, CPU and RSS against sets and instances per set',
    figures,
    details: { points: results, skipped, analysis },
    notes: [
      'a slope of 1 is linear growth, 0 none; CPU per pass should grow at most linearly with the instances of the set and not with the number of sets',
    ],
  };
}
