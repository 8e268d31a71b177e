/** What every benchmark module exports, and what the runner hands it. */
import type { BenchResult } from './results';

/**
 * The API server the benchmarks run against: `test`, the test cluster in a child process (its store,
 * counters, faults and simulators in process); `kube`, a real kube-apiserver with etcd and
 * kube-controller-manager, the simulators as its clients, requests from its audit log.
 */
export type Backend = 'test' | 'kube';

export interface BenchSettings {
  readonly backend: Backend;
  /** Shorter runs (smaller samples, shorter periods) for a smoke check; figures are then rougher. */
  readonly quick: boolean;
  /** P3's measured idle period (wall seconds). */
  readonly idleSeconds: number;
  /** P2's number of leases measured. */
  readonly reactionIterations: number;
  /** When set, the controller child runs with `--cpu-prof` and writes its profiles here. */
  readonly cpuProfileDir?: string;
}

export interface BenchContext {
  readonly settings: BenchSettings;
  /** Progress lines (stderr), so stdout stays the table. */
  readonly log: (message: string) => void;
}

export interface Benchmark {
  /** `p1` … `p7`: what `npm run bench -- p1 p3` selects. */
  readonly id: string;
  /** The results file name, e.g. `p1-scale-up`. */
  readonly name: string;
  readonly title: string;
  run(context: BenchContext): Promise<BenchResult>;
}

/** Node flags of the controller child for `--cpu-prof`. */
export function profileFlags(settings: BenchSettings, name: string): string[] {
  return settings.cpuProfileDir
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${settings.cpuProfileDir}`,
        `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`,
      ]
    : [];
}
