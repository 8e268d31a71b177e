/**
 * How a cost grows with scale, for the cost curve (`npm run bench -- --curve`): a least-squares fit of a
 * linear model with several regressors (y = a + b₁x₁ + b₂x₂ …), and the growth exponent k of y ∝ xᵏ
 * (the slope on log-log axes). A cost that grows linearly with what it works on has k ≈ 1 against that,
 * and k ≈ 0 against what it should not depend on; k well above 1 is super-linear.
 */

export interface LinearFit {
  /** [a, b₁, b₂, …]: the intercept first. */
  readonly coefficients: readonly number[];
  /** 1 − SS_res / SS_tot: the share of the variation the model explains (1 when y is constant and fitted). */
  readonly r2: number;
  /** The largest |residual| / |y| over the points: how far the worst point is from the line. */
  readonly maxRelativeResidual: number;
}

/**
 * Least squares of y = a + Σ bᵢ·xᵢ over `rows` (each row its regressors and y), through the normal
 * equations. Throws when the rows cannot determine the coefficients (fewer rows than unknowns, or
 * regressors that move together).
 */
export function fitLinear(rows: readonly { readonly x: readonly number[]; readonly y: number }[]): LinearFit {
  const width = (rows[0]?.x.length ?? 0) + 1;
  if (rows.length < width) {
    throw new Error(
      `a linear fit of ${width} coefficients needs at least ${width} points; got ${rows.length}`,
    );
  }
  const design = rows.map((row) => {
    if (row.x.length !== width - 1) throw new Error('every point of a linear fit needs the same regressors');
    return [1, ...row.x];
  });
  // Normal equations (XᵀX) β = Xᵀy, solved by Gaussian elimination with partial pivoting.
  const m = Array.from({ length: width }, (_, i) =>
    Array.from({ length: width + 1 }, (_, j) =>
      j < width
        ? design.reduce((sum, d) => sum + d[i] * d[j], 0)
        : design.reduce((sum, d, k) => sum + d[i] * rows[k].y, 0),
    ),
  );
  for (let col = 0; col < width; col++) {
    let pivot = col;
    for (let r = col + 1; r < width; r++) if (Math.abs(m[r][col]) > Math.abs(m[pivot][col])) pivot = r;
    const scale = Math.max(...m.map((row) => Math.abs(row[col])), 1e-300);
    if (Math.abs(m[pivot][col]) / scale < 1e-12) {
      throw new Error(
        'the points cannot tell the coefficients apart (a regressor is constant or follows another)',
      );
    }
    [m[col], m[pivot]] = [m[pivot], m[col]];
    for (let r = 0; r < width; r++) {
      if (r === col) continue;
      const factor = m[r][col] / m[col][col];
      for (let j = col; j <= width; j++) m[r][j] -= factor * m[col][j];
    }
  }
  const coefficients = m.map((row, i) => row[width] / row[i]);
  const predicted = design.map((d) => d.reduce((sum, v, i) => sum + v * coefficients[i], 0));
  const mean = rows.reduce((sum, r) => sum + r.y, 0) / rows.length;
  const ssTot = rows.reduce((sum, r) => sum + (r.y - mean) ** 2, 0);
  const ssRes = rows.reduce((sum, r, i) => sum + (r.y - predicted[i]) ** 2, 0);
  const maxRelativeResidual = Math.max(
    ...rows.map((r, i) =>
      r.y === 0 ? Math.abs(predicted[i]) : Math.abs(r.y - predicted[i]) / Math.abs(r.y),
    ),
  );
  return { coefficients, r2: ssTot === 0 ? 1 : 1 - ssRes / ssTot, maxRelativeResidual };
}

/**
 * The exponent k of y ∝ xᵏ through the points (least squares on log x, log y). Needs two distinct
 * positive x and positive y.
 */
export function growthExponent(points: readonly { readonly x: number; readonly y: number }[]): number {
  const usable = points.filter((p) => p.x > 0 && p.y > 0);
  if (new Set(usable.map((p) => p.x)).size < 2) {
    throw new Error('a growth exponent needs points at two different sizes, with positive values');
  }
  const fit = fitLinear(usable.map((p) => ({ x: [Math.log(p.x)], y: Math.log(p.y) })));
  return fit.coefficients[1];
}

export type Growth = 'falling' | 'flat' | 'sub-linear' | 'linear' | 'super-linear';

/**
 * A growth exponent in words: falling (below −`tolerance`: a fixed cost spread over more), flat
 * (|k| ≤ `tolerance`), sub-linear (between flat and linear), linear (within `tolerance` of 1) or
 * super-linear (above 1 + `tolerance`).
 */
export function growthOf(exponent: number, tolerance = 0.15): Growth {
  if (exponent < -tolerance) return 'falling';
  if (Math.abs(exponent) <= tolerance) return 'flat';
  if (exponent > 1 + tolerance) return 'super-linear';
  if (exponent >= 1 - tolerance) return 'linear';
  return 'sub-linear';
}
