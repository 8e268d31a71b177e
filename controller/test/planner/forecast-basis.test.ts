/**
 * How the forecast forecasts (issue 28): the basis and share that would have served the last week best,
 * tried hour by hour on what the record held before each hour.
 */
import { describe, expect, it } from '@jest/globals';
import { DEMAND_INTERVAL_MS, type DemandBucket } from '../../src/planner';
import {
  CANDIDATE_SHARES,
  SPECIFIC_BASIS_SAVING,
  chooseMethod,
  tryBases,
  type BasisTrial,
} from '../../src/planner/demand/forecast-basis';
import { gridOf } from '../../src/planner/demand/forecast-samples';

const trial = (
  basis: BasisTrial['basis'],
  share: number,
  served: number,
  bufferHours: number,
): BasisTrial => ({
  basis,
  share,
  arrivals: 100,
  served,
  bufferHours,
});

describe('choosing the forecast method', () => {
  it('takes the cheapest basis and share that served the goal', () => {
    const trials = [
      trial('weekly', 0.95, 94, 300),
      trial('weekly', 0.96, 96, 400),
      trial('daily', 0.95, 95, 600),
      trial('level', 0.95, 97, 800),
    ];
    expect(chooseMethod(trials, 0.95)).toEqual({ basis: 'weekly', share: 0.96 });
  });

  it('believes a more specific basis only when it saves a tenth of the buffer', () => {
    const close = (1 - SPECIFIC_BASIS_SAVING / 2) * 800;
    expect(chooseMethod([trial('weekly', 0.95, 96, close), trial('level', 0.95, 96, 800)], 0.95)).toEqual({
      basis: 'level',
      share: 0.95,
    });
    const clear = (1 - 2 * SPECIFIC_BASIS_SAVING) * 800;
    expect(chooseMethod([trial('weekly', 0.95, 96, clear), trial('level', 0.95, 96, 800)], 0.95).basis).toBe(
      'weekly',
    );
  });

  it('when nothing served the goal, takes what served the most', () => {
    const trials = [
      trial('weekly', 0.95, 80, 100),
      trial('daily', 0.99, 90, 500),
      trial('level', 1, 85, 900),
    ];
    expect(chooseMethod(trials, 0.95)).toEqual({ basis: 'daily', share: 0.99 });
  });

  it('tries every basis at the goal and above, hours without samples falling to the next basis', () => {
    // Two days, the same every day: 10 arrivals at 10:00, alone in their window.
    const buckets: DemandBucket[] = Array.from({ length: 48 }, (_, i) =>
      i % 24 === 10 ? { arrivals: 10, peak: 1, crowding: [10] } : { arrivals: 0, peak: 0, crowding: [] },
    );
    const start = Date.UTC(2026, 0, 5);
    const grid = gridOf({ intervalMs: DEMAND_INTERVAL_MS, start, buckets }, start + 48 * DEMAND_INTERVAL_MS)!;
    const trials = tryBases(grid, 0.95);
    expect(trials).toHaveLength(3 * CANDIDATE_SHARES.length);
    const at95 = (basis: string) => trials.find((t) => t.basis === basis && t.share === 0.95)!;
    // The first 10:00 has nothing before it: not tried. The second is, by each basis. Daily has no
    // sample for the first day's later hours: they fall to the level (1), then the second day has 1 at
    // 10:00 only.
    expect(at95('daily')).toMatchObject({ arrivals: 10, served: 10, bufferHours: 13 + 1 });
    // Weekly has no samples in two days: it falls to daily, hour by hour.
    expect(at95('weekly')).toMatchObject({ arrivals: 10, served: 10, bufferHours: 13 + 1 });
    // One level for every hour after the first arrival: 13 + 24 hours at 1.
    expect(at95('level')).toMatchObject({ arrivals: 10, served: 10, bufferHours: 13 + 24 });
    expect(chooseMethod(trials, 0.95)).toEqual({ basis: 'daily', share: 0.95 });
    expect(trials.every((t) => t.share >= 0.95)).toBe(true);
  });
});
