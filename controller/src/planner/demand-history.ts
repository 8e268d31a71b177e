/**
 * A set's demand history (issue 17): what the forecast (forecast.ts) learns from and what the
 * lease-wait objectives report. The reconciler records it and keeps it in an object of its own (one
 * per set, bounded in size), so it survives controller restarts and is never part of the set's status.
 *
 * Buckets are fixed intervals of wall time (`intervalMs`, hourly by default), oldest first, the last
 * one being the interval that holds `now`; at most `maxBuckets` are kept (14 days of hours).
 */

/** One interval of demand. */
export interface DemandBucket {
  /** Leases of the set created in the interval. */
  readonly arrivals: number;
  /** The most leases of the set held or waiting at once in the interval. */
  readonly peak: number;
}

export interface DemandHistory {
  /** Length of one bucket, ms. */
  readonly intervalMs: number;
  /** Start of `buckets[0]` (epoch ms, a multiple of `intervalMs`). */
  readonly start: number;
  readonly buckets: readonly DemandBucket[];
}

/** Hourly buckets over 14 days: 336 buckets, a few KB in its object. */
export const DEMAND_INTERVAL_MS = 3_600_000;
export const DEMAND_MAX_BUCKETS = 14 * 24;
