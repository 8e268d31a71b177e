/**
 * What the demand recorder keeps of one set: the hourly demand history the forecast reads
 * (model/demand-history.ts), and the recent facts the lease-wait objectives are made of
 * (lease-objectives.ts).
 * Pure: the reconciler observes, this file folds the observations in; the record is bounded whatever
 * it is fed, so its object stays a few KB.
 *
 * Each fact counts once, also across controller restarts (the record is read back from its object):
 * - an arrival is a lease created after the newest one counted (`lastArrival`, with the uids counted at
 *   that very second, as creation times have second resolution);
 * - a startup or a served lease is kept by uid; the lists drop their oldest first, so one dropped is
 *   older than every one kept and is not taken again.
 *
 * Crowding: each arrival also counts, in its bucket, how many arrivals came within one (median) startup
 * before it (arrival-crowding.ts); the creation times of the newest arrivals are kept for the next.
 *
 * Peaks: a bucket's peak is the most leases held or waiting seen at once in it. Buckets no pass saw
 * (a quiet controller, or one that was down) are filled from the leases still live: a lease live now
 * was live since it was created, so it counts in every bucket from its creation on.
 */
import {
  DEMAND_INTERVAL_MS,
  DEMAND_MAX_BUCKETS,
  type DemandBucket,
  type DemandHistory,
} from '../model/demand-history';
import type { ServedLease, StartupSample } from '../model/demand-samples';
import { addCrowded, countArrival, crowdingWindowMs } from './arrival-crowding';
import { leaseWaitWindowStart, p95 } from './lease-objectives';

export const MAX_STARTUPS = 50;
export const MAX_SERVED = 1000;
/** Uids kept of the leases created in the newest counted second. */
export const MAX_LAST_ARRIVAL_UIDS = 256;

export interface DemandRecord {
  readonly history: DemandHistory;
  /** The newest lease creation counted as an arrival, and the leases counted at exactly that time. */
  readonly lastArrival?: { readonly at: number; readonly uids: readonly string[] };
  /** Creation times of the newest arrivals, oldest first: the crowding of the next (arrival-crowding.ts). */
  readonly recentArrivals?: readonly number[];
  /** The most recent startups, oldest first (at most {@link MAX_STARTUPS}). */
  readonly startups: readonly StartupSample[];
  /** Leases served in the objectives' window, oldest first (at most {@link MAX_SERVED}). */
  readonly served: readonly ServedLease[];
}

/** One of the set's leases as a pass sees it. */
export interface ObservedLease {
  readonly uid: string;
  readonly created: number;
  /** Held or waiting now (not ended). */
  readonly live: boolean;
}

/** What one pass saw of the set. */
export interface DemandObservation {
  readonly now: number;
  readonly leases: readonly ObservedLease[];
  /** Instances Online now, with their startup. */
  readonly startups: readonly StartupSample[];
  /** Leases assigned to an instance of the set. */
  readonly served: readonly ServedLease[];
}

/** What a pass added: the new facts (for metrics) and how many changes await a write. */
export interface RecordedPass {
  readonly record: DemandRecord;
  readonly newServed: readonly ServedLease[];
  readonly newStartups: readonly StartupSample[];
  /** Facts that changed the record (arrivals, served leases, startups, raised peaks). */
  readonly changes: number;
  /**
   * Arrivals counted into an hour already over (a lease first seen after its hour ended, or created by
   * a clock behind this one's): the forecast reads complete hours, so these change it at once.
   */
  readonly pastHourArrivals: number;
}

export function emptyRecord(now: number, intervalMs = DEMAND_INTERVAL_MS): DemandRecord {
  return {
    history: {
      intervalMs,
      start: bucketStart(now, intervalMs),
      buckets: [{ arrivals: 0, peak: 0, crowding: [] }],
    },
    startups: [],
    served: [],
  };
}

export function bucketStart(at: number, intervalMs: number): number {
  return Math.floor(at / intervalMs) * intervalMs;
}

/** The history extended to the bucket of `now` (gaps filled from `live`, creation times), at most `DEMAND_MAX_BUCKETS` buckets. */
export function advanceHistory(history: DemandHistory, now: number, live: readonly number[]): DemandHistory {
  const { intervalMs } = history;
  const current = bucketStart(now, intervalMs);
  const last = history.start + (history.buckets.length - 1) * intervalMs;
  if (current <= last) return history;
  const buckets: DemandBucket[] = [...history.buckets];
  const missing = Math.min((current - last) / intervalMs, DEMAND_MAX_BUCKETS);
  const firstNew = current - (missing - 1) * intervalMs;
  for (let i = 0; i < missing; i++) {
    const end = firstNew + (i + 1) * intervalMs;
    buckets.push({ arrivals: 0, peak: live.filter((created) => created < end).length, crowding: [] });
  }
  const dropped = Math.max(0, buckets.length - DEMAND_MAX_BUCKETS);
  // After a gap longer than the history, the old buckets are all gone and the new ones start it.
  const start = missing === DEMAND_MAX_BUCKETS ? firstNew : history.start + dropped * intervalMs;
  return { intervalMs, start, buckets: buckets.slice(buckets.length - DEMAND_MAX_BUCKETS) };
}

/**
 * The history reaching back to the bucket of `at` (at most `DEMAND_MAX_BUCKETS` buckets in all): a lease created before
 * the history began (one the controller sees at its first look) still counts. The buckets added are
 * filled as gaps are.
 */
export function extendHistoryBack(
  history: DemandHistory,
  at: number,
  live: readonly number[],
): DemandHistory {
  const { intervalMs } = history;
  const last = history.start + (history.buckets.length - 1) * intervalMs;
  const start = Math.max(bucketStart(at, intervalMs), last - (DEMAND_MAX_BUCKETS - 1) * intervalMs);
  if (start >= history.start) return history;
  const added: DemandBucket[] = [];
  for (let from = start; from < history.start; from += intervalMs) {
    added.push({
      arrivals: 0,
      peak: live.filter((created) => created < from + intervalMs).length,
      crowding: [],
    });
  }
  return { intervalMs, start, buckets: [...added, ...history.buckets] };
}

function withBucket(
  history: DemandHistory,
  index: number,
  change: (bucket: DemandBucket) => DemandBucket,
): DemandHistory {
  const buckets = [...history.buckets];
  buckets[index] = change(buckets[index]!);
  return { ...history, buckets };
}

/** Folds one pass's observation into the record. */
export function recordPass(record: DemandRecord, observation: DemandObservation): RecordedPass {
  const { now } = observation;
  let changes = 0;
  const live = observation.leases.filter((l) => l.live).map((l) => Math.min(l.created, now));
  let history = advanceHistory(record.history, now, live);
  const { intervalMs } = history;
  const indexOf = (at: number): number | undefined => {
    const i = Math.floor((Math.min(at, now) - history.start) / intervalMs);
    return i >= 0 && i < history.buckets.length ? i : undefined;
  };

  // Arrivals, oldest first, each once, with how crowded each came.
  let lastArrival = record.lastArrival;
  let pastHourArrivals = 0;
  let recentArrivals = record.recentArrivals ?? [];
  const windowMs = crowdingWindowMs(record.startups.map((s) => s.ms));
  const arrivals = [...observation.leases].sort((a, b) => a.created - b.created || cmp(a.uid, b.uid));
  for (const lease of arrivals) {
    const seen =
      lastArrival !== undefined &&
      (lease.created < lastArrival.at ||
        (lease.created === lastArrival.at && lastArrival.uids.includes(lease.uid)));
    if (seen || !lease.uid) continue;
    lastArrival =
      lastArrival !== undefined && lease.created === lastArrival.at
        ? { at: lease.created, uids: [...lastArrival.uids, lease.uid].slice(-MAX_LAST_ARRIVAL_UIDS) }
        : { at: lease.created, uids: [lease.uid] };
    const counted = countArrival(recentArrivals, lease.created, windowMs);
    recentArrivals = counted.recent;
    history = extendHistoryBack(history, lease.created, live);
    const index = indexOf(lease.created);
    if (index === undefined) continue; // older than `DEMAND_MAX_BUCKETS` buckets: remembered as counted, not kept
    // A bucket an older controller recorded has no crowding: its arrivals are counted, not its crowding.
    history = withBucket(history, index, (b) => ({
      ...b,
      arrivals: b.arrivals + 1,
      ...(b.crowding ? { crowding: addCrowded(b.crowding, counted.others) } : {}),
    }));
    changes++;
    if (index < history.buckets.length - 1) pastHourArrivals++;
  }

  // The peak of the current bucket.
  const currentIndex = history.buckets.length - 1;
  if (history.buckets[currentIndex]!.peak < live.length) {
    history = withBucket(history, currentIndex, (b) => ({ ...b, peak: live.length }));
    changes++;
  }

  const startupUids = new Set(record.startups.map((s) => s.uid));
  const newStartups = firstOfEach(observation.startups).filter((s) => s.uid && !startupUids.has(s.uid));
  const startups =
    newStartups.length === 0
      ? record.startups
      : newestFirstKept([...record.startups, ...newStartups], (s) => s.at, MAX_STARTUPS);
  const keptStartups = newStartups.filter((s) => startups.includes(s));

  const windowStart = leaseWaitWindowStart(now);
  const servedUids = new Set(record.served.map((s) => s.uid));
  const newServed = firstOfEach(observation.served).filter(
    (s) => s.uid && !servedUids.has(s.uid) && s.begin >= windowStart,
  );
  const inWindow = record.served.every((s) => s.begin >= windowStart)
    ? record.served
    : record.served.filter((s) => s.begin >= windowStart);
  // A settled pool's pass changes nothing here: the lists are kept as they are, not sorted again.
  const served =
    newServed.length === 0
      ? inWindow
      : newestFirstKept([...inWindow, ...newServed], (s) => s.begin, MAX_SERVED);
  const keptServed = newServed.filter((s) => served.includes(s));
  changes += keptStartups.length + keptServed.length;

  return {
    record: {
      history,
      ...(lastArrival !== undefined ? { lastArrival } : {}),
      ...(recentArrivals.length > 0 ? { recentArrivals } : {}),
      startups,
      served,
    },
    newServed: keptServed,
    newStartups: keptStartups,
    changes,
    pastHourArrivals,
  };
}

/** The first item of each uid. */
function firstOfEach<T extends { readonly uid: string }>(items: readonly T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.uid) && seen.add(item.uid) !== undefined);
}

/** The newest `max` items, oldest first. */
function newestFirstKept<T>(items: readonly T[], at: (item: T) => number, max: number): T[] {
  return [...items].sort((a, b) => at(a) - at(b)).slice(-max);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The p95 startup of the record's instances, ms; undefined before the first one. */
export function startupP95Ms(record: DemandRecord): number | undefined {
  return p95(record.startups.map((s) => s.ms));
}
