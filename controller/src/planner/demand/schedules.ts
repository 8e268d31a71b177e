/**
 * Scheduled warm buffers, evaluated at `now`: which of `spec.schedules`' windows are open
 * (an occurrence of the cron, in the schedule's zone, at or before now, and now before it plus the
 * duration), which opens next, and which raise the warm buffer now. A window raises from its lead
 * time before it opens (pre-warming, so its instances are ready, not booting, when it opens) until it
 * closes. The lead is the schedule's `leadTime`; else the pool's measured p95 startup time; else
 * {@link DEFAULT_LEAD_MS}.
 *
 * Pure: the cron library reads expressions through lib/core/cron.ts, as the synth-time validation
 * does. An entry that breaks a rule of its own (admission bypassed, or a CRD without our rules) is left
 * out and reported (`ignored`); the others still apply.
 */
import {
  DEFAULT_SCHEDULE_TIME_ZONE,
  indexPath,
  occurrenceAfter,
  occurrenceAtOrBefore,
  parseDuration,
  scheduleEntryIssues,
  SCHEDULES_PATH,
  type ValidationIssue,
  type WarmBufferSchedule,
} from 'virtual-exporters/internal';
import type { BufferRaise } from './warm-buffer-raise';

/** The lead time when a schedule names none and no startup time was measured yet. */
export const DEFAULT_LEAD_MS = 2 * 60_000;

/** One window of a schedule (epoch ms). */
export interface ScheduleWindow {
  readonly name: string;
  readonly opensAt: number;
  readonly closesAt: number;
}

/** The next window to open, and when its raise starts. */
export interface NextWindow extends ScheduleWindow {
  readonly warmFrom: number;
}

export interface ScheduleEvaluation {
  /** Windows open at `now`, by name. */
  readonly active: readonly ScheduleWindow[];
  /** The window that opens first after `now` (ties: the first name). */
  readonly next?: NextWindow;
  /** The raises of the windows open or within their lead time (warm-buffer-raise.ts). */
  readonly raises: readonly BufferRaise[];
  /** The issues of the entries left out. */
  readonly ignored: readonly ValidationIssue[];
  /** The first time after `now` when the evaluation changes (a window warms, opens or closes). */
  readonly nextChangeAt?: number;
}

const NONE: ScheduleEvaluation = { active: [], raises: [], ignored: [] };

/** The lead of a schedule: its own, else the measured p95 startup, else the default. */
export function leadTimeMs(schedule: WarmBufferSchedule, startupP95Ms: number | undefined): number {
  if (schedule.leadTime !== undefined) return parseDuration(schedule.leadTime);
  return startupP95Ms !== undefined && Number.isFinite(startupP95Ms) && startupP95Ms >= 0
    ? startupP95Ms
    : DEFAULT_LEAD_MS;
}

/** `spec.schedules` (any wire value) at `now`. */
export function evaluateSchedules(
  schedules: unknown,
  now: number,
  startupP95Ms: number | undefined,
): ScheduleEvaluation {
  if (!Array.isArray(schedules) || schedules.length === 0) {
    return schedules === undefined || schedules === null || Array.isArray(schedules)
      ? NONE
      : { ...NONE, ignored: [{ path: SCHEDULES_PATH, value: schedules, message: 'must be a list' }] };
  }
  const active: ScheduleWindow[] = [];
  const raises: BufferRaise[] = [];
  const ignored: ValidationIssue[] = [];
  const changes: number[] = [];
  let next: NextWindow | undefined;
  schedules.forEach((entry: unknown, i) => {
    const issues = scheduleEntryIssues(entry, indexPath(SCHEDULES_PATH, i));
    if (issues.length > 0) {
      ignored.push(...issues);
      return;
    }
    const schedule = entry as WarmBufferSchedule;
    const zone = schedule.timeZone ?? DEFAULT_SCHEDULE_TIME_ZONE;
    const durationMs = parseDuration(schedule.duration);
    const leadMs = leadTimeMs(schedule, startupP95Ms);
    const { name } = schedule;

    const last = occurrenceAtOrBefore(schedule.cron, zone, now);
    const open = last !== undefined && now < last + durationMs;
    if (open) {
      active.push({ name, opensAt: last, closesAt: last + durationMs });
      changes.push(last + durationMs);
    }
    const upcoming = occurrenceAfter(schedule.cron, zone, now);
    let warming = false;
    if (upcoming !== undefined) {
      const window = {
        name,
        opensAt: upcoming,
        closesAt: upcoming + durationMs,
        warmFrom: upcoming - leadMs,
      };
      warming = now >= window.warmFrom;
      changes.push(warming ? upcoming : window.warmFrom, upcoming);
      if (next === undefined || upcoming < next.opensAt || (upcoming === next.opensAt && name < next.name)) {
        next = window;
      }
    }
    if (open || warming) {
      raises.push({
        source: 'schedule',
        name,
        minAvailable: schedule.minAvailableReplicas,
        ...(schedule.minReplicas !== undefined ? { minReplicas: schedule.minReplicas } : {}),
      });
    }
  });
  const due = changes.filter((t) => t > now);
  return {
    active: active.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.opensAt - b.opensAt)),
    ...(next !== undefined ? { next } : {}),
    raises,
    ignored,
    ...(due.length > 0 ? { nextChangeAt: Math.min(...due) } : {}),
  };
}
