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
  MAX_LAST_ARRIVAL_UIDS,
  MAX_SERVED,
  MAX_STARTUPS,
  emptyRecord,
  type DemandRecord,
  type ServedLease,
  type StartupSample,
} from '../../planner';
import {
  SKEW_MS,
  isTime,
  parseHistory,
  parseRecentArrivals,
  serializeHistory,
  short,
  type DemandFinding,
} from './demand-history-wire';

export type { DemandFinding } from './demand-history-wire';

export const DEMAND_DATA_KEY = 'demand.json';
export const DEMAND_RECORD_VERSION = 1;
/** Longest data value read (the record's bounds make a few hundred KB at most). */
export const MAX_DEMAND_TEXT = 512 * 1024;
const MAX_UID = 128;

/** The ConfigMap's name: the set's name (at most 63 characters) and `-demand`. */
export function demandObjectName(setName: string): string {
  return `${setName}-demand`;
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

/**
 * The record as compact JSON: buckets as `[arrivals, peak]` with their crowding beside them
 * (demand-history-wire.ts), facts as tuples.
 */
export function serializeDemand(record: DemandRecord): string {
  return JSON.stringify({
    version: DEMAND_RECORD_VERSION,
    ...serializeHistory(record.history),
    ...(record.lastArrival !== undefined ? { lastArrival: record.lastArrival } : {}),
    ...(record.recentArrivals?.length ? { recent: record.recentArrivals } : {}),
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
  const recentArrivals = parseRecentArrivals(v.recent, now, `${at}.recent`, findings);
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
      ...(recentArrivals.length > 0 ? { recentArrivals } : {}),
      startups: [...startups].sort((a, b) => a.at - b.at),
      served: [...served].sort((a, b) => a.begin - b.begin),
    },
    findings,
  };
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
