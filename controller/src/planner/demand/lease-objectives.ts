/**
 * Lease-wait objectives: what `status.leaseWait` and `status.startupP95Seconds` say,
 * from the facts the reconciler's demand recorder keeps (demand-record.ts).
 *
 * A served lease (one assigned an instance of the set) is *warm* when that instance was Online before
 * the lease was created — it did not boot for this lease — and *cold* otherwise. Its wait is created →
 * assigned (0 when served at once).
 *
 * The window is the last 24 hours rounded down to the hour, so `windowStart` moves once an hour, not at
 * every pass; p95 is rounded to whole seconds and the ratio to two decimals, so a status write happens
 * only when what a reader sees changes (SPEC §3.15).
 */
import type { ExporterSetStatus, LeaseWaitStatus } from 'virtual-exporters/internal';
import type { ServedLease } from '../model/demand-samples';
import type { PlannerSnapshot } from '../model/snapshot';
import { toMillis, toTimestamp } from '../model/time';
import { HOUR_MS } from './forecast';

export const LEASE_WAIT_WINDOW_MS = 24 * 3_600_000;

/** The window's start at `now`: 24 h earlier, rounded down to the hour. */
export function leaseWaitWindowStart(now: number): number {
  return Math.floor((now - LEASE_WAIT_WINDOW_MS) / HOUR_MS) * HOUR_MS;
}

/** The nearest-rank 95th percentile; undefined for no values. */
export function p95(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(0.95 * sorted.length) - 1)];
}

/** A served lease's wait, ms (never negative: clocks may disagree). */
export function waitMs(lease: ServedLease): number {
  return Math.max(0, lease.begin - lease.created);
}

/** `status.leaseWait` for the leases served in the window at `now`; undefined when none was. */
export function leaseWaitStatus(served: readonly ServedLease[], now: number): LeaseWaitStatus | undefined {
  const start = leaseWaitWindowStart(now);
  const inWindow = served.filter((l) => l.begin >= start);
  if (inWindow.length === 0) return undefined;
  const wait = p95(inWindow.map(waitMs)) ?? 0;
  const warm = inWindow.filter((l) => l.warm).length;
  return {
    windowStart: toTimestamp(start),
    leases: inWindow.length,
    p95Seconds: Math.round(wait / 1000),
    warmHitRatio: Math.round((warm / inWindow.length) * 100) / 100,
  };
}

/** The objective fields of the status. */
export type ObjectiveFields = Pick<ExporterSetStatus, 'leaseWait' | 'startupP95Seconds'>;

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/**
 * The status's objective fields: from the recorder's facts when the snapshot has them
 * (`servedLeases`, `startupP95Ms`), else the ones the status has (well-formed ones only), so a
 * controller that could not read its history yet rewrites nothing.
 */
export function objectiveFields(snapshot: PlannerSnapshot): ObjectiveFields {
  const { servedLeases, startupP95Ms, now } = snapshot;
  if (servedLeases !== undefined) {
    const leaseWait = leaseWaitStatus(servedLeases, now);
    return {
      ...(leaseWait !== undefined ? { leaseWait } : {}),
      ...(startupP95Ms !== undefined ? { startupP95Seconds: Math.round(startupP95Ms / 1000) } : {}),
    };
  }
  const status = snapshot.set.status;
  const kept = status?.leaseWait as Partial<Record<keyof LeaseWaitStatus, unknown>> | undefined;
  const ratio = kept?.warmHitRatio;
  const leaseWait =
    kept !== undefined &&
    typeof kept === 'object' &&
    toMillis(kept.windowStart as string) !== undefined &&
    isCount(kept.leases)
      ? {
          windowStart: kept.windowStart as string,
          leases: kept.leases,
          ...(isCount(kept.p95Seconds) ? { p95Seconds: kept.p95Seconds } : {}),
          ...(typeof ratio === 'number' && ratio >= 0 && ratio <= 1 ? { warmHitRatio: ratio } : {}),
        }
      : undefined;
  const startup: unknown = status?.startupP95Seconds;
  return {
    ...(leaseWait !== undefined ? { leaseWait } : {}),
    ...(isCount(startup) ? { startupP95Seconds: startup } : {}),
  };
}
