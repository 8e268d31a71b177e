/**
 * The report of a simulation run: totals over the seeds (operations, faults by kind, controller
 * restarts, convergence times, what the seeds exercised of the raised buffers and of operations on
 * deleting sets) and, for every failing seed, its violations and the command that runs it again alone.
 */
import type { SeedResult } from './run-seed';

export interface RunSummary {
  readonly seeds: number;
  readonly failed: readonly SeedResult[];
  readonly violations: number;
  readonly operations: { readonly applied: number; readonly refused: number };
  readonly faults: Readonly<Record<string, number>>;
  readonly restarts: number;
  /** Seeds by lease-load pattern (flat, daily, weekly). */
  readonly loadPatterns: Readonly<Record<string, number>>;
  /** The most Exporters one set created within a cluster minute, over all seeds. */
  readonly peakCreatesPerMinute: number;
  /** Cluster milliseconds from calm to convergence: median and largest. */
  readonly convergence: { readonly p50Ms: number; readonly maxMs: number };
  readonly wallMs: number;
  /** The largest worker heap after a seed, in MB (0 when no seed reported one). */
  readonly peakHeapMb: number;
  /** Per coverage key (run-seed.ts `coverageOf`): its sum over the seeds, and the seeds where it is above 0. */
  readonly coverage: Readonly<Record<string, { readonly total: number; readonly seeds: number }>>;
  /** Seeds where both overlapping sets showed a window raising their buffer. */
  readonly overlapBothRaisedSeeds: number;
}

export function summarize(results: readonly SeedResult[], wallMs: number): RunSummary {
  const faults: Record<string, number> = {};
  let applied = 0;
  let refused = 0;
  let restarts = 0;
  const loadPatterns: Record<string, number> = {};
  for (const r of results) {
    if (r.loadPattern !== undefined) loadPatterns[r.loadPattern] = (loadPatterns[r.loadPattern] ?? 0) + 1;
    applied += r.operations.applied;
    refused += r.operations.refused;
    restarts += r.restarts;
    for (const [kind, n] of Object.entries(r.faults)) faults[kind] = (faults[kind] ?? 0) + n;
  }
  const times = results
    .map((r) => r.convergedAfterMs)
    .filter((t): t is number => t !== undefined)
    .sort((a, b) => a - b);
  const failed = results.filter((r) => r.violations.length > 0);
  const coverage: Record<string, { total: number; seeds: number }> = {};
  for (const r of results) {
    for (const [key, n] of Object.entries(r.coverage ?? {})) {
      const c = (coverage[key] ??= { total: 0, seeds: 0 });
      c.total += n;
      if (n > 0) c.seeds += 1;
    }
  }
  return {
    seeds: results.length,
    failed,
    violations: failed.reduce((n, r) => n + r.violations.length, 0),
    operations: { applied, refused },
    faults,
    restarts,
    loadPatterns,
    peakCreatesPerMinute: Math.max(0, ...results.map((r) => r.peakCreatesPerMinute ?? 0)),
    convergence: {
      p50Ms: times.length > 0 ? times[Math.floor((times.length - 1) / 2)] : 0,
      maxMs: times.length > 0 ? times[times.length - 1] : 0,
    },
    wallMs,
    peakHeapMb: Math.max(0, ...results.map((r) => r.heapUsedMb ?? 0)),
    coverage,
    overlapBothRaisedSeeds: results.filter((r) => (r.coverage?.overlapRaisedSets ?? 0) >= 2).length,
  };
}

/** The command that runs one seed again with the same options. */
export function reproCommand(seed: number, extraArgs: readonly string[] = []): string {
  return ['npm run simulate --', '--seed', String(seed), ...extraArgs].join(' ');
}

export function formatSummary(summary: RunSummary, extraArgs: readonly string[] = []): string {
  const lines = [
    `seeds: ${summary.seeds}, failing: ${summary.failed.length}, violations: ${summary.violations}`,
    `operations: ${summary.operations.applied} applied, ${summary.operations.refused} refused by the API`,
    `faults: ${
      Object.entries(summary.faults)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([kind, n]) => `${kind} ${n}`)
        .join(', ') || 'none'
    }`,
    `controller restarts: ${summary.restarts}`,
    `lease load: ${
      Object.entries(summary.loadPatterns)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([pattern, n]) => `${pattern} ${n}`)
        .join(', ') || 'not reported'
    }`,
    `most Exporter creates of one set in a cluster minute: ${summary.peakCreatesPerMinute}`,
    `convergence after faults stop (cluster time): p50 ${(summary.convergence.p50Ms / 1000).toFixed(1)} s, max ${(summary.convergence.maxMs / 1000).toFixed(1)} s`,
    `wall time: ${(summary.wallMs / 1000).toFixed(1)} s`,
    `largest worker heap after a seed: ${summary.peakHeapMb} MB`,
    ...coverageLines(summary),
  ];
  for (const r of summary.failed) {
    lines.push('', `seed ${r.seed} FAILED — reproduce with: ${reproCommand(r.seed, extraArgs)}`);
    for (const v of r.violations) lines.push(`  [${v.invariant}] ${v.message}`);
  }
  return lines.join('\n');
}

/** The coverage lines: forecasts, windows on the overlapping sets, operations on deleting sets. */
function coverageLines(summary: RunSummary): string[] {
  const c = (key: string) => summary.coverage[key] ?? { total: 0, seeds: 0 };
  const sets = (key: string) => `${c(key).total} sets in ${c(key).seeds} seeds`;
  return [
    `forecast Apply: ${sets('forecastApplySets')}; the status showed it raising ${sets('forecastAppliedSets')}; a raise by it checked at convergence ${sets('forecastCheckedSets')}`,
    `windows: a raise by one checked at convergence ${sets('windowCheckedSets')}; on both overlapping sets at once in ${c('overlapBothScheduled').seeds} seeds, both raising in ${summary.overlapBothRaisedSeeds}`,
    `operations on deleting sets: ${c('opsPendingAtDelete').total} under way at the delete (${c('opsPendingAtDelete').seeds} seeds), ${c('opsAfterDelete').total} created after it (${c('opsAfterDelete').seeds} seeds)`,
  ];
}
