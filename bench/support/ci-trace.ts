/**
 * A seeded synthetic CI lease trace (P7): weeks of lease arrivals shaped like a CI farm's — working
 * hours Monday to Friday (a morning ramp, a lunch dip, a 09:00 merge-queue burst), a nightly burst of
 * long runs at 02:00 on weekdays, quiet weekends with a trickle, and holidays that look like a Sunday.
 * Times are UTC; the trace starts on a Monday 00:00.
 */

export interface TraceLease {
  /** When the lease is created (ms since the trace's start). */
  readonly arrival: number;
  /** How long it is held once assigned (ms). */
  readonly durationMs: number;
  readonly kind: 'day' | 'burst' | 'nightly' | 'trickle';
}

export interface CiTraceOptions {
  readonly seed: number;
  readonly weeks: number;
  /** Day indexes (0 = the first Monday) that are holidays: weekend-like. */
  readonly holidays?: readonly number[];
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** mulberry32: the same seed gives the same trace. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0 || 0x9e3779b9;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Working-day arrival rate (leases per minute) by UTC hour. */
const WORKDAY_RATE: readonly number[] = [
  0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.06, 0.15, 0.4, 1.0, 1.1, 1.0, 0.5, 0.9, 1.1, 1.0, 0.8, 0.4, 0.2, 0.1,
  0.06, 0.05, 0.04, 0.04,
];
const WEEKEND_RATE = 0.03;

/** A CI job's length: log-normal around 15 min, 3 min to 90 min. */
function jobLength(random: () => number, medianMin: number): number {
  const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const minutes = Math.min(90, Math.max(3, medianMin * Math.exp(0.5 * normal)));
  return Math.round(minutes * MINUTE);
}

export function ciTrace(options: CiTraceOptions): TraceLease[] {
  const random = seeded(options.seed);
  const holidays = new Set(options.holidays ?? []);
  const leases: TraceLease[] = [];
  const days = options.weeks * 7;
  for (let day = 0; day < days; day++) {
    const weekday = day % 7 < 5 && !holidays.has(day);
    const dayStart = day * DAY;
    // Poisson arrivals by thinning, minute by minute of the day's rate.
    for (let minute = 0; minute < 24 * 60; minute++) {
      const rate = weekday ? WORKDAY_RATE[Math.floor(minute / 60)] : WEEKEND_RATE;
      let at = 0;
      for (;;) {
        at += -Math.log(1 - random()) / rate;
        if (at >= 1) break;
        leases.push({
          arrival: dayStart + Math.round((minute + at) * MINUTE),
          durationMs: jobLength(random, weekday && minute >= 8 * 60 && minute < 18 * 60 ? 15 : 10),
          kind: weekday && minute >= 7 * 60 && minute < 19 * 60 ? 'day' : 'trickle',
        });
      }
    }
    if (!weekday) continue;
    // 09:00: the merge queue flushes, 6 to 10 pipelines within 4 minutes.
    const flush = 6 + Math.floor(random() * 5);
    for (let i = 0; i < flush; i++) {
      leases.push({
        arrival: dayStart + 9 * HOUR + Math.round(random() * 4 * MINUTE),
        durationMs: jobLength(random, 15),
        kind: 'burst',
      });
    }
    // 02:00 the next night: the nightly suite, 10 to 14 long runs within 3 minutes.
    const nightly = 10 + Math.floor(random() * 5);
    for (let i = 0; i < nightly && day + 1 < days; i++) {
      leases.push({
        arrival: dayStart + DAY + 2 * HOUR + Math.round(random() * 3 * MINUTE),
        durationMs: Math.round((30 + random() * 20) * MINUTE),
        kind: 'nightly',
      });
    }
  }
  return leases.sort((a, b) => a.arrival - b.arrival);
}
