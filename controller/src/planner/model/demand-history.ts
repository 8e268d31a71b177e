/**
 * A set's demand history: what the forecast (demand/forecast.ts) learns from and what the
 * lease-wait objectives report. The reconciler records it and keeps it in an object of its own (one
 * per set, bounded in size), so it survives controller restarts and is never part of the set's status.
 *
 * Buckets are fixed intervals of wall time (`intervalMs`, hourly by default), oldest first, the last
 * one being the interval that holds `now`; at most `DEMAND_MAX_BUCKETS` are kept (15 days of hours).
 */

/** One interval of demand. */
export interface DemandBucket {
  /** Leases of the set created in the interval. */
  readonly arrivals: number;
  /** The most leases of the set held or waiting at once in the interval. */
  readonly peak: number;
  /**
   * How crowded the interval's arrivals came: `crowding[n]` arrivals found `n` other leases of the set
   * created within one startup time before them (the last index counts that many or more), so an
   * arrival finds an idle instance under a warm buffer of more than `n` (demand/arrival-crowding.ts).
   * Absent in intervals recorded before crowding was counted (a record written by an older
   * controller); the forecast then takes the interval's peak as having arrived at once.
   */
  readonly crowding?: readonly number[];
}

export interface DemandHistory {
  /** Length of one bucket, ms. */
  readonly intervalMs: number;
  /** Start of `buckets[0]` (epoch ms, a multiple of `intervalMs`). */
  readonly start: number;
  readonly buckets: readonly DemandBucket[];
}

/**
 * Hourly buckets over 15 days: 360 buckets, a few KB in its object. Two weeks, and one day more: the
 * forecast (forecast.ts) reads the same hour two weeks back for the current hour and every hour of the
 * next day, which 14 days would have dropped just as that hour begins.
 */
export const DEMAND_INTERVAL_MS = 3_600_000;
export const DEMAND_MAX_BUCKETS = 15 * 24;
