/**
 * How the forecast forecasts (forecast.ts): which basis (forecast-samples.ts), and at which share of its
 * samples' arrivals an hour's buffer is set — the pair that would have served the last recorded week
 * best. Each basis forecasts every complete hour of the last seven recorded days from the hours before
 * it, as the forecast would have then, at each candidate share; the hour's recorded crowding says how
 * many of its arrivals that buffer served warm. Of the pairs that served at least the goal's share of
 * the week's arrivals warm, the cheapest (the least buffer summed over the hours: idle instance-hours)
 * is chosen — a more specific basis only when it saves a tenth of the buffer or more over a less
 * specific one — and when none did, the one that served the most. Ties go to the smaller share.
 *
 * The share is tried above the goal because a quantile read from two or seven samples falls short of
 * its level about as often as not: the week says how much more a basis needs. Demand that repeats by
 * the week is so forecast by the hour of the week; demand that does not — irregular bursts at any hour —
 * by one level for every hour (the static buffer the record says serves the goal), rather than by a
 * raise at the hours last week's bursts happened to come.
 *
 * The choice reads complete hours only, so it changes once an hour: it is kept per history content
 * (a bounded memo of a pure function; the same snapshot gives the same choice).
 */
import type { DemandBucket } from '../model/demand-history';
import { addInto, arrivalsIn, bufferFor, crowdingOf, mergeCrowding, servedUnder } from './arrival-crowding';
import { FORECAST_BASES, sampleIndexes, type ForecastBasis, type HistoryGrid } from './forecast-samples';

/** The shares an hour's buffer may be set at, the goal's first. */
export const CANDIDATE_SHARES = [0.95, 0.96, 0.97, 0.98, 0.99, 1] as const;

/** How one basis at one share would have done over the backtest's hours. */
export interface BasisTrial {
  readonly basis: ForecastBasis;
  readonly share: number;
  /** Arrivals of the hours tried, and how many of them the basis's buffers served warm. */
  readonly arrivals: number;
  readonly served: number;
  /** The buffers summed over the hours: the instance-hours kept idle for them. */
  readonly bufferHours: number;
}

/** The basis and share the forecast uses. */
export interface ForecastMethod {
  readonly basis: ForecastBasis;
  readonly share: number;
}

/**
 * Every basis at every share `goal` or above, over the last week of complete hours (less when less is
 * recorded). An hour without samples under a basis falls to the next basis, as the forecast does; an
 * hour before the first recorded arrival is not tried.
 */
export function tryBases(grid: HistoryGrid, goal: number): BasisTrial[] {
  const buckets = grid.history.buckets;
  const crowdingAt = (i: number) => crowdingOf(buckets[i] as DemandBucket | undefined);
  const end = grid.complete;
  const from = Math.max(0, end - grid.perWeek);
  const shares = CANDIDATE_SHARES.filter((s) => s >= goal);
  const sums = FORECAST_BASES.map(() => shares.map(() => ({ served: 0, bufferHours: 0 })));
  let arrivals = 0;
  // `level`'s samples grow one hour at a time: the hours before `from`, then each hour once tried.
  const level = mergeCrowding(sampleIndexes(grid, from, 'level', from).map(crowdingAt));
  for (let i = from; i < end; i++) {
    const actual = crowdingAt(i);
    // Before the first recorded arrival no basis knows anything: such an hour tries none.
    if (arrivalsIn(level) === 0) {
      addInto(level, actual);
      continue;
    }
    arrivals += arrivalsIn(actual);
    const own = FORECAST_BASES.map((basis) =>
      basis === 'level' ? (i > 0 ? level : undefined) : samplesOf(grid, i, basis, crowdingAt),
    );
    FORECAST_BASES.forEach((_, b) => {
      const samples = own.slice(b).find((s) => s !== undefined) ?? [];
      shares.forEach((share, s) => {
        const buffer = bufferFor(samples, share);
        sums[b]![s]!.served += servedUnder(actual, buffer);
        sums[b]![s]!.bufferHours += buffer;
      });
    });
    addInto(level, actual);
  }
  return FORECAST_BASES.flatMap((basis, b) =>
    shares.map((share, s) => ({ basis, share, arrivals, ...sums[b]![s]! })),
  );
}

/** The merged samples of hour `i` under `basis` from the hours before it; undefined when it has none. */
function samplesOf(
  grid: HistoryGrid,
  i: number,
  basis: ForecastBasis,
  crowdingAt: (i: number) => readonly number[],
): number[] | undefined {
  const indexes = sampleIndexes(grid, i, basis, i);
  return indexes.length > 0 ? mergeCrowding(indexes.map(crowdingAt)) : undefined;
}

/**
 * A more specific basis is taken over a less specific one only when it saves this share of the
 * buffer: over one week, chance alone makes some hours look alike.
 */
export const SPECIFIC_BASIS_SAVING = 0.1;

/** The method chosen from the trials (the module doc); trials come in order of preference. */
export function chooseMethod(trials: readonly BasisTrial[], goal: number): ForecastMethod {
  const met = trials.filter((t) => t.served >= goal * t.arrivals - 1e-9);
  if (met.length === 0) {
    const most = trials.reduce((a, t) => (t.served > a.served ? t : a), trials[0]!);
    return { basis: most.basis, share: most.share };
  }
  // The cheapest share of each basis that met the goal, from the least specific basis up.
  const cheapest = FORECAST_BASES.map((basis) =>
    met
      .filter((t) => t.basis === basis)
      .reduce<BasisTrial | undefined>(
        (a, t) => (a === undefined || t.bufferHours < a.bufferHours ? t : a),
        undefined,
      ),
  ).reverse();
  let best: BasisTrial | undefined;
  for (const trial of cheapest) {
    if (trial === undefined) continue;
    if (best === undefined || trial.bufferHours < (1 - SPECIFIC_BASIS_SAVING) * best.bufferHours)
      best = trial;
  }
  return { basis: best!.basis, share: best!.share };
}

const MEMO_SIZE = 1024;
const memo = new Map<string, ForecastMethod>();

/** The method for `grid` (the memo keyed by its complete hours' content). */
export function forecastMethod(grid: HistoryGrid, goal: number): ForecastMethod {
  const key = `${goal}:${contentKey(grid)}`;
  const known = memo.get(key);
  if (known) return known;
  const method = chooseMethod(tryBases(grid, goal), goal);
  if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value as string);
  memo.set(key, method);
  return method;
}

/** The grid and a hash of its complete buckets' counts (what the choice reads). */
function contentKey(grid: HistoryGrid): string {
  const { history, complete } = grid;
  // Two 32-bit hashes: a collision would hand one set another history's method.
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  const mix = (n: number) => {
    a = Math.imul(a ^ (n | 0), 0x01000193) >>> 0;
    b = Math.imul(b ^ (n | 0), 0x85ebca6b) >>> 0;
    b ^= b >>> 13;
  };
  for (let i = 0; i < complete; i++) {
    const bucket = history.buckets[i] as DemandBucket | undefined;
    mix(bucket?.arrivals ?? -1);
    mix(bucket?.peak ?? -1);
    const crowding = Array.isArray(bucket?.crowding) ? bucket.crowding : undefined;
    mix(crowding ? crowding.length : -2);
    crowding?.forEach(mix);
  }
  return `${history.intervalMs}:${history.start}:${complete}:${history.buckets.length}:${a}:${b}`;
}
