/**
 * The report of a simulation run: totals over the seeds (operations, faults by kind, controller
 * restarts, convergence times) and, for every failing seed, its violations and the command that runs
 * it again alone.
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
  ];
  for (const r of summary.failed) {
    lines.push('', `seed ${r.seed} FAILED — reproduce with: ${reproCommand(r.seed, extraArgs)}`);
    for (const v of r.violations) lines.push(`  [${v.invariant}] ${v.message}`);
  }
  return lines.join('\n');
}
