/**
 * Cron expressions and IANA time zones for scheduled warm buffers, read by the `cron-parser`
 * library: the synth-time validation and the controller's window evaluation both go through here, so
 * they agree on what an expression means.
 *
 * The accepted dialect is Kubernetes CronJob's: five fields (minute hour day-of-month month
 * day-of-week) or one of the macros @yearly, @annually, @monthly, @weekly, @daily, @hourly. Not
 * accepted, though the library reads them: a seconds field (six fields) and `H` (a hashed, "random"
 * value — the controller and a reader of the manifest would have to agree on its seed).
 */
import { CronExpressionParser, type CronExpression } from 'cron-parser';

/** The macros Kubernetes CronJobs accept. */
export const CRON_MACROS = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@hourly'] as const;

/**
 * The shape of an accepted expression, for CEL `matches()` and JS alike (no backslashes, see
 * duration.ts): a macro, or five fields separated by spaces. The library checks the fields.
 */
export const CRON_SHAPE_PATTERN = '^(@(yearly|annually|monthly|weekly|daily|hourly)|[^ ]+( +[^ ]+){4})$';
const CRON_SHAPE = new RegExp(CRON_SHAPE_PATTERN);

/**
 * The shape of an IANA time zone name (`UTC`, `Europe/Berlin`, `America/Argentina/Buenos_Aires`,
 * `Etc/GMT+1`); whether the zone exists is `isTimeZone`'s to say.
 */
export const TIME_ZONE_PATTERN = '^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*$';
const TIME_ZONE_SHAPE = new RegExp(TIME_ZONE_PATTERN);

/** Whether `zone` names a time zone of the tz database this runtime knows. */
export function isTimeZone(zone: string): boolean {
  if (!TIME_ZONE_SHAPE.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A parsed expression, or the reason the text is not one. */
export type CronParse =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

/** Whether one comma-separated part of a field uses `H` (cron-parser's hashed value; `THU` does not). */
const usesHash = (field: string): boolean => field.split(',').some((part) => part.startsWith('H'));

/** Checks `text` as an expression of the accepted dialect (time-zone independent). */
export function parseCron(text: string): CronParse {
  if (!CRON_SHAPE.test(text)) {
    return {
      ok: false,
      reason: 'it is not five fields (minute hour day-of-month month day-of-week) or a macro such as @daily',
    };
  }
  if (!text.startsWith('@') && text.split(/ +/).some(usesHash)) {
    return { ok: false, reason: 'H (a hashed value) is not supported; write the value itself' };
  }
  try {
    CronExpressionParser.parse(text, { tz: 'UTC', currentDate: 0 });
    return { ok: true, text };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

function expression(text: string, zone: string, at: number): CronExpression {
  return CronExpressionParser.parse(text, { tz: zone, currentDate: new Date(at) });
}

/**
 * The latest occurrence at or before `at` (epoch ms) in `zone`; undefined when there is none.
 *
 * Occurrences are the ones the library's forward iteration lists: on a daylight-saving day a time
 * that does not exist is moved to the first time after the gap, and a time that occurs twice occurs
 * once (the first). The library's backward iteration disagrees on those days (it skips the moved time
 * and takes the second of a repeated one), so it only finds a start from which to walk forward.
 */
export function occurrenceAtOrBefore(text: string, zone: string, at: number): number | undefined {
  try {
    const back = expression(text, zone, at + 1);
    back.prev();
    for (let step = 0; step < 4; step++) {
      // Two occurrences back by the backward iteration is before the forward one's latest, bar a
      // gap shorter than a daylight-saving shift; then one more step back is tried.
      const start = back.prev().getTime();
      const forward = expression(text, zone, start - 1);
      let latest: number | undefined;
      for (let next = forward.next().getTime(); next <= at; next = forward.next().getTime()) latest = next;
      if (latest !== undefined) return latest;
    }
    return undefined;
  } catch {
    return undefined;
  }
}

/** The first occurrence strictly after `at` (epoch ms) in `zone`; undefined when there is none. */
export function occurrenceAfter(text: string, zone: string, at: number): number | undefined {
  try {
    return expression(text, zone, at).next().getTime();
  } catch {
    return undefined;
  }
}

/** How far the shortest-gap scan looks: enough occurrences for a year of a daily expression, ≤ 9 years. */
const GAP_SCAN_OCCURRENCES = 400;
const GAP_SCAN_HORIZON_MS = 9 * 366 * 24 * 3600 * 1000;
/** A fixed start, so the answer never depends on when it is asked. */
const GAP_SCAN_START = Date.UTC(2001, 0, 1);
const gapCache = new Map<string, number>();
const GAP_CACHE_SIZE = 512;

/**
 * The shortest gap (ms) between consecutive occurrences of `text`, as a wall clock counts it (read in
 * UTC, so a daylight-saving shift does not make a daily expression's period 23 h); Infinity when it
 * occurs at most once in the scan. The expression must be valid (`parseCron`). Cached per text: the
 * controller asks on every pass.
 */
export function shortestGapMs(text: string): number {
  const cached = gapCache.get(text);
  if (cached !== undefined) return cached;
  let shortest = Infinity;
  try {
    const it = expression(text, 'UTC', GAP_SCAN_START);
    let previous = it.next().getTime();
    for (let i = 1; i < GAP_SCAN_OCCURRENCES; i++) {
      const next = it.next().getTime();
      shortest = Math.min(shortest, next - previous);
      if (next - GAP_SCAN_START > GAP_SCAN_HORIZON_MS) break;
      previous = next;
    }
  } catch {
    // No further occurrence: the gaps seen so far are all there are.
  }
  if (gapCache.size >= GAP_CACHE_SIZE) gapCache.clear();
  gapCache.set(text, shortest);
  return shortest;
}
