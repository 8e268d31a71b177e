/**
 * The demand forecast (`spec.forecast`): from a set's demand history (model/demand-history.ts),
 * the most leases the set will hold or have waiting at once in the next hours, and the warm buffer that
 * would serve them warm.
 *
 * The method, seasonal by hour of week (README "Forecast warm buffers"): the expected peak of an hour
 * `T` is the larger of the peaks recorded in the same hour one and two weeks before (`T − 1w`,
 * `T − 2w`), and so are its expected arrivals. CI demand repeats by the week (working hours, weekday nightlies, quiet weekends), and the
 * larger of two weeks keeps one quiet week (a holiday) from erasing a busy hour; it errs towards
 * instances, never towards cold leases. While less than a week is recorded (a cold start), the same
 * hour of the last days (`T − 1d` … `T − 6d`) stands in, again their largest: the weekday pattern, at
 * the price of a warm weekend at first. No recorded hour at all: no forecast.
 *
 * The planner asks for the peak over `[now, now + lead]` (the hours that overlap it), `lead` being the
 * time an instance takes to start, so a forecast peak is warm when it begins, not booting.
 */
import type { DemandBucket, DemandHistory } from '../model/demand-history';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
export const WEEK_MS = 7 * DAY_MS;

/** Lead time when the set's startup p95 is not measured yet: a VM's boot with an image pull. */
export const DEFAULT_FORECAST_LEAD_MS = 10 * 60_000;

/** Which recorded hours an hour's forecast comes from. */
export type ForecastBasis = 'weekly' | 'daily';

/** The forecast of one interval of the history's grid. */
export interface IntervalForecast {
  /** Start of the interval (epoch ms). */
  readonly start: number;
  /** Most leases expected held or waiting at once in it. */
  readonly peak: number;
  /** Leases expected to arrive in it. */
  readonly arrivals: number;
  readonly basis: ForecastBasis;
}

/** The forecast over a horizon. */
export interface HorizonForecast {
  /** The most leases expected at once over the horizon. */
  readonly expectedPeak: number;
  /** The most arrivals expected in one interval of the horizon. */
  readonly expectedArrivals: number;
  /** The intervals of the horizon that have a forecast. */
  readonly intervals: readonly IntervalForecast[];
}

/** Whether the history's grid can be read: whole intervals dividing a day. */
function usable(history: DemandHistory): boolean {
  const { intervalMs, start, buckets } = history;
  return (
    Number.isFinite(intervalMs) &&
    intervalMs > 0 &&
    DAY_MS % intervalMs === 0 &&
    Number.isFinite(start) &&
    Array.isArray(buckets) &&
    buckets.length > 0
  );
}

const asCount = (n: unknown): number =>
  typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.floor(n) : 0;

/** The recorded interval starting at `at`, when recorded and complete by `now`. */
function recorded(history: DemandHistory, at: number, now: number): DemandBucket | undefined {
  const index = Math.round((at - history.start) / history.intervalMs);
  if (index < 0 || index >= history.buckets.length || at + history.intervalMs > now) return undefined;
  const bucket = history.buckets[index];
  return bucket ? { peak: asCount(bucket.peak), arrivals: asCount(bucket.arrivals) } : undefined;
}

/** Start of the interval of the history's grid that holds `at`. */
export function intervalStart(history: DemandHistory, at: number): number {
  const { intervalMs, start } = history;
  return start + Math.floor((at - start) / intervalMs) * intervalMs;
}

/**
 * The forecast of the interval starting at `at` (on the history's grid), known at `now`: the largest of
 * the same hour one and two weeks before, else of the same hour of the last six days; undefined when
 * none of them is recorded.
 */
export function forecastInterval(
  history: DemandHistory,
  at: number,
  now: number,
): IntervalForecast | undefined {
  if (!usable(history)) return undefined;
  const largest = (lags: readonly number[], basis: ForecastBasis): IntervalForecast | undefined => {
    const found = lags
      .map((lag) => recorded(history, at - lag, now))
      .filter((b): b is DemandBucket => b !== undefined);
    if (found.length === 0) return undefined;
    const peak = Math.max(...found.map((b) => b.peak));
    return { start: at, peak, arrivals: Math.max(...found.map((b) => b.arrivals)), basis };
  };
  return (
    largest([WEEK_MS, 2 * WEEK_MS], 'weekly') ??
    largest(
      [1, 2, 3, 4, 5, 6].map((d) => d * DAY_MS),
      'daily',
    )
  );
}

/**
 * The forecast over `[now, now + leadMs]`: every interval that overlaps it (the current one included,
 * so a forecast peak holds until its hour is over). Undefined when no interval has a forecast.
 */
export function forecastHorizon(
  history: DemandHistory | undefined,
  now: number,
  leadMs: number,
): HorizonForecast | undefined {
  if (history === undefined || !usable(history)) return undefined;
  const lead = Number.isFinite(leadMs) && leadMs > 0 ? leadMs : 0;
  const intervals: IntervalForecast[] = [];
  for (let at = intervalStart(history, now); at <= now + lead; at += history.intervalMs) {
    const found = forecastInterval(history, at, now);
    if (found) intervals.push(found);
  }
  if (intervals.length === 0) return undefined;
  return {
    expectedPeak: Math.max(...intervals.map((i) => i.peak)),
    expectedArrivals: Math.max(...intervals.map((i) => i.arrivals)),
    intervals,
  };
}

/**
 * When the horizon's intervals change next: the current interval ends, or the horizon's far end reaches
 * the next one. The planner looks again then (a forecast peak starts warming on time without an event).
 */
export function nextHorizonChange(history: DemandHistory, now: number, leadMs: number): number {
  const lead = Number.isFinite(leadMs) && leadMs > 0 ? leadMs : 0;
  const currentEnds = intervalStart(history, now) + history.intervalMs;
  const farEndCrosses = intervalStart(history, now + lead) + history.intervalMs - lead;
  return Math.min(currentEnds, farEndCrosses);
}
