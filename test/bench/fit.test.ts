import { describe, expect, it } from '@jest/globals';
import { fitLinear, growthExponent, growthOf } from '../../bench/support/fit';

describe('bench fit › linear least squares', () => {
  it('recovers the coefficients of points on a plane exactly', () => {
    const rows = [
      [10, 10],
      [100, 10],
      [1000, 100],
      [100, 100],
      [10000, 1000],
    ].map(([instances, sets]) => ({ x: [instances, sets], y: 90 + 0.02 * instances + 0.5 * sets }));
    const fit = fitLinear(rows);
    expect(fit.coefficients[0]).toBeCloseTo(90, 6);
    expect(fit.coefficients[1]).toBeCloseTo(0.02, 9);
    expect(fit.coefficients[2]).toBeCloseTo(0.5, 9);
    expect(fit.r2).toBeCloseTo(1, 9);
    expect(fit.maxRelativeResidual).toBeLessThan(1e-9);
  });

  it('reports how far noisy points are from the line', () => {
    const fit = fitLinear([
      { x: [1], y: 1 },
      { x: [2], y: 3 },
      { x: [3], y: 2 },
    ]);
    expect(fit.coefficients).toEqual([expect.closeTo(1, 9), expect.closeTo(0.5, 9)]);
    expect(fit.r2).toBeCloseTo(0.25, 9);
    expect(fit.maxRelativeResidual).toBeCloseTo(0.5, 9); // the first point: |1 − 1.5| / 1
  });

  it('refuses points that cannot determine the coefficients', () => {
    expect(() => fitLinear([{ x: [1, 2], y: 3 }])).toThrow('needs at least 3 points; got 1');
    const together = [1, 2, 3, 4].map((v) => ({ x: [v, 2 * v], y: v }));
    expect(() => fitLinear(together)).toThrow('cannot tell the coefficients apart');
  });
});

describe('bench fit › growth exponent', () => {
  it('is the power of a power law, whatever its factor', () => {
    const at = (k: number) => [1, 10, 100].map((x) => ({ x, y: 7 * x ** k }));
    expect(growthExponent(at(1))).toBeCloseTo(1, 9);
    expect(growthExponent(at(2))).toBeCloseTo(2, 9);
    expect(growthExponent(at(0))).toBeCloseTo(0, 9);
  });

  it('needs two sizes', () => {
    expect(() => growthExponent([{ x: 10, y: 1 }])).toThrow('at two different sizes');
  });

  it('puts exponents in words, with a tolerance for noise', () => {
    expect(growthOf(-0.5)).toBe('falling');
    expect(growthOf(0.1)).toBe('flat');
    expect(growthOf(0.5)).toBe('sub-linear');
    expect(growthOf(0.9)).toBe('linear');
    expect(growthOf(1.1)).toBe('linear');
    expect(growthOf(1.3)).toBe('super-linear');
  });
});
