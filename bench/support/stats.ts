/** Summaries of measured samples (nearest-rank percentiles: every reported value was observed). */

export interface Summary {
  readonly n: number;
  readonly min: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
  readonly mean: number;
}

/** The nearest-rank `p`-th percentile (0 < p ≤ 100) of `values`. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('a percentile of no samples is undefined');
  if (!(p > 0 && p <= 100)) throw new Error(`percentile ${p} is outside (0, 100]`);
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1];
}

export function summarize(values: readonly number[]): Summary {
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    n: values.length,
    min: round(Math.min(...values)),
    p50: round(percentile(values, 50)),
    p90: round(percentile(values, 90)),
    p99: round(percentile(values, 99)),
    max: round(Math.max(...values)),
    mean: round(values.reduce((a, b) => a + b, 0) / values.length),
  };
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}
