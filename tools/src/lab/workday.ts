/**
 * What the `workday` profile asks of the pools: warm-buffer schedules for the busy hours of the
 * simulated day and a forecast, written into each set's spec (`spec.schedules`, `spec.forecast`) as
 * plain objects, so the lab shows the controller getting ahead of the day's demand.
 *
 * The day is played in wall time (the load phase is one day), but the controller reads its schedules
 * by the real clock: each window becomes a cron expression for the wall-clock minute it opens at (UTC),
 * with the window's wall length as its duration. Cron counts whole minutes, so the lab starts the day
 * on a whole minute, and a window opens on the minute nearest its hour (exact when the day's hours are
 * whole minutes, as with the profile's default 720 s day: an hour is 30 s, and the windows open on even
 * hours).
 */
import { formatDuration } from 'virtual-exporters/internal';
import { UNBOUNDED_CAPACITY } from './load-profile';

/** A busy window of the simulated day and the warm buffer it asks for, as a share of the pool's capacity. */
export interface WorkdayWindow {
  readonly name: string;
  readonly openHour: number;
  readonly hours: number;
  readonly share: number;
}

export const WORKDAY_WINDOWS: readonly WorkdayWindow[] = [
  { name: 'nightly', openHour: 2, hours: 1, share: 0.8 },
  { name: 'working-hours', openHour: 8, hours: 10, share: 0.6 },
];

/** The forecast the pools get: computed and shown in status and metrics, without raising the buffer. */
export const WORKDAY_FORECAST = { mode: 'ForecastOnly' } as const;

/** One `spec.schedules[]` entry (the field's wire shape; the CRD defines it). */
export interface LabSchedule {
  readonly name: string;
  readonly cron: string;
  readonly duration: string;
  readonly timeZone: string;
  readonly minAvailableReplicas: number;
}

/** The pool's planning fields the lab writes into its set. */
export interface PoolPlanning {
  readonly schedules?: readonly LabSchedule[];
  readonly forecast?: Readonly<Record<string, unknown>>;
}

/** Where the simulated day lies in wall time. */
export interface WallDay {
  /** Wall ms (epoch) of the day's 00:00; a whole minute. */
  readonly startMs: number;
  /** Wall ms the day lasts. */
  readonly lengthMs: number;
}

export const MINUTE_MS = 60_000;

/** A cron expression (minute hour day-of-month month day-of-week) firing at `ms`'s UTC minute. */
export function cronAt(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCMinutes()} ${d.getUTCHours()} ${d.getUTCDate()} ${d.getUTCMonth() + 1} *`;
}

/** The warm buffer a window asks of a pool: its share of the capacity, never below the pool's own, never above the ceiling. */
export function windowBuffer(
  window: WorkdayWindow,
  pool: { readonly minAvailableReplicas: number; readonly maxReplicas: number },
): number {
  const capacity = pool.maxReplicas > 0 ? pool.maxReplicas : UNBOUNDED_CAPACITY;
  const raised = Math.max(pool.minAvailableReplicas, Math.ceil(window.share * capacity));
  return pool.maxReplicas > 0 ? Math.min(pool.maxReplicas, raised) : raised;
}

/** The schedules and forecast of one pool for the simulated day `day`. */
export function workdayPlanning(
  pool: { readonly minAvailableReplicas: number; readonly maxReplicas: number },
  day: WallDay,
): PoolPlanning {
  const hourMs = day.lengthMs / 24;
  const schedules = WORKDAY_WINDOWS.flatMap((window): LabSchedule[] => {
    const opens = day.startMs + Math.round((window.openHour * hourMs) / MINUTE_MS) * MINUTE_MS;
    const closes = day.startMs + (window.openHour + window.hours) * hourMs;
    if (closes <= opens) return [];
    return [
      {
        name: window.name,
        cron: cronAt(opens),
        duration: formatDuration(Math.max(1000, Math.round((closes - opens) / 1000) * 1000)),
        timeZone: 'UTC',
        minAvailableReplicas: windowBuffer(window, pool),
      },
    ];
  });
  return { schedules, forecast: { ...WORKDAY_FORECAST } };
}
