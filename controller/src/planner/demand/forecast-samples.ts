/**
 * Which recorded hours an hour to come is forecast from — its samples — under each basis of the
 * forecast (forecast.ts), on the demand history's grid (model/demand-history.ts):
 * - `weekly`: the same hour of the same weekday one and two weeks before (CI demand repeats by the
 *   week: working hours, weekday nightlies, quiet weekends);
 * - `daily`: the same hour of each of the last seven days (a daily rhythm, or a record of less than a
 *   week);
 * - `level`: every recorded hour (no shape: one level for every hour).
 * Only complete hours are samples: the running hour is not over, so its counts are not what it will be.
 */
import type { DemandHistory } from '../model/demand-history';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
export const WEEK_MS = 7 * DAY_MS;

/** The bases, from the most specific to the least: an hour without samples under one falls to the next. */
export const FORECAST_BASES = ['weekly', 'daily', 'level'] as const;
export type ForecastBasis = (typeof FORECAST_BASES)[number];

/** The history as the forecast reads it at `now`. */
export interface HistoryGrid {
  readonly history: DemandHistory;
  /** The buckets `0 … complete − 1` are over by now; the rest (the running hour) are not samples. */
  readonly complete: number;
  /** Buckets in a day and in a week. */
  readonly perDay: number;
  readonly perWeek: number;
}

/** The grid of `history` at `now`; undefined when it cannot be read (whole intervals dividing a day). */
export function gridOf(history: DemandHistory | undefined, now: number): HistoryGrid | undefined {
  if (history === undefined) return undefined;
  const { intervalMs, start, buckets } = history;
  const usable =
    Number.isFinite(intervalMs) &&
    intervalMs > 0 &&
    DAY_MS % intervalMs === 0 &&
    Number.isFinite(start) &&
    Array.isArray(buckets) &&
    buckets.length > 0;
  if (!usable) return undefined;
  const over = Math.floor((now - start) / intervalMs);
  const complete = Math.max(0, Math.min(buckets.length, over));
  const perDay = DAY_MS / intervalMs;
  return { history, complete, perDay, perWeek: 7 * perDay };
}

/** The index on the grid of the interval holding `at` (past the recorded buckets for hours to come). */
export function indexAt(grid: HistoryGrid, at: number): number {
  const { intervalMs, start } = grid.history;
  return Math.floor((at - start) / intervalMs);
}

/**
 * The samples of the interval at index `target` under `basis`: complete buckets before index `before`
 * (the hours known when the forecast is made). `level`'s are every one of them.
 */
export function sampleIndexes(
  grid: HistoryGrid,
  target: number,
  basis: ForecastBasis,
  before: number = grid.complete,
): number[] {
  const known = (i: number) => i >= 0 && i < Math.min(before, grid.complete);
  if (basis === 'weekly') return [1, 2].map((w) => target - w * grid.perWeek).filter(known);
  if (basis === 'daily') return [1, 2, 3, 4, 5, 6, 7].map((d) => target - d * grid.perDay).filter(known);
  return Array.from({ length: Math.max(0, Math.min(before, grid.complete)) }, (_, i) => i);
}
