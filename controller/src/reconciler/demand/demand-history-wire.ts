/**
 * The demand history inside the demand object (demand-config-map.ts): hourly buckets as
 * `[arrivals, peak]` pairs, and beside them, in a list of their own, each bucket's arrival crowding
 * (`crowding`, trailing zeros dropped; `null` for a bucket recorded without it). A record written before
 * crowding was counted has no `crowding` list and reads as buckets without it (the forecast takes their
 * peaks as having arrived at once); a controller of that time reads a newer record's buckets and skips
 * the list it does not know. Reading is defensive, as for the whole object: what does not pass its check
 * is dropped with a finding that names the field.
 */
import {
  DEMAND_INTERVAL_MS,
  DEMAND_MAX_BUCKETS,
  MAX_CROWDING,
  MAX_RECENT_ARRIVALS,
  type DemandBucket,
  type DemandHistory,
} from '../../planner';

/** A field of the object that was not used as written. */
export interface DemandFinding {
  /** Where, e.g. `data["demand.json"].buckets[3]`. */
  readonly field: string;
  readonly problem: string;
}

/** Largest count a bucket may hold (a sanity bound, far above any pool). */
const MAX_COUNT = 1_000_000;
/** Clocks may disagree a little; a fact later than this after now is made up. */
export const SKEW_MS = 3_600_000;

export const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_COUNT;
}

/** The history's fields of the object's JSON. */
export function serializeHistory(history: DemandHistory) {
  const crowding = history.buckets.map((b) => (b.crowding ? withoutTrailingZeros(b.crowding) : null));
  return {
    intervalMs: history.intervalMs,
    start: history.start,
    buckets: history.buckets.map((b) => [b.arrivals, b.peak]),
    ...(crowding.some((c) => c !== null) ? { crowding } : {}),
  };
}

function withoutTrailingZeros(counts: readonly number[]): number[] {
  let end = counts.length;
  while (end > 0 && counts[end - 1] === 0) end--;
  return counts.slice(0, end);
}

export function parseHistory(
  v: Record<string, unknown>,
  now: number,
  at: string,
  findings: DemandFinding[],
): DemandHistory | undefined {
  if (v.intervalMs !== DEMAND_INTERVAL_MS) {
    findings.push({
      field: `${at}.intervalMs`,
      problem: `${short(v.intervalMs)} is not ${DEMAND_INTERVAL_MS}`,
    });
    return undefined;
  }
  const start = v.start;
  if (!isTime(start) || start % DEMAND_INTERVAL_MS !== 0) {
    findings.push({ field: `${at}.start`, problem: `${short(start)} is not a time at the start of an hour` });
    return undefined;
  }
  if (!Array.isArray(v.buckets) || v.buckets.length === 0) {
    findings.push({ field: `${at}.buckets`, problem: 'not a non-empty array' });
    return undefined;
  }
  const all = v.buckets as unknown[];
  const kept = all.slice(-DEMAND_MAX_BUCKETS);
  if (all.length > kept.length) {
    findings.push({
      field: `${at}.buckets`,
      problem: `${all.length} buckets, more than ${DEMAND_MAX_BUCKETS}: the oldest dropped`,
    });
  }
  const first = start + (all.length - kept.length) * DEMAND_INTERVAL_MS;
  if (first + (kept.length - 1) * DEMAND_INTERVAL_MS > now) {
    findings.push({ field: `${at}.start`, problem: 'the history ends after now' });
    return undefined;
  }
  const crowding = parseCrowding(v.crowding, all.length, `${at}.crowding`, findings).slice(-kept.length);
  let bad = 0;
  let unmatched = 0;
  const buckets = kept.map((b, i): DemandBucket => {
    const ok = Array.isArray(b) && b.length === 2 && isCount(b[0]) && isCount(b[1]);
    if (!ok) {
      bad++;
      return { arrivals: 0, peak: 0 };
    }
    const bucket = { arrivals: b[0] as number, peak: b[1] as number };
    const counts = crowding[i];
    if (counts === undefined) return bucket;
    // Crowding counts the bucket's arrivals: a list that does not is not this bucket's.
    if (counts.reduce((sum, n) => sum + n, 0) !== bucket.arrivals) {
      unmatched++;
      return bucket;
    }
    return { ...bucket, crowding: counts };
  });
  if (bad > 0)
    findings.push({
      field: `${at}.buckets`,
      problem: `${bad} bucket(s) not [arrivals, peak] counts: zeroed`,
    });
  if (unmatched > 0)
    findings.push({
      field: `${at}.crowding`,
      problem: `${unmatched} entr${unmatched === 1 ? 'y does' : 'ies do'} not sum to the bucket's arrivals: dropped`,
    });
  return { intervalMs: DEMAND_INTERVAL_MS, start: first, buckets };
}

/** The crowding list, one entry per bucket as written (undefined: none); absent in an older record. */
function parseCrowding(
  value: unknown,
  buckets: number,
  at: string,
  findings: DemandFinding[],
): (number[] | undefined)[] {
  const none = Array.from({ length: buckets }, () => undefined);
  if (value === undefined) return none;
  if (!Array.isArray(value) || value.length !== buckets) {
    findings.push({ field: at, problem: `not a list of ${buckets} entries, one per bucket: dropped` });
    return none;
  }
  let bad = 0;
  const parsed = (value as unknown[]).map((entry) => {
    if (entry === null) return undefined;
    if (Array.isArray(entry) && entry.length <= MAX_CROWDING && entry.every(isCount))
      return entry as number[];
    bad++;
    return undefined;
  });
  if (bad > 0)
    findings.push({ field: at, problem: `${bad} entr${bad === 1 ? 'y' : 'ies'} not counts: dropped` });
  return parsed;
}

/** The creation times of the newest arrivals (`recent`), oldest first; none when absent or unreadable. */
export function parseRecentArrivals(
  value: unknown,
  now: number,
  at: string,
  findings: DemandFinding[],
): number[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    findings.push({ field: at, problem: 'not an array' });
    return [];
  }
  const times = (value as unknown[]).slice(-MAX_RECENT_ARRIVALS);
  const kept = times.filter((t): t is number => isTime(t) && t <= now + SKEW_MS);
  if (kept.length !== value.length) {
    findings.push({ field: at, problem: 'entries that are not times, or too many: dropped' });
  }
  return kept.sort((a, b) => a - b);
}

/** A value for a finding, bounded. */
export function short(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
