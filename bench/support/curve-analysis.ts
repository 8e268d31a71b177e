/**
 * What the cost curve's points say: how each cost grows against instances per set (a pass works on
 * one set, so its cost should grow at most linearly with the set's instances) and against the number
 * of sets (which a pass should not feel at all — in namespaces of 10, and with every set in one
 * namespace), the memory as a linear model of instances and sets, and the charts of bench/README.md.
 */
import { isOneNamespace, ONE_NAMESPACE_INSTANCES_PER_SET, type CurvePoint } from './curve-grid';
import { fitLinear, growthExponent, growthOf, type Growth } from './fit';
import type { Chart } from './svg-chart';

/** What one point of the curve measured. */
export interface PointResult extends CurvePoint {
  readonly instances: number;
  /** Rounds of "change every set once". */
  readonly rounds: number;
  /** Reconcile passes run while driven (the controller's own metric). */
  readonly passes: number;
  /** Passes per second of the rounds' wall time (first change sent → last status write of the round). */
  readonly passesPerSecond: number;
  /** The controller's API requests per pass while driven. */
  readonly requestsPerPass: number;
  /** The controller's CPU (user + system) per pass, ms. */
  readonly cpuMsPerPass: number;
  /** Controller RSS once driven, after two full GCs, MiB. */
  readonly rssMiB: number;
  /** V8 heap in use then (live objects), MiB. */
  readonly heapUsedMiB: number;
}

export type Metric = 'passesPerSecond' | 'requestsPerPass' | 'cpuMsPerPass' | 'rssMiB' | 'heapUsedMiB';

export type Layout = 'grid' | 'one namespace';

export interface MemoryFit {
  readonly baseMiB: number;
  readonly perInstanceKB: number;
  readonly perSetKB: number;
  readonly r2: number;
  readonly maxRelativeResidual: number;
}

/** `memory` = base + a·instances + b·sets by least squares; undefined when the points cannot tell. */
export function fitMemory(
  points: readonly PointResult[],
  memory: 'rssMiB' | 'heapUsedMiB',
): MemoryFit | undefined {
  try {
    const fit = fitLinear(points.map((p) => ({ x: [p.instances, p.sets], y: p[memory] })));
    return {
      baseMiB: round(fit.coefficients[0], 1),
      perInstanceKB: round(fit.coefficients[1] * 1024),
      perSetKB: round(fit.coefficients[2] * 1024),
      r2: round(fit.r2, 3),
      maxRelativeResidual: round(fit.maxRelativeResidual, 3),
    };
  } catch {
    return undefined; // too few points (a quick curve) to tell instances from sets
  }
}

export interface GrowthFinding {
  readonly metric: Metric;
  /** Against what the exponent is taken, the other dimension held at `at`. */
  readonly against: 'instancesPerSet' | 'sets';
  readonly at: number;
  /** The grid's namespaces of 10 sets, or every set in one namespace. */
  readonly layout: Layout;
  /** Fitted over the whole series. */
  readonly exponent: number;
  /** The steepest slope between neighbouring points of the series (log-log). */
  readonly steepest: number;
  readonly growth: Growth;
}

export interface CurveAnalysis {
  /** CPU and requests per pass against each dimension, one finding per series. */
  readonly growth: readonly GrowthFinding[];
  /** RSS = base + perInstance·instances + perSet·sets. */
  readonly rss?: MemoryFit;
  /** The same of the V8 heap in use: what is live, without what the process keeps resident after peaks. */
  readonly heap?: MemoryFit;
  /** The worst finding of each kind, for the headline figures. */
  readonly steepestPerInstance?: number;
  readonly steepestPerSet?: number;
  readonly steepestPerSetOneNamespace?: number;
  /**
   * CPU per pass with every set in one namespace over the same in namespaces of 10, at the most sets
   * both were run with: above 1, a pass pays for the size of its namespace.
   */
  readonly oneNamespaceRatio?: { readonly sets: number; readonly ratio: number };
}

/** The points of a layout: the grid's, or the one-namespace series (its 10-set point is the grid's). */
export function pointsOf<P extends PointResult>(points: readonly P[], layout: Layout): P[] {
  return layout === 'grid'
    ? points.filter((p) => !isOneNamespace(p))
    : points.filter(
        (p) => p.setsPerNamespace === p.sets && p.instancesPerSet === ONE_NAMESPACE_INSTANCES_PER_SET,
      );
}

/** Rounded, and never -0 (a fit of nothing prints as 0). */
const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits + 0;

/** The series of `metric` against `against` with the other dimension fixed: only those of ≥ 2 points. */
export function seriesOf(
  points: readonly PointResult[],
  metric: Metric,
  against: 'instancesPerSet' | 'sets',
): { at: number; points: { x: number; y: number }[] }[] {
  const other = against === 'sets' ? 'instancesPerSet' : 'sets';
  const groups = new Map<number, { x: number; y: number }[]>();
  for (const p of points) {
    const list = groups.get(p[other]) ?? [];
    list.push({ x: p[against], y: p[metric] });
    groups.set(p[other], list);
  }
  return [...groups.entries()]
    .filter(([, list]) => new Set(list.map((q) => q.x)).size >= 2)
    .sort(([a], [b]) => a - b)
    .map(([at, list]) => ({ at, points: list.sort((a, b) => a.x - b.x) }));
}

/** The steepest log-log slope between neighbouring points. */
export function steepestSlope(points: readonly { x: number; y: number }[]): number {
  let steepest = -Infinity;
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1], points[i]];
    if (a.x <= 0 || b.x <= 0 || a.y <= 0 || b.y <= 0 || a.x === b.x) continue;
    steepest = Math.max(steepest, Math.log(b.y / a.y) / Math.log(b.x / a.x));
  }
  return steepest;
}

export function analyseCurve(points: readonly PointResult[]): CurveAnalysis {
  const growth: GrowthFinding[] = [];
  const series = [
    ...(['instancesPerSet', 'sets'] as const).map((against) => ({ layout: 'grid' as const, against })),
    { layout: 'one namespace' as const, against: 'sets' as const },
  ];
  for (const metric of ['cpuMsPerPass', 'requestsPerPass'] as const) {
    for (const { layout, against } of series) {
      for (const line of seriesOf(pointsOf(points, layout), metric, against)) {
        if (line.points.some((p) => p.y <= 0)) continue;
        const exponent = growthExponent(line.points);
        growth.push({
          metric,
          against,
          at: line.at,
          layout,
          exponent: round(exponent),
          steepest: round(steepestSlope(line.points)),
          growth: growthOf(exponent),
        });
      }
    }
  }
  const cpu = growth.filter((g) => g.metric === 'cpuMsPerPass');
  const worst = (against: GrowthFinding['against'], layout: Layout) => {
    const found = cpu.filter((g) => g.against === against && g.layout === layout).map((g) => g.steepest);
    return found.length > 0 ? Math.max(...found) : undefined;
  };
  const rss = fitMemory(points, 'rssMiB');
  const heap = fitMemory(points, 'heapUsedMiB');
  const steepestPerInstance = worst('instancesPerSet', 'grid');
  const steepestPerSet = worst('sets', 'grid');
  const steepestPerSetOneNamespace = worst('sets', 'one namespace');
  const oneNamespaceRatio = namespaceRatio(points);
  return {
    growth,
    ...(rss ? { rss } : {}),
    ...(heap ? { heap } : {}),
    ...(steepestPerInstance !== undefined ? { steepestPerInstance } : {}),
    ...(steepestPerSet !== undefined ? { steepestPerSet } : {}),
    ...(steepestPerSetOneNamespace !== undefined ? { steepestPerSetOneNamespace } : {}),
    ...(oneNamespaceRatio ? { oneNamespaceRatio } : {}),
  };
}

function namespaceRatio(points: readonly PointResult[]): CurveAnalysis['oneNamespaceRatio'] {
  const grid = pointsOf(points, 'grid');
  const pairs = pointsOf(points, 'one namespace')
    .filter(isOneNamespace)
    .map((one) => ({
      one,
      grid: grid.find((g) => g.sets === one.sets && g.instancesPerSet === one.instancesPerSet),
    }))
    .filter((pair): pair is { one: PointResult; grid: PointResult } => pair.grid !== undefined)
    .sort((a, b) => b.one.sets - a.one.sets);
  const [largest] = pairs;
  return largest
    ? { sets: largest.one.sets, ratio: round(largest.one.cpuMsPerPass / largest.grid.cpuMsPerPass) }
    : undefined;
}

const METRIC_TITLES: Record<Metric, { title: string; unit: string }> = {
  passesPerSecond: { title: 'Passes per second', unit: 'passes/s' },
  requestsPerPass: { title: 'API requests per pass', unit: 'requests' },
  cpuMsPerPass: { title: 'Controller CPU per pass', unit: 'ms' },
  rssMiB: { title: 'Controller RSS (after GC)', unit: 'MiB' },
  heapUsedMiB: { title: 'V8 heap in use (after GC)', unit: 'MiB' },
};

/**
 * The panels of the curve: each metric against the number of sets, a line per instances per set (10
 * sets a namespace), and a dashed one for the one-namespace series.
 */
export function curveCharts(points: readonly PointResult[]): Chart[] {
  const grid = pointsOf(points, 'grid');
  const oneNamespace = pointsOf(points, 'one namespace');
  const perSet = [...new Set(grid.map((p) => p.instancesPerSet))].sort((a, b) => a - b);
  const metrics = ['passesPerSecond', 'cpuMsPerPass', 'requestsPerPass', 'rssMiB', 'heapUsedMiB'] as const;
  return metrics.map((metric) => ({
    title: METRIC_TITLES[metric].title,
    xLabel: 'sets',
    yLabel: METRIC_TITLES[metric].unit,
    series: [
      ...perSet.map((ips) => ({
        name: `${ips} instance${ips === 1 ? '' : 's'} per set`,
        points: grid.filter((p) => p.instancesPerSet === ips).map((p) => ({ x: p.sets, y: p[metric] })),
      })),
      ...(oneNamespace.length > 1
        ? [
            {
              name: `${ONE_NAMESPACE_INSTANCES_PER_SET} per set, one namespace`,
              dashed: true,
              points: oneNamespace.map((p) => ({ x: p.sets, y: p[metric] })),
            },
          ]
        : []),
    ],
  }));
}
