/**
 * A short seeded subset of the randomized simulation (the full run is `npm run simulate`): each seed's
 * lab runs with its faults, operations and controller restarts, and must keep every invariant and
 * converge once the faults stop.
 */
import { describe, expect, it } from '@jest/globals';
import { runSeed } from '../../src/simulation/run-seed';
import { formatSummary, summarize } from '../../src/simulation/summary';

const SEEDS = [3, 11, 29];

describe('simulation › seeded runs', () => {
  it.each(SEEDS)('seed %i keeps the invariants and converges', async (seed) => {
    const result = await runSeed(seed, { chaosMs: 30_000 });
    expect(formatSummary(summarize([result], result.wallMs))).not.toContain('FAILED');
    expect(result.violations).toEqual([]);
    expect(result.convergedAfterMs).toBeDefined();
    expect(result.operations.applied).toBeGreaterThan(0);
  });
});
