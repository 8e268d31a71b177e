/**
 * The demand forecast (`spec.forecast`): from a set's demand history (model/demand-history.ts), the warm
 * buffer that serves {@link FORECAST_WARM_SHARE} of the leases of the next hours warm, learnt by the
 * hour of the week when demand repeats by the week (README "Forecast warm buffers").
 *
 * An hour to come is forecast from its samples, recorded hours like it (forecast-samples.ts): under the
 * `weekly` basis the same hour of the same weekday one and two weeks before, under `daily` the same hour
 * of the last seven days, under `level` every recorded hour. The samples' arrival crowding
 * (arrival-crowding.ts: how many others each arrival found within one startup before it) is summed —
 * weighted by arrivals, so a quiet holiday does not outvote the busy week beside it — and the hour's
 * buffer is the smallest that would have served a share of their arrivals warm (95 %, or more where
 * the last week says the basis needs more). A 09:00 burst or a nightly fan-out shows as crowded
 * arrivals in its hour and is warmed for in that hour only; a quiet night gets a buffer of 0 or 1.
 *
 * One basis and share are used for every hour, the pair that would have served the last recorded week
 * best (forecast-basis.ts): demand without a pattern gets one level for every hour. An hour without
 * samples under the basis takes the next one (a cold start: with less than a week recorded, `weekly`
 * has none and `daily` stands in). No complete hour recorded: no forecast.
 *
 * The planner asks for the buffer over `[now, now + lead]` (the hours that overlap it), `lead` being the
 * time an instance takes to start, so a forecast burst finds its instances Online, not booting.
 */
import type { DemandHistory } from '../model/demand-history';
import { bufferFor, crowdingOf, mergeCrowding } from './arrival-crowding';
import { forecastMethod, type ForecastMethod } from './forecast-basis';
import {
  FORECAST_BASES,
  gridOf,
  indexAt,
  sampleIndexes,
  type ForecastBasis,
  type HistoryGrid,
} from './forecast-samples';

export { DAY_MS, HOUR_MS, WEEK_MS, type ForecastBasis } from './forecast-samples';
export type { ForecastMethod } from './forecast-basis';

/** Lead time when the set's startup p95 is not measured yet: a VM's boot with an image pull. */
export const DEFAULT_FORECAST_LEAD_MS = 10 * 60_000;

/** The share of the leases the forecast's buffer is to serve warm. */
export const FORECAST_WARM_SHARE = 0.95;

/** The forecast of one interval of the history's grid. */
export interface IntervalForecast {
  /** Start of the interval (epoch ms). */
  readonly start: number;
  /** The warm buffer that would have served the share of its samples' arrivals warm. */
  readonly buffer: number;
  /** Most leases held or waiting at once in any of its samples. */
  readonly peak: number;
  readonly basis: ForecastBasis;
}

/** The forecast over a horizon. */
export interface HorizonForecast {
  /** The basis and share chosen for the set (forecast-basis.ts). */
  readonly method: ForecastMethod;
  /** The largest buffer of the horizon's intervals. */
  readonly warmBuffer: number;
  /** The most leases expected at once over the horizon. */
  readonly expectedPeak: number;
  /** The intervals of the horizon that have a forecast. */
  readonly intervals: readonly IntervalForecast[];
}

/** Start of the interval of the history's grid that holds `at`. */
export function intervalStart(history: DemandHistory, at: number): number {
  const { intervalMs, start } = history;
  return start + Math.floor((at - start) / intervalMs) * intervalMs;
}

const asCount = (n: unknown): number =>
  typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.floor(n) : 0;

/**
 * The forecast of the interval starting at `at`, known at `now`, by `method` (else by the next basis
 * that has samples for it); undefined when no basis has.
 */
function forecastOn(grid: HistoryGrid, at: number, method: ForecastMethod): IntervalForecast | undefined {
  const target = indexAt(grid, at);
  for (const tried of FORECAST_BASES.slice(FORECAST_BASES.indexOf(method.basis))) {
    const samples = sampleIndexes(grid, target, tried);
    if (samples.length === 0) continue;
    const buckets = samples.map((i) => grid.history.buckets[i]);
    return {
      start: at,
      buffer: bufferFor(mergeCrowding(buckets.map(crowdingOf)), method.share),
      peak: Math.max(0, ...buckets.map((b) => asCount(b?.peak))),
      basis: tried,
    };
  }
  return undefined;
}

/** How the history at `now` is forecast (forecast-basis.ts); undefined when it has no complete hour. */
export function forecastMethodOf(
  history: DemandHistory | undefined,
  now: number,
): ForecastMethod | undefined {
  const grid = gridOf(history, now);
  if (grid === undefined || grid.complete === 0) return undefined;
  return forecastMethod(grid, FORECAST_WARM_SHARE);
}

/**
 * The forecast of the interval starting at `at` (on the history's grid), known at `now`, by the method
 * chosen for the history (or `method` when given); undefined without samples.
 */
export function forecastInterval(
  history: DemandHistory,
  at: number,
  now: number,
  method?: ForecastMethod,
): IntervalForecast | undefined {
  const grid = gridOf(history, now);
  const chosen = method ?? forecastMethodOf(history, now);
  return grid && chosen ? forecastOn(grid, at, chosen) : undefined;
}

/**
 * The forecast over `[now, now + leadMs]`: every interval that overlaps it (the current one included,
 * so a forecast buffer holds until its hour is over). Undefined when no interval has a forecast.
 */
export function forecastHorizon(
  history: DemandHistory | undefined,
  now: number,
  leadMs: number,
): HorizonForecast | undefined {
  const grid = gridOf(history, now);
  const method = forecastMethodOf(history, now);
  if (grid === undefined || method === undefined) return undefined;
  const lead = Number.isFinite(leadMs) && leadMs > 0 ? leadMs : 0;
  const intervals: IntervalForecast[] = [];
  for (let at = intervalStart(grid.history, now); at <= now + lead; at += grid.history.intervalMs) {
    const found = forecastOn(grid, at, method);
    if (found) intervals.push(found);
  }
  if (intervals.length === 0) return undefined;
  return {
    method,
    warmBuffer: Math.max(...intervals.map((i) => i.buffer)),
    expectedPeak: Math.max(...intervals.map((i) => i.peak)),
    intervals,
  };
}

/**
 * When the horizon's intervals change next: the current interval ends, or the horizon's far end reaches
 * the next one. The planner looks again then (a forecast buffer starts warming on time without an event).
 */
export function nextHorizonChange(history: DemandHistory, now: number, leadMs: number): number {
  const lead = Number.isFinite(leadMs) && leadMs > 0 ? leadMs : 0;
  const currentEnds = intervalStart(history, now) + history.intervalMs;
  const farEndCrosses = intervalStart(history, now + lead) + history.intervalMs - lead;
  return Math.min(currentEnds, farEndCrosses);
}
