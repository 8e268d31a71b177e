import { describe, expect, it } from '@jest/globals';
import { analyseCurve, curveCharts, type PointResult } from '../../bench/support/curve-analysis';
import { curveGrid, curveLayout, roundsOf } from '../../bench/support/curve-grid';

/**
 * Points of a controller whose pass costs instancesPerSet^power (times 1 + setFactor·sets, plus
 * namespaceFactor per other instance of its namespace) and whose RSS is linear.
 */
function points(power: number, setFactor = 0, namespaceFactor = 0): PointResult[] {
  return curveGrid(false).points.map((p) => {
    const instances = p.sets * p.instancesPerSet;
    const cpuMsPerPass =
      0.01 * p.instancesPerSet ** power * (1 + setFactor * p.sets) +
      namespaceFactor * p.setsPerNamespace * p.instancesPerSet;
    return {
      ...p,
      instances,
      rounds: 3,
      passes: 2 * p.sets * 3,
      passesPerSecond: 1000 / cpuMsPerPass,
      requestsPerPass: 0.5,
      cpuMsPerPass,
      rssMiB: 100 + (instances * 18) / 1024 + (p.sets * 2) / 1024,
      heapUsedMiB: 40 + (instances * 7) / 1024,
    };
  });
}

describe('bench curve › grid', () => {
  it('runs every point up to 10,000 instances and says why 1,000 × 100 is left out', () => {
    const { points: run, skipped } = curveGrid(false);
    expect(run.map((p) => `${p.sets}×${p.instancesPerSet}/${p.setsPerNamespace}`)).toEqual([
      '10×1/10',
      '10×10/10',
      '10×100/10',
      '100×1/10',
      '100×10/10',
      '100×100/10',
      '1000×1/10',
      '1000×10/10',
      '100×10/100', // one namespace
      '1000×10/1000',
    ]);
    expect(skipped).toEqual([
      {
        sets: 1000,
        instancesPerSet: 100,
        setsPerNamespace: 10,
        why: expect.stringContaining('100,000 instances'),
      },
    ]);
    expect(curveGrid(true).points.map((p) => `${p.sets}×${p.instancesPerSet}/${p.setsPerNamespace}`)).toEqual(
      ['10×1/10', '10×10/10', '100×1/10', '100×10/10', '100×10/100'],
    );
    expect(curveGrid(true).skipped).toEqual([]);
  });

  it('lays sets out 10 a namespace, the warm buffer all of each set', () => {
    const layout = curveLayout({ sets: 100, instancesPerSet: 10, setsPerNamespace: 10 });
    expect(layout.namespaces).toHaveLength(10);
    expect(layout.namespaces[9]).toBe('curve-009');
    expect(layout).toMatchObject({
      setsPerNamespace: 10,
      instancesPerSet: 10,
      setSpec: { minReplicas: 0, minAvailableReplicas: 10, maxReplicas: 20 },
    });
    expect(curveLayout({ sets: 10, instancesPerSet: 1, setsPerNamespace: 10 }).namespaces).toEqual([
      'curve-000',
    ]);
    expect(curveLayout({ sets: 1000, instancesPerSet: 10, setsPerNamespace: 1000 })).toMatchObject({
      namespaces: ['curve-000'],
      setsPerNamespace: 1000,
    });
    expect(() => curveLayout({ sets: 15, instancesPerSet: 1, setsPerNamespace: 10 })).toThrow(
      'fill namespaces of 10',
    );
  });

  it('drives each point until enough changes or enough changed instances, at least twice', () => {
    const rounds = (sets: number, instancesPerSet: number) =>
      roundsOf({ sets, instancesPerSet }, { minChanges: 1000, minInstanceChanges: 10_000, minRounds: 2 });
    expect(rounds(10, 1)).toBe(100); // 1,000 changes
    expect(rounds(10, 100)).toBe(10); // 10,000 instances changed
    expect(rounds(100, 10)).toBe(10);
    expect(rounds(1000, 10)).toBe(2); // at least twice
  });
});

describe('bench curve › analysis', () => {
  it('finds linear growth in instances per set and none in sets', () => {
    const analysis = analyseCurve(points(1));
    expect(analysis.steepestPerInstance).toBeCloseTo(1, 2);
    expect(analysis.steepestPerSet).toBeCloseTo(0, 2);
    expect(
      analysis.growth
        .filter((g) => g.metric === 'cpuMsPerPass')
        .map((g) => `${g.layout} ${g.against} ${g.growth}`),
    ).toEqual([
      'grid instancesPerSet linear',
      'grid instancesPerSet linear',
      'grid instancesPerSet linear',
      'grid sets flat',
      'grid sets flat',
      'grid sets flat',
      'one namespace sets flat',
    ]);
    expect(analysis.steepestPerSetOneNamespace).toBeCloseTo(0, 2);
    expect(analysis.rss).toMatchObject({ baseMiB: 100, perInstanceKB: 18, perSetKB: 2, r2: 1 });
    expect(analysis.heap).toMatchObject({ baseMiB: 40, perInstanceKB: 7, perSetKB: 0, r2: 1 });
  });

  it('names a pass whose cost grows with the square of the instances, or with the number of sets', () => {
    const square = analyseCurve(points(2));
    expect(square.steepestPerInstance).toBeCloseTo(2, 2);
    expect(square.growth.some((g) => g.against === 'instancesPerSet' && g.growth === 'super-linear')).toBe(
      true,
    );
    const perSet = analyseCurve(points(1, 0.01));
    expect(perSet.steepestPerSet).toBeGreaterThan(0.5);
    expect(perSet.growth.some((g) => g.against === 'sets' && g.growth !== 'flat')).toBe(true);
  });

  it('tells a pass that reads its whole namespace only from the one-namespace series', () => {
    const scan = analyseCurve(points(1, 0, 0.01));
    expect(scan.steepestPerSet).toBeCloseTo(0, 2); // namespaces of 10 hide it
    expect(scan.steepestPerSetOneNamespace).toBeGreaterThan(0.9);
    expect(scan.oneNamespaceRatio?.sets).toBe(1000);
    expect(scan.oneNamespaceRatio?.ratio).toBeGreaterThan(10);
    expect(analyseCurve(points(1)).oneNamespaceRatio).toEqual({ sets: 1000, ratio: 1 });
    expect(scan.growth.find((g) => g.layout === 'one namespace' && g.metric === 'cpuMsPerPass')?.growth).toBe(
      'linear',
    );
  });

  it('charts each metric against sets, a line per instances per set', () => {
    const charts = curveCharts(points(1));
    expect(charts.map((c) => c.title)).toEqual([
      'Passes per second',
      'Controller CPU per pass',
      'API requests per pass',
      'Controller RSS (after GC)',
      'V8 heap in use (after GC)',
    ]);
    expect(charts[1].series.map((s) => [s.name, s.points.length, s.dashed ?? false])).toEqual([
      ['1 instance per set', 3, false],
      ['10 instances per set', 3, false],
      ['100 instances per set', 2, false],
      ['10 per set, one namespace', 3, true],
    ]);
  });
});
