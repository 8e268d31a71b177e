/**
 * The command line of `npm run bench`: benchmark ids (`p1 … p7`, or their names) to run — all when
 * none — and the settings. Errors are sentences that say what to type instead.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import type { Backend, BenchSettings } from './benchmark';

/** What the command line needs to know of a benchmark. */
export interface BenchmarkChoice {
  readonly id: string;
  readonly name: string;
  /** Why it cannot run against the real API server (`--backend kube`); absent: it can. */
  readonly notOnKube?: string;
}

export interface CommandLine {
  readonly selected: readonly string[];
  /** Benchmarks left out because the backend cannot run them (none were named), with why. */
  readonly skipped: readonly { readonly id: string; readonly why: string }[];
  readonly settings: BenchSettings;
  readonly resultsDir: string;
  readonly build: boolean;
  readonly help: boolean;
  /** Print the recorded results as a Markdown table instead of running anything. */
  readonly report: boolean;
  /** Run the cost curve (bench/curve.ts) instead of the benchmarks. */
  readonly curve: boolean;
}

export const USAGE = `usage: npm run bench -- [p1 … p8] [options]
       npm run bench -- --curve [--quick] [options]

  p1 … p8             benchmarks to run (default: all); names like scale-up work too
  --curve             the cost curve instead: passes/s, requests, CPU and RSS against 10, 100 and
                      1,000 sets of 1, 10 and 100 instances (up to 10,000 instances), ≈ 8 min;
                      writes curve.json and curve.svg to the results dir
  --quick             smaller samples and shorter periods (a smoke run; figures are rougher);
                      with --curve: 10 and 100 sets of 1 and 10 instances
  --idle-seconds <n>  P3's measured idle period (default 60, quick 10)
  --iterations <n>    P2's number of leases measured (default 200, quick 30)
  --cpu-prof [dir]    run the controller with --cpu-prof, profiles into dir (default: a temp dir)
  --backend <name>    test (default): the in-process test cluster; kube: a real kube-apiserver, etcd
                      and kube-controller-manager (kube/bin, or VIRTUAL_EXPORTERS_KUBE_BIN) with the
                      simulators as its clients; runs p1 … p4 and p6, results as <name>.kube.json
  --results-dir <dir> where <name>.json goes (default bench/results)
  --no-build          do not run npm run build when out/ is missing or stale
  --report            print the recorded results (the results dir) as a Markdown table; runs nothing
`;

export class UsageError extends Error {}

export function parseCommandLine(
  argv: readonly string[],
  benchmarks: readonly BenchmarkChoice[],
  root: string,
): CommandLine {
  const selected: string[] = [];
  let quick = false;
  let idleSeconds: number | undefined;
  let iterations: number | undefined;
  let cpuProfileDir: string | undefined;
  let resultsDir = path.join(root, 'bench', 'results');
  let build = true;
  let help = false;
  let report = false;
  let curve = false;
  let backend: Backend = 'test';
  const number = (flag: string, value: string | undefined): number => {
    const n = Number(value);
    if (value === undefined || !Number.isInteger(n) || n <= 0) {
      throw new UsageError(
        `${flag} needs a positive whole number, e.g. ${flag} 30; got ${value ?? 'nothing'}`,
      );
    }
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') quick = true;
    else if (arg === '--help' || arg === '-h') help = true;
    else if (arg === '--no-build') build = false;
    else if (arg === '--report') report = true;
    else if (arg === '--curve') curve = true;
    else if (arg === '--idle-seconds') idleSeconds = number(arg, argv[++i]);
    else if (arg === '--iterations') iterations = number(arg, argv[++i]);
    else if (arg === '--results-dir') resultsDir = path.resolve(argv[++i] ?? resultsDir);
    else if (arg === '--backend' || arg.startsWith('--backend=')) {
      const value = arg === '--backend' ? argv[++i] : arg.slice('--backend='.length);
      if (value !== 'test' && value !== 'kube') {
        throw new UsageError(
          `--backend takes test (the test cluster, the default) or kube (a real kube-apiserver); got ${value ?? 'nothing'}`,
        );
      }
      backend = value;
    } else if (arg === '--cpu-prof') {
      const next = argv[i + 1];
      cpuProfileDir =
        next !== undefined && !next.startsWith('-') && !isBenchmark(next, benchmarks)
          ? path.resolve(argv[++i])
          : path.join(os.tmpdir(), 'virtual-exporters-bench-profiles');
    } else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}\n\n${USAGE}`);
    else {
      const found = benchmarks.find((b) => isBenchmark(arg, [b]));
      if (!found) {
        throw new UsageError(
          `unknown benchmark ${arg}: choose from ${benchmarks.map((b) => `${b.id} (${b.name})`).join(', ')}`,
        );
      }
      if (!selected.includes(found.id)) selected.push(found.id);
    }
  }
  if (curve && selected.length > 0) {
    throw new UsageError(
      `--curve runs the cost curve only; run ${selected.join(' ')} without it, or --curve without benchmark ids`,
    );
  }
  const runnable = (b: BenchmarkChoice) => backend !== 'kube' || b.notOnKube === undefined;
  if (backend === 'kube') {
    const refused = benchmarks.filter((b) => selected.includes(b.id) && !runnable(b));
    if (refused.length > 0) {
      throw new UsageError(
        refused.map((b) => `${b.id} (${b.name}) cannot run with --backend kube: ${b.notOnKube}`).join('\n') +
          `\nrun ${refused.length > 1 ? 'them' : 'it'} without --backend kube (on the test cluster); with kube choose from ${benchmarks
            .filter(runnable)
            .map((b) => b.id)
            .join(', ')}`,
      );
    }
  }
  return {
    selected:
      selected.length > 0
        ? benchmarks.filter((b) => selected.includes(b.id)).map((b) => b.id)
        : benchmarks.filter(runnable).map((b) => b.id),
    skipped:
      selected.length > 0
        ? []
        : benchmarks.filter((b) => !runnable(b)).map((b) => ({ id: b.id, why: b.notOnKube ?? '' })),
    settings: {
      backend,
      quick,
      idleSeconds: idleSeconds ?? (quick ? 10 : 60),
      reactionIterations: iterations ?? (quick ? 30 : 200),
      ...(cpuProfileDir !== undefined ? { cpuProfileDir } : {}),
    },
    resultsDir,
    build,
    help,
    report,
    curve,
  };
}

function isBenchmark(arg: string, benchmarks: readonly BenchmarkChoice[]): boolean {
  const a = arg.toLowerCase();
  return benchmarks.some((b) => a === b.id || a === b.name || a === b.name.replace(/^p\d-/, ''));
}
