/**
 * The simulation report: totals over seeds, and a reproduction command for each failing seed.
 */
import { describe, expect, it } from '@jest/globals';
import type { SeedResult } from '../../src/simulation/run-seed';
import { formatSummary, reproCommand, summarize } from '../../src/simulation/summary';

const result = (seed: number, overrides: Partial<SeedResult> = {}): SeedResult => ({
  seed,
  violations: [],
  operations: { applied: 10, refused: 1 },
  faults: { error409: 2, dropWatch: 1 },
  restarts: 1,
  convergedAfterMs: seed * 1000,
  wallMs: 100,
  ...overrides,
});

describe('simulation › summary', () => {
  it('adds up operations, faults, restarts and convergence times', () => {
    const summary = summarize([result(1), result(2), result(3)], 5000);
    expect(summary).toMatchObject({
      seeds: 3,
      violations: 0,
      operations: { applied: 30, refused: 3 },
      faults: { error409: 6, dropWatch: 3 },
      restarts: 3,
      convergence: { p50Ms: 2000, maxMs: 3000 },
    });
    expect(formatSummary(summary)).toContain('seeds: 3, failing: 0, violations: 0');
  });

  it('reports the largest worker heap after a seed, where a leak across seeds shows', () => {
    const summary = summarize(
      [result(1, { heapUsedMb: 50 }), result(2, { heapUsedMb: 2700 }), result(3)],
      10,
    );
    expect(summary.peakHeapMb).toBe(2700);
    expect(formatSummary(summary)).toContain('largest worker heap after a seed: 2700 MB');
  });

  it('counts what the seeds exercised of raised buffers and of operations on deleting sets', () => {
    const covered = (coverage: Record<string, number>) => ({ coverage });
    const summary = summarize(
      [
        result(1, covered({ forecastApplySets: 2, forecastAppliedSets: 1, forecastCheckedSets: 1 })),
        result(2, covered({ overlapBothScheduled: 1, overlapRaisedSets: 2, windowCheckedSets: 1 })),
        result(
          3,
          covered({
            overlapBothScheduled: 1,
            overlapRaisedSets: 1,
            opsPendingAtDelete: 2,
            opsAfterDelete: 1,
          }),
        ),
      ],
      10,
    );
    const text = formatSummary(summary);
    expect(text).toContain(
      'forecast Apply: 2 sets in 1 seeds; the status showed it raising 1 sets in 1 seeds; a raise by it checked at convergence 1 sets in 1 seeds',
    );
    expect(text).toContain(
      'windows: a raise by one checked at convergence 1 sets in 1 seeds; on both overlapping sets at once in 2 seeds, both raising in 1',
    );
    expect(text).toContain(
      'operations on deleting sets: 2 under way at the delete (1 seeds), 1 created after it (1 seeds)',
    );
  });

  it('prints each failing seed with its violations and the command to run it alone', () => {
    const failing = result(7, {
      violations: [
        { invariant: 'leased-deleted', at: 0, message: 'Exporter pool-1 deleted while Lease l holds it' },
      ],
    });
    const text = formatSummary(summarize([result(1), failing], 10), ['--speed-up', '20']);
    expect(text).toContain('seed 7 FAILED — reproduce with: npm run simulate -- --seed 7 --speed-up 20');
    expect(text).toContain('[leased-deleted] Exporter pool-1 deleted while Lease l holds it');
    expect(reproCommand(3)).toBe('npm run simulate -- --seed 3');
  });
});
