/**
 * A discrete-event model of one ExporterSet's pool (P7), fast enough to replay weeks in a second: the
 * controller's scaling rules as the planner applies them — floor, warm buffer plus pending demand with
 * booting instances counted as supply (§3.1–3.3), the ceiling (§3.4), scale-in of the surplus only after
 * it lasted the cooldown (§3.7) — with ExitAndReplace (an instance leaves when its lease ends), boot
 * times from created to Online, and a pass at every event and every `tickMs`. The warm buffer each pass
 * plans for comes from a policy (static, scheduled, forecast); the model records the set's demand
 * history as the controller would (hourly arrivals, peak of leases held or waiting, and the arrivals'
 * crowding through the planner's own arrival-crowding.ts) and its startup p95, so a forecast policy
 * reads what the planner would.
 *
 * A lease is warm when an Online idle instance takes it on arrival (the instance was Online before the
 * lease was created), cold when it waits for one to boot.
 */
import {
  DEMAND_INTERVAL_MS,
  DEMAND_MAX_BUCKETS,
  type DemandBucket,
  type DemandHistory,
} from '../../controller/src/planner';
import {
  addCrowded,
  countArrival,
  crowdingWindowMs,
} from '../../controller/src/planner/demand/arrival-crowding';
import type { TraceLease } from './ci-trace';

export interface PassView {
  readonly now: number;
  readonly history: DemandHistory;
  /** p95 of the startups seen (ms), once 20 were seen. */
  readonly startupP95Ms?: number;
  /** Leases held or waiting now. */
  readonly held: number;
}

/**
 * The warm buffer (minAvailableReplicas) a pass plans for, and optionally when to look again (as the
 * planner's requeue: a forecast horizon that changes, a window that opens).
 */
export type BufferPolicy = (
  view: PassView,
) => number | { readonly minAvailable: number; readonly wakeAt?: number };

export interface PoolModelOptions {
  readonly trace: readonly TraceLease[];
  /** Absolute epoch ms of the trace's 0 (a Monday 00:00 UTC). */
  readonly epoch: number;
  readonly policy: BufferPolicy;
  readonly minReplicas: number;
  /** 0: no ceiling. */
  readonly maxReplicas: number;
  readonly cooldownMs: number;
  /** Boot time of an instance (created → Online), drawn per instance. */
  readonly bootMs: () => number;
  /** Leases arriving at or after this time are measured, and instance-hours counted from it. */
  readonly measureFrom: number;
  readonly end: number;
  /** @default 60_000 */
  readonly tickMs?: number;
}

export interface PoolModelResult {
  readonly leases: number;
  readonly warm: number;
  /** Lease waits (ms) of the measured leases, warm ones 0. */
  readonly waits: readonly number[];
  /** Instance-hours (booting, idle and leased) over the measured period. */
  readonly instanceHours: number;
  readonly creates: number;
  /** Measured leases served cold, by the trace's kind of lease. */
  readonly coldByKind: Readonly<Record<string, number>>;
}

interface Held {
  readonly until: number;
}

export function runPoolModel(options: PoolModelOptions): PoolModelResult {
  const { trace, epoch, policy, cooldownMs, measureFrom, end } = options;
  const tickMs = options.tickMs ?? 60_000;
  const booting: number[] = []; // Online times
  const bootStarted: number[] = [];
  let idle = 0;
  const held: Held[] = [];
  const pending: TraceLease[] = []; // oldest first
  const startups: number[] = [];
  let windowStart: number | undefined;
  let wake = Number.POSITIVE_INFINITY;
  const coldByKind: Record<string, number> = {};
  let next = 0;
  let instanceMs = 0;
  let creates = 0;
  let leases = 0;
  let warm = 0;
  const waits: number[] = [];
  // Demand history, hourly, as the recorder keeps it.
  const buckets: DemandBucket[] = [];
  let historyStart = epoch;
  const bucketAt = (t: number): DemandBucket => {
    const index = Math.floor((epoch + t - historyStart) / DEMAND_INTERVAL_MS);
    while (buckets.length <= index) buckets.push({ arrivals: 0, peak: 0, crowding: [] });
    while (buckets.length > DEMAND_MAX_BUCKETS) {
      buckets.shift();
      historyStart += DEMAND_INTERVAL_MS;
    }
    return buckets[buckets.length - 1];
  };
  const notePeak = (t: number) => {
    const b = bucketAt(t);
    const now = held.length + pending.length;
    if (now > b.peak) buckets[buckets.length - 1] = { ...b, peak: now };
  };
  const history = (): DemandHistory => ({ intervalMs: DEMAND_INTERVAL_MS, start: historyStart, buckets });
  // The recorder's crowding window: the median of the startups it keeps (MAX_STARTUPS, 50).
  let recentArrivals: readonly number[] = [];
  let windowMs = crowdingWindowMs([]);
  let windowOf = 0;
  const crowdingWindow = () => {
    if (windowOf !== startups.length) windowMs = crowdingWindowMs(startups.slice(-50));
    windowOf = startups.length;
    return windowMs;
  };
  let p95: number | undefined;
  const startupP95 = () => {
    if (startups.length < 20) return undefined;
    if (p95 === undefined || startups.length % 50 === 0) {
      const recent = startups.slice(-200).sort((a, b) => a - b);
      p95 = recent[Math.ceil(0.95 * recent.length) - 1];
    }
    return p95;
  };
  const measured = (arrival: number) => arrival >= measureFrom;

  const pass = (t: number) => {
    bucketAt(t);
    const p = startupP95();
    const asked = policy({
      now: epoch + t,
      history: history(),
      ...(p !== undefined ? { startupP95Ms: p } : {}),
      held: held.length + pending.length,
    });
    const minAvailable = typeof asked === 'number' ? asked : asked.minAvailable;
    const wakeAt = typeof asked === 'number' ? undefined : asked.wakeAt;
    if (wakeAt !== undefined && wakeAt - epoch > t) wake = Math.min(wake, wakeAt - epoch);
    const supply = idle + booting.length;
    const need = minAvailable + pending.length;
    const total = supply + held.length;
    const room = options.maxReplicas > 0 ? options.maxReplicas - total : Number.POSITIVE_INFINITY;
    const wanted = Math.max(need - supply, options.minReplicas - total, 0);
    const create = Math.min(wanted, Math.max(0, room));
    for (let i = 0; i < create; i++) {
      const boot = options.bootMs();
      booting.push(t + boot);
      bootStarted.push(t);
      creates++;
    }
    const surplus = Math.min(supply + create - need, total + create - options.minReplicas);
    if (surplus <= 0) {
      windowStart = undefined;
      return;
    }
    if (windowStart === undefined) {
      windowStart = t;
      return;
    }
    if (t - windowStart < cooldownMs) return;
    // The surplus lasted the cooldown: it goes, booting instances first (never-ready before ready).
    let remove = surplus;
    while (remove > 0 && booting.length > 0) {
      booting.pop();
      bootStarted.pop();
      remove--;
    }
    const idleGone = Math.min(remove, idle);
    idle -= idleGone;
    windowStart = undefined;
  };

  let t = 0;
  let lastT = 0;
  let nextTick = 0;
  while (t < end) {
    const nextArrival = next < trace.length ? trace[next].arrival : Number.POSITIVE_INFINITY;
    const nextBoot = booting.length > 0 ? Math.min(...booting) : Number.POSITIVE_INFINITY;
    const nextEnd = held.length > 0 ? Math.min(...held.map((h) => h.until)) : Number.POSITIVE_INFINITY;
    const window = windowStart !== undefined ? windowStart + cooldownMs : Number.POSITIVE_INFINITY;
    t = Math.min(nextArrival, nextBoot, nextEnd, nextTick, window, wake, end);
    if (t >= wake) wake = Number.POSITIVE_INFINITY;
    // Instance-time since the last event, over the measured period.
    const from = Math.max(lastT, measureFrom);
    if (t > from) instanceMs += (t - from) * (idle + booting.length + held.length);
    lastT = t;
    if (t >= end) break;
    // Boots that finish now: each takes the oldest waiting lease (cold), else idles.
    for (let i = booting.length - 1; i >= 0; i--) {
      if (booting[i] > t) continue;
      startups.push(booting[i] - bootStarted[i]);
      booting.splice(i, 1);
      bootStarted.splice(i, 1);
      const lease = pending.shift();
      if (lease === undefined) idle++;
      else {
        held.push({ until: t + lease.durationMs });
        if (measured(lease.arrival)) {
          waits.push(t - lease.arrival);
          coldByKind[lease.kind] = (coldByKind[lease.kind] ?? 0) + 1;
        }
      }
    }
    // Leases that end now: ExitAndReplace, the instance leaves.
    for (let i = held.length - 1; i >= 0; i--) if (held[i].until <= t) held.splice(i, 1);
    // Arrivals now.
    while (next < trace.length && trace[next].arrival <= t) {
      const lease = trace[next++];
      const b = bucketAt(t);
      const counted = countArrival(recentArrivals, epoch + t, crowdingWindow());
      recentArrivals = counted.recent;
      buckets[buckets.length - 1] = {
        ...b,
        arrivals: b.arrivals + 1,
        crowding: addCrowded(b.crowding ?? [], counted.others),
      };
      if (measured(lease.arrival)) leases++;
      if (idle > 0) {
        idle--;
        held.push({ until: t + lease.durationMs });
        if (measured(lease.arrival)) {
          warm++;
          waits.push(0);
        }
      } else pending.push(lease);
    }
    notePeak(t);
    if (t >= nextTick) nextTick = t + tickMs;
    pass(t);
  }
  return { leases, warm, waits, instanceHours: instanceMs / 3_600_000, creates, coldByKind };
}
