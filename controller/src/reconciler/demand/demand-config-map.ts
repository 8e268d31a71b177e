/**
 * The demand history's own object: a ConfigMap `<set>-demand` in the set's namespace,
 * labelled with the set, controlled by it (so it goes when the set goes), holding the set's demand
 * record (demand-record.ts) as one JSON value under {@link DEMAND_DATA_KEY}. It holds lease and
 * Exporter uids and times, never a credential.
 *
 * Anyone with write access to ConfigMaps can edit it, so reading is defensive: the text is bounded
 * before parsing, every field is type- and range-checked, arrays are cut to their bounds, and what
 * does not pass is dropped with a finding that names the field — the recorder logs them with the
 * object's name and replaces the object at its next write. Parsing never throws.
 */
import { API_VERSION, Kinds, Labels, type ExporterSet } from 'virtual-exporters/internal';
import {
  DEMAND_INTERVAL_MS,
  DEMAND_MAX_BUCKETS,
  MAX_LAST_ARRIVAL_UIDS,
  MAX_SERVED,
  MAX_STARTUPS,
  emptyRecord,
  type DemandBucket,
  type DemandHistory,
  type DemandRecord,
  type ServedLease,
  type StartupSample,
} from '../../planner';

export const DEMAND_DATA_KEY = 'demand.json';
export const DEMAND_RECORD_VERSION = 1;
/** Longest data value read (the record's bounds make a few hundred KB at most). */
export const MAX_DEMAND_TEXT = 512 * 1024;
const MAX_UID = 128;
/** Largest count a bucket may hold (a sanity bound, far above any pool). */
const MAX_COUNT = 1_000_000;

/** The ConfigMap's name: the set's name (at most 63 characters) and `-demand`. */
export function demandObjectName(setName: string): string {
  return `${setName}-demand`;
}

/** A field of the object that was not used as written. */
export interface DemandFinding {
  /** Where, e.g. `data["demand.json"].buckets[3]`. */
  readonly field: string;
  readonly problem: string;
}

export interface ParsedDemand {
  readonly record: DemandRecord;
  readonly findings: readonly DemandFinding[];
}

/** The ConfigMap body for `record` (its metadata makes it the set's; its data the record). */
export function demandObject(set: ExporterSet, record: DemandRecord) {
  const name = set.metadata?.name ?? '';
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: demandObjectName(name),
      namespace: set.metadata?.namespace ?? '',
      labels: { [Labels.exporterSetName]: name },
      ownerReferences: [
        {
          apiVersion: API_VERSION,
          kind: Kinds.ExporterSet,
          name,
          uid: set.metadata?.uid ?? '',
          controller: true,
        },
      ],
    },
    data: { [DEMAND_DATA_KEY]: serializeDemand(record) },
  };
}

/** The record as compact JSON: buckets as `[arrivals, peak]`, facts as tuples. */
export function serializeDemand(record: DemandRecord): string {
  const { history } = record;
  return JSON.stringify({
    version: DEMAND_RECORD_VERSION,
    intervalMs: history.intervalMs,
    start: history.start,
    buckets: history.buckets.map((b) => [b.arrivals, b.peak]),
    ...(record.lastArrival !== undefined ? { lastArrival: record.lastArrival } : {}),
    startups: record.startups.map((s) => [s.uid, s.at, s.ms]),
    served: record.served.map((s) => [s.uid, s.created, s.begin, s.warm ? 1 : 0]),
  });
}

/** Whether the ConfigMap is controlled by the set (by uid): only then is it read or written. */
export function isSetsObject(
  object: { metadata?: { ownerReferences?: readonly unknown[] } } | undefined,
  set: ExporterSet,
): boolean {
  const uid = set.metadata?.uid;
  const refs = object?.metadata?.ownerReferences;
  return (
    uid !== undefined &&
    Array.isArray(refs) &&
    refs.some(
      (r) =>
        typeof r === 'object' &&
        r !== null &&
        (r as { uid?: unknown }).uid === uid &&
        (r as { controller?: unknown }).controller === true,
    )
  );
}

const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
/** Clocks may disagree a little; a fact later than this after now is made up. */
const SKEW_MS = 3_600_000;
/** The longest startup kept (a sanity bound: the startup timeout is minutes). */
const MAX_STARTUP_MS = 7 * 24 * 3_600_000;
const isUid = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_UID;

/**
 * The record in `data` of the object, as of `now`: what passes the checks, with a finding for each field
 * that did not. Absent or unreadable data gives an empty record.
 */
export function parseDemand(data: unknown, now: number): ParsedDemand {
  const findings: DemandFinding[] = [];
  const at = `data["${DEMAND_DATA_KEY}"]`;
  const fresh = emptyRecord(now);
  const text =
    typeof data === 'object' && data !== null
      ? (data as Record<string, unknown>)[DEMAND_DATA_KEY]
      : undefined;
  if (text === undefined) return { record: fresh, findings };
  if (typeof text !== 'string') return { record: fresh, findings: [{ field: at, problem: 'not a string' }] };
  if (text.length > MAX_DEMAND_TEXT) {
    return {
      record: fresh,
      findings: [{ field: at, problem: `${text.length} characters, more than the ${MAX_DEMAND_TEXT} read` }],
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { record: fresh, findings: [{ field: at, problem: `not JSON (${(error as Error).message})` }] };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { record: fresh, findings: [{ field: at, problem: 'not a JSON object' }] };
  }
  const v = value as Record<string, unknown>;
  if (v.version !== DEMAND_RECORD_VERSION) {
    return {
      record: fresh,
      findings: [{ field: `${at}.version`, problem: `${short(v.version)} is not ${DEMAND_RECORD_VERSION}` }],
    };
  }
  const history = parseHistory(v, now, at, findings) ?? fresh.history;
  const lastArrival = parseLastArrival(v.lastArrival, now, `${at}.lastArrival`, findings);
  const past = (t: unknown): t is number => isTime(t) && t <= now + SKEW_MS;
  const startups = parseTuples(
    v.startups,
    MAX_STARTUPS,
    `${at}.startups`,
    findings,
    (t): StartupSample | undefined =>
      isUid(t[0]) && past(t[1]) && isTime(t[2]) && t[2] <= MAX_STARTUP_MS
        ? { uid: t[0], at: t[1], ms: t[2] }
        : undefined,
  );
  const served = parseTuples(v.served, MAX_SERVED, `${at}.served`, findings, (t): ServedLease | undefined =>
    isUid(t[0]) && past(t[1]) && past(t[2]) && (t[3] === 0 || t[3] === 1)
      ? { uid: t[0], name: '', created: t[1], begin: t[2], warm: t[3] === 1 }
      : undefined,
  );
  return {
    record: {
      history,
      ...(lastArrival !== undefined ? { lastArrival } : {}),
      startups: [...startups].sort((a, b) => a.at - b.at),
      served: [...served].sort((a, b) => a.begin - b.begin),
    },
    findings,
  };
}

function parseHistory(
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
  let bad = 0;
  const buckets = kept.map((b): DemandBucket => {
    const ok = Array.isArray(b) && b.length === 2 && isCount(b[0]) && isCount(b[1]);
    if (!ok) bad++;
    return ok ? { arrivals: b[0] as number, peak: b[1] as number } : { arrivals: 0, peak: 0 };
  });
  if (bad > 0)
    findings.push({
      field: `${at}.buckets`,
      problem: `${bad} bucket(s) not [arrivals, peak] counts: zeroed`,
    });
  return { intervalMs: DEMAND_INTERVAL_MS, start: first, buckets };
}

function isCount(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_COUNT;
}

function parseLastArrival(
  value: unknown,
  now: number,
  at: string,
  findings: DemandFinding[],
): DemandRecord['lastArrival'] {
  if (value === undefined) return undefined;
  const v = value as { at?: unknown; uids?: unknown };
  if (typeof value !== 'object' || value === null || !isTime(v.at) || !Array.isArray(v.uids)) {
    findings.push({ field: at, problem: 'not {at, uids}' });
    return undefined;
  }
  if (v.at > now) {
    findings.push({ field: `${at}.at`, problem: 'after now' });
    return undefined;
  }
  const uids = (v.uids as unknown[]).slice(-MAX_LAST_ARRIVAL_UIDS).filter(isUid);
  if (uids.length !== (v.uids as unknown[]).length) {
    findings.push({ field: `${at}.uids`, problem: 'entries that are not uids, or too many: dropped' });
  }
  return { at: v.at, uids };
}

function parseTuples<T>(
  value: unknown,
  max: number,
  at: string,
  findings: DemandFinding[],
  parse: (tuple: readonly unknown[]) => T | undefined,
): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    findings.push({ field: at, problem: 'not an array' });
    return [];
  }
  const all = value as unknown[];
  const kept = all.slice(-max);
  if (all.length > max)
    findings.push({ field: at, problem: `${all.length} entries, more than ${max}: the oldest dropped` });
  const parsed: T[] = [];
  let bad = 0;
  for (const item of kept) {
    const one = Array.isArray(item) ? parse(item) : undefined;
    if (one === undefined) bad++;
    else parsed.push(one);
  }
  if (bad > 0)
    findings.push({ field: at, problem: `${bad} malformed entr${bad === 1 ? 'y' : 'ies'} dropped` });
  return parsed;
}

/** A value for a finding, bounded. */
function short(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
