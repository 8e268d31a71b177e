/**
 * The periodic part of a seed's lease load: CI demand follows the clock, so some seeds add
 * leases shaped like a compressed working day or week on top of the random ones — busy working hours,
 * a nightly burst, quiet nights (and quiet weekends for a week). Others keep the flat load alone. Drawn
 * from a stream of its own, so the rest of a seed's plan is the same with or without the patterns.
 */
import { seededRandom, type Random } from './random';

export type LoadPattern = 'flat' | 'daily' | 'weekly';

/** A lease the pattern adds: when, for which set, for how long. */
export interface PatternLease {
  readonly atMs: number;
  readonly set: string;
  readonly durationSeconds: number;
}

export interface LeaseLoad {
  readonly pattern: LoadPattern;
  /** Cluster ms of one compressed day (undefined for the flat pattern). */
  readonly dayMs?: number;
  readonly leases: readonly PatternLease[];
}

/** Leases per cluster minute in a compressed day's hour: working hours 9–17, nights and evenings low. */
export function hourlyRate(hour: number, weekend: boolean): number {
  if (weekend) return 1;
  if (hour >= 9 && hour < 17) return hour === 12 ? 8 : 14;
  if (hour === 8 || hour === 17) return 5;
  return 1;
}

/** The compressed hour (0–23) and day (0 = Monday) of `atMs`. */
export function clockOf(atMs: number, dayMs: number): { day: number; hour: number } {
  return { day: Math.floor(atMs / dayMs), hour: Math.floor(((atMs % dayMs) / dayMs) * 24) };
}

function patternOf(random: Random): LoadPattern {
  return random.pick(['flat', 'flat', 'daily', 'weekly'] as const);
}

export function planLeaseLoad(seed: number, sets: readonly string[], chaosMs: number): LeaseLoad {
  const random = seededRandom((seed ^ 0x10ad5eed) >>> 0);
  const pattern = patternOf(random);
  if (pattern === 'flat' || sets.length === 0) return { pattern, leases: [] };
  // Daily: two compressed days in the chaos phase; weekly: one compressed week (5 workdays, 2 quiet).
  const dayMs = pattern === 'daily' ? chaosMs / 2 : chaosMs / 7;
  const leases: PatternLease[] = [];
  const lease = (atMs: number) =>
    leases.push({
      atMs: Math.min(chaosMs - 1, Math.round(atMs)),
      set: random.pick(sets),
      durationSeconds: random.int(2, 20),
    });
  // Poisson arrivals by thinning at the highest rate.
  const top = 14;
  for (let at = 0; ;) {
    at += (-Math.log(1 - random.next()) * 60_000) / top;
    if (at >= chaosMs) break;
    const { day, hour } = clockOf(at, dayMs);
    const weekend = pattern === 'weekly' && day % 7 >= 5;
    if (random.next() < hourlyRate(hour, weekend) / top) lease(at);
  }
  // The nightly burst at 02:00 of each workday, all at once.
  for (let day = 0; day * dayMs < chaosMs; day++) {
    if (pattern === 'weekly' && day % 7 >= 5) continue;
    const at = day * dayMs + (2 / 24) * dayMs;
    if (at >= chaosMs) break;
    const burst = random.int(3, 6);
    for (let i = 0; i < burst; i++) lease(at + random.int(0, 200));
  }
  leases.sort((a, b) => a.atMs - b.atMs);
  return { pattern, dayMs, leases };
}
