/**
 * A seeded synthetic lease trace with irregular bursts and no weekly pattern (P7's second trace): a
 * steady Poisson trickle whose rate wanders from hour to hour at random, and bursts — a pipeline fanning
 * out 6 to 20 leases within 1 to 5 minutes — at random times, about one every five hours, any hour of
 * any day. Nothing repeats by the day or the week, so a forecast that learns by weekday and hour has
 * no shape to find; what it must learn is the level that serves the bursts. Times are ms since the
 * trace's start; kinds are `trickle` and `burst`.
 */
import { seeded, type TraceLease } from './ci-trace';

export interface BurstyTraceOptions {
  readonly seed: number;
  readonly weeks: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const WEEK = 7 * 24 * HOUR;

/** Mean trickle rate (leases per minute); each hour's rate is drawn between half and twice it. */
const TRICKLE_RATE = 0.25;
/** Mean time between bursts. */
const BURST_EVERY_MS = 5 * HOUR;

/** A job's length: log-normal around `medianMin`, 3 min to 90 min. */
function jobLength(random: () => number, medianMin: number): number {
  const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const minutes = Math.min(90, Math.max(3, medianMin * Math.exp(0.5 * normal)));
  return Math.round(minutes * MINUTE);
}

export function burstyTrace(options: BurstyTraceOptions): TraceLease[] {
  const random = seeded(options.seed);
  const end = options.weeks * WEEK;
  const leases: TraceLease[] = [];
  // The trickle: Poisson arrivals, each hour at its own random rate.
  for (let hour = 0; hour * HOUR < end; hour++) {
    const perMinute = TRICKLE_RATE * (0.5 + 1.5 * random());
    let at = hour * HOUR;
    for (;;) {
      at += (-Math.log(1 - random()) / perMinute) * MINUTE;
      if (at >= (hour + 1) * HOUR) break;
      leases.push({ arrival: Math.round(at), durationMs: jobLength(random, 12), kind: 'trickle' });
    }
  }
  // The bursts: a Poisson process of fan-outs, at any time.
  let burstAt = 0;
  for (;;) {
    burstAt += -Math.log(1 - random()) * BURST_EVERY_MS;
    if (burstAt >= end) break;
    const size = 6 + Math.floor(random() * 15);
    const spreadMs = (1 + random() * 4) * MINUTE;
    for (let i = 0; i < size; i++) {
      const arrival = Math.round(burstAt + random() * spreadMs);
      if (arrival < end) leases.push({ arrival, durationMs: jobLength(random, 20), kind: 'burst' });
    }
  }
  return leases.sort((a, b) => a.arrival - b.arrival);
}
