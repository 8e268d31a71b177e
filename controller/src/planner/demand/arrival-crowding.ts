/**
 * Arrival crowding: how many idle instances a lease needs ahead of it to be served warm. An instance
 * that takes a lease is taken (under ExitAndReplace it leaves with the lease), and the one the planner
 * starts in its place is Online one startup later. So a lease that arrives when `n` other leases of the
 * set arrived within one startup before it finds an idle instance only under a warm buffer of more than
 * `n`. The recorder counts, per hour, how many arrivals found each `n` (`DemandBucket.crowding`); the
 * forecast reads from those counts the buffer that would have served a share of the arrivals warm.
 * Bursts show as arrivals with many others just before them, a steady trickle as arrivals with few,
 * whatever the hour's total.
 *
 * The window is the set's median startup: the typical time a replacement takes (the p95, which the
 * forecast warms ahead by, would count a steady trickle as crowded). Before any startup is measured it
 * is the default lead, which errs towards instances.
 */
import type { DemandBucket } from '../model/demand-history';

/** Crowding is counted up to this many others; the last index holds that many or more. */
export const MAX_CROWDING = 64;
/** Creation times kept of the newest arrivals, to count the others within the window of the next one. */
export const MAX_RECENT_ARRIVALS = 256;
/** The window before a startup is measured: a VM's boot with an image pull (the forecast's default lead). */
export const DEFAULT_CROWDING_WINDOW_MS = 10 * 60_000;

/** The window arrivals are counted in: the median of the recorded startups (ms), else the default. */
export function crowdingWindowMs(startupMs: readonly number[]): number {
  const ms = startupMs.filter((m) => Number.isFinite(m) && m > 0);
  if (ms.length === 0) return DEFAULT_CROWDING_WINDOW_MS;
  const sorted = [...ms].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** One arrival counted: the others within its window, and the creation times kept for the next. */
export interface CountedArrival {
  readonly others: number;
  readonly recent: readonly number[];
}

/**
 * Counts the arrival of a lease created at `created`, given the creation times of the arrivals counted
 * before it (`recent`; arrivals are counted oldest first, so none is later).
 */
export function countArrival(recent: readonly number[], created: number, windowMs: number): CountedArrival {
  const within = recent.filter((at) => at > created - windowMs && at <= created);
  return { others: within.length, recent: [...within, created].slice(-MAX_RECENT_ARRIVALS) };
}

/** `crowding` with one more arrival that found `others`. */
export function addCrowded(crowding: readonly number[], others: number): number[] {
  const index = Math.min(Math.max(0, Math.floor(others)), MAX_CROWDING - 1);
  const next = [...crowding];
  while (next.length <= index) next.push(0);
  next[index] = (next[index] ?? 0) + 1;
  return next;
}

const asCount = (n: unknown): number =>
  typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.floor(n) : 0;

/**
 * The crowding of a bucket, as counts the forecast can trust: the recorded one; for a bucket recorded
 * before crowding was counted, its arrivals taken as having come at once, at its peak (the most held or
 * waiting at once bounds how many came together; it errs towards instances).
 */
export function crowdingOf(bucket: DemandBucket | undefined): readonly number[] {
  if (bucket === undefined) return [];
  if (Array.isArray(bucket.crowding)) return bucket.crowding.slice(0, MAX_CROWDING).map(asCount);
  const arrivals = asCount(bucket.arrivals);
  if (arrivals === 0) return [];
  return addCrowded([], asCount(bucket.peak) - 1).map((n) => (n > 0 ? arrivals : 0));
}

/** Arrivals counted in `crowding`. */
export function arrivalsIn(crowding: readonly number[]): number {
  return crowding.reduce((sum, n) => sum + n, 0);
}

/** The sum of several crowdings: the arrivals of several hours taken together. */
export function mergeCrowding(crowdings: readonly (readonly number[])[]): number[] {
  const merged: number[] = [];
  for (const crowding of crowdings) addInto(merged, crowding);
  return merged;
}

/** Adds `crowding` into `into` (a running sum). */
export function addInto(into: number[], crowding: readonly number[]): void {
  crowding.forEach((n, i) => {
    into[i] = (into[i] ?? 0) + n;
  });
}

/** Arrivals served warm under a warm buffer of `buffer`: those that found fewer than `buffer` others. */
export function servedUnder(crowding: readonly number[], buffer: number): number {
  let served = 0;
  for (let i = 0; i < Math.min(buffer, crowding.length); i++) served += crowding[i] ?? 0;
  return served;
}

/** The smallest warm buffer under which at least `share` of the arrivals are served warm (0: none). */
export function bufferFor(crowding: readonly number[], share: number): number {
  const total = arrivalsIn(crowding);
  if (total === 0) return 0;
  let served = 0;
  for (let i = 0; i < crowding.length; i++) {
    served += crowding[i] ?? 0;
    if (served >= share * total - 1e-9) return i + 1;
  }
  return crowding.length;
}
