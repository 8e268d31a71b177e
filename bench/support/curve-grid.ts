/**
 * The points of the cost curve (`npm run bench -- --curve`): number of sets × instances per set, the
 * ones this machine can run and the ones left out with why, each point's pool layout and how much work
 * it is driven with.
 *
 * The grid lays sets out 10 a namespace, as the other benchmarks do. A pass reads its set's namespace
 * from the caches, so a cost that grows with the namespace would stay hidden there; the series "one
 * namespace" (10 instances a set, all sets in one namespace) shows it.
 */
import type { PoolLayout } from './seed';

export const CURVE_SETS = [10, 100, 1000] as const;
export const CURVE_INSTANCES_PER_SET = [1, 10, 100] as const;
export const QUICK_SETS = [10, 100] as const;
export const QUICK_INSTANCES_PER_SET = [1, 10] as const;

/**
 * The most instances one point seeds. P4 and P8 run 10,000 on this 2-core machine; 1,000 × 100 would
 * be 100,000 — about 1.8 GB of controller memory at P4's 18 KB each, and minutes of seeding alone.
 */
export const MAX_INSTANCES = 10_000;

const SETS_PER_NAMESPACE = 10;

/** Whether a point puts all its sets in one namespace (beyond the grid's 10). */
export const isOneNamespace = (point: CurvePoint): boolean =>
  point.setsPerNamespace === point.sets && point.sets > SETS_PER_NAMESPACE;

export interface CurvePoint {
  readonly sets: number;
  readonly instancesPerSet: number;
  /** How many sets share a namespace. */
  readonly setsPerNamespace: number;
}

/** The instances per set of the one-namespace series. */
export const ONE_NAMESPACE_INSTANCES_PER_SET = 10;

export interface SkippedPoint extends CurvePoint {
  readonly why: string;
}

export const instancesOf = (point: Pick<CurvePoint, 'sets' | 'instancesPerSet'>): number =>
  point.sets * point.instancesPerSet;

/** The grid (quick: the smaller one), split into the points to run and the ones left out. */
export function curveGrid(quick: boolean): { points: CurvePoint[]; skipped: SkippedPoint[] } {
  const points: CurvePoint[] = [];
  const skipped: SkippedPoint[] = [];
  for (const sets of quick ? QUICK_SETS : CURVE_SETS) {
    for (const instancesPerSet of quick ? QUICK_INSTANCES_PER_SET : CURVE_INSTANCES_PER_SET) {
      const point = { sets, instancesPerSet, setsPerNamespace: Math.min(SETS_PER_NAMESPACE, sets) };
      const instances = instancesOf(point);
      if (instances > MAX_INSTANCES) {
        skipped.push({
          ...point,
          why: `${instances.toLocaleString('en')} instances, over the ${MAX_INSTANCES.toLocaleString('en')} this 2-core machine runs within the curve's time (seeding alone would take minutes, the controller ≈ ${Math.round(((instances * 18) / 1024 / 1024) * 10) / 10} GiB at P4's 18 KB an instance)`,
        });
      } else points.push(point);
    }
  }
  for (const sets of quick ? QUICK_SETS : CURVE_SETS) {
    if (sets > SETS_PER_NAMESPACE)
      points.push({ sets, instancesPerSet: ONE_NAMESPACE_INSTANCES_PER_SET, setsPerNamespace: sets });
  }
  return { points, skipped };
}

export const curveNamespace = (index: number): string => `curve-${String(index).padStart(3, '0')}`;

/** The seeded pools of a point: its sets so many a namespace, each set's warm buffer all its instances. */
export function curveLayout(point: CurvePoint): PoolLayout {
  const { setsPerNamespace } = point;
  const namespaces = Math.ceil(point.sets / setsPerNamespace);
  if (namespaces * setsPerNamespace !== point.sets) {
    throw new Error(`a curve point's sets must fill namespaces of ${setsPerNamespace}; got ${point.sets}`);
  }
  return {
    namespaces: Array.from({ length: namespaces }, (_, i) => curveNamespace(i)),
    setsPerNamespace,
    instancesPerSet: point.instancesPerSet,
    setSpec: {
      minReplicas: 0,
      minAvailableReplicas: point.instancesPerSet,
      maxReplicas: 2 * point.instancesPerSet,
    },
  };
}

/**
 * Rounds of "change every set once" a point is driven with: until it has run `minChanges` changes or
 * changed `minInstanceChanges` instances (a changed set's pass works on each of its instances), which
 * comes first — so small points run many short rounds that add up to a time worth measuring, and
 * large ones no more work than the curve's time allows — but at least `minRounds`.
 */
export function roundsOf(
  point: Pick<CurvePoint, 'sets' | 'instancesPerSet'>,
  options: { minChanges: number; minInstanceChanges: number; minRounds: number },
): number {
  const byChanges = Math.ceil(options.minChanges / point.sets);
  const byInstances = Math.ceil(options.minInstanceChanges / instancesOf(point));
  return Math.max(options.minRounds, Math.min(byChanges, byInstances));
}
