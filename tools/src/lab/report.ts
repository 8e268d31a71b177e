/**
 * Turns a lab run's report into what the user reads: the summary text printed at the end, and the
 * chart's input (pool size and available from the sets' status, pending from the Leases themselves,
 * so the chart shows the demand clients saw even when the status lags).
 */
import { getProvisioner } from 'virtual-exporters/internal';
import type { ChartInput, ChartPoint } from './chart';
import type { LabReport } from './lab-types';
import type { LabPool } from './manifests';
import { isOffCluster, type OffClusterReport } from './off-cluster';
import type { PoolPlanning } from './workday';
import type { Distribution } from './summary';
import type { PoolRow } from './table';

export interface RunSettings {
  readonly profile: string;
  readonly seed: number;
  readonly speedUp: number;
}

/** `850 ms`, `2.31 s`. */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

function formatDistribution(d: Distribution | undefined): string {
  if (d === undefined) return 'no lease served';
  return `p50 ${formatMs(d.p50)}  p95 ${formatMs(d.p95)}  p99 ${formatMs(d.p99)}  max ${formatMs(d.max)}  (n=${d.count})`;
}

/**
 * What the lab says of a pool it applied but does not serve: its class names a provisioner the lab
 * runs no controller for, or an off-cluster one when no sshd host could be started (`offCluster`
 * says why), so the pool never gets an instance here.
 */
export function unservedPoolLine(
  pool: Pick<LabPool, 'name' | 'provisioner'>,
  offCluster?: OffClusterReport,
): string {
  if (isOffCluster(pool.provisioner) && offCluster && 'unavailable' in offCluster) {
    return (
      `pool ${pool.name}: provisioner ${pool.provisioner} is served on local sshd hosts, and ` +
      `${offCluster.unavailable}; no instances will be created`
    );
  }
  const who = getProvisioner(pool.provisioner) ? 'the lab' : 'this version';
  const provisioner = pool.provisioner || '(none: its class is missing)';
  return `pool ${pool.name}: provisioner ${provisioner} is not run by ${who}; no instances will be created`;
}

/** What the lab says of its off-cluster pools when they are served. */
export function offClusterLine(
  offCluster: OffClusterReport,
  pools: readonly Pick<LabPool, 'name' | 'provisioner'>[],
): string {
  const names = pools.filter((p) => isOffCluster(p.provisioner)).map((p) => p.name);
  if ('unavailable' in offCluster)
    return `off-cluster pools ${names.join(', ')} not served: ${offCluster.unavailable}`;
  const hosts = offCluster.hosts.map((h) => `${h.name}:${h.port}`).join(', ');
  return (
    `off-cluster pools ${names.join(', ')} served over SSH on ${offCluster.hosts.length} sshd ` +
    `host${offCluster.hosts.length === 1 ? '' : 's'} on loopback (${hosts}); systemctl and podman there are stand-ins`
  );
}

export function summaryLines(report: LabReport, settings: RunSettings): string[] {
  const { summary } = report;
  const { leases, instances, requests } = summary;
  const verbs = Object.entries(requests.byVerb)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([verb, n]) => `${verb} ${n}`)
    .join(', ');
  const lines = [
    `summary — profile ${settings.profile}, seed ${settings.seed}, speed-up ${settings.speedUp}×, ` +
      `load ${(report.loadMs / 1000).toFixed(1)} s after a ${(report.warmupMs / 1000).toFixed(1)} s warm-up`,
    `  cluster:    ${report.cluster}`,
    `  leases:     ${leases.created} created (${report.plannedLeases} planned), ${leases.served} served, ` +
      `${leases.unserved} ended unserved, ${leases.pendingAtEnd} pending at the end; ` +
      `${leases.released} released, ${leases.expired} expired`,
    `  lease wait: ${formatDistribution(summary.waitMs)}  (pending → assigned, wall time)`,
    ...report.perPool.map(
      (p) => `    ${p.pool}: ${p.served}/${p.leases} served; ${formatDistribution(p.waitMs)}`,
    ),
    `  instances:  ${instances.created} created, ${instances.recycled} recycled, ${instances.removed} removed otherwise`,
    `  API requests of the controllers: ${requests.total} (${requests.writes} writes, ` +
      `${report.writesDuringLoad} of them during the load) — ${verbs || 'none'}`,
  ];
  if (report.offCluster && 'hosts' in report.offCluster) {
    lines.push(`  ${offClusterLine(report.offCluster, report.pools)}`);
  }
  if (report.planning) {
    lines.push('  workday planning (spec.schedules, spec.forecast):');
    for (const [pool, planning] of Object.entries(report.planning))
      lines.push(`    ${planningLine(pool, planning)}`);
  }
  for (const pool of report.ignoredPools) lines.push(`  ${unservedPoolLine(pool, report.offCluster)}`);
  if (report.controllerExitCode !== 0) lines.push(`  controller exit code: ${report.controllerExitCode}`);
  for (const error of report.errors) lines.push(`  error: ${error}`);
  return lines;
}

/**
 * One pool's point of the chart at `tMs`: pool size and available from the set's row, pending from the
 * Leases still waiting, and the schedule windows, forecast and warm-hit ratio when the row has them.
 */
export function chartPoint(tMs: number, row: PoolRow, waiting: number): ChartPoint {
  return {
    tMs,
    replicas: row.replicas,
    available: row.available,
    pending: waiting,
    ...(row.windows !== undefined ? { windows: row.windows } : {}),
    ...(row.forecastWarmBuffer !== undefined ? { forecast: row.forecastWarmBuffer } : {}),
    ...(row.warmHitRatio !== undefined ? { warmHit: row.warmHitRatio } : {}),
  };
}

/** The workday profile's planning of a pool, in one line. */
export function planningLine(pool: string, planning: PoolPlanning): string {
  const windows = (planning.schedules ?? []).map(
    (s) =>
      `${s.name} (cron "${s.cron}" ${s.timeZone}, ${s.duration}, minAvailableReplicas ${s.minAvailableReplicas})`,
  );
  const forecast = planning.forecast ? `; forecast ${JSON.stringify(planning.forecast)}` : '';
  return `${pool}: ${windows.length > 0 ? windows.join(', ') : 'no schedule'}${forecast}`;
}

export function chartInput(report: LabReport, settings: RunSettings): ChartInput {
  const last = report.samples.at(-1)?.elapsedMs ?? 0;
  return {
    title: `Lab: ${report.pools.length} pool${report.pools.length === 1 ? '' : 's'}, profile ${settings.profile}`,
    subtitle:
      `seed ${settings.seed}, speed-up ${settings.speedUp}×; wall seconds since the controller started; ` +
      `load from ${(report.warmupMs / 1000).toFixed(1)} s; ${report.summary.leases.served} leases served, ` +
      `wait p95 ${report.summary.waitMs ? formatMs(report.summary.waitMs.p95) : 'n/a'}`,
    durationMs: last,
    markerMs: report.day?.startMs ?? report.warmupMs,
    ...(report.day ? { day: report.day } : {}),
    pools: report.pools.map((pool, index) => ({
      name: pool.name,
      maxReplicas: pool.maxReplicas,
      points: report.samples.map((s) => chartPoint(s.elapsedMs, s.rows[index], s.waiting[pool.name] ?? 0)),
    })),
  };
}
