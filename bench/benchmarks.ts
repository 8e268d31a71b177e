/**
 * The benchmarks of issue 6 (and issue 17's P7, issue 28's P8), in run order. Modules load lazily: they import the built packages, which
 * the runner may have to build first.
 */
import type { Benchmark } from './support/benchmark';
import type { BenchmarkChoice } from './support/cli';

export interface BenchmarkEntry extends BenchmarkChoice {
  load(): Promise<Benchmark>;
}

const NO_CLUSTER = 'it uses no cluster, so its figures do not depend on the backend';

export const BENCHMARKS: readonly BenchmarkEntry[] = [
  { id: 'p1', name: 'p1-scale-up', load: async () => (await import('./p1-scale-up')).p1 },
  { id: 'p2', name: 'p2-reaction', load: async () => (await import('./p2-reaction')).p2 },
  { id: 'p3', name: 'p3-idle', load: async () => (await import('./p3-idle')).p3 },
  { id: 'p4', name: 'p4-memory', load: async () => (await import('./p4-memory')).p4 },
  { id: 'p5', name: 'p5-synth', notOnKube: NO_CLUSTER, load: async () => (await import('./p5-synth')).p5 },
  { id: 'p6', name: 'p6-drain', load: async () => (await import('./p6-drain')).p6 },
  {
    id: 'p7',
    name: 'p7-forecast-trace',
    notOnKube: NO_CLUSTER,
    load: async () => (await import('./p7-forecast-trace')).p7,
  },
  { id: 'p8', name: 'p8-cold-start', load: async () => (await import('./p8-cold-start')).p8 },
];
