import { describe, expect, it } from '@jest/globals';
import { median, percentile, summarize } from '../../bench/support/stats';

describe('bench stats', () => {
  it('reports nearest-rank percentiles: every value reported was observed', () => {
    const values = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect(percentile(values, 50)).toBe(5);
    expect(percentile(values, 90)).toBe(9);
    expect(percentile(values, 99)).toBe(10);
    expect(percentile([42], 99)).toBe(42);
    expect(median([3, 1, 2])).toBe(2);
  });

  it('summarizes samples and refuses to summarize none', () => {
    expect(summarize([1, 2, 3, 4])).toEqual({ n: 4, min: 1, p50: 2, p90: 4, p99: 4, max: 4, mean: 2.5 });
    expect(() => percentile([], 50)).toThrow('no samples');
    expect(() => percentile([1], 0)).toThrow('outside');
  });
});
