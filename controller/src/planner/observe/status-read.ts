/**
 * §3.19 bounds, for the status the controller reads back: `nextOrdinal`, `startupFailures`,
 * `lastStartupFailureTime`, `scaleDownWindowStart`, `scaleDownTarget`, `templateRevision` and
 * `conditions` carry state from pass to pass, and anyone allowed to patch the status subresource (or a
 * CRD installed without our bounds) can write anything there. The status is read here, once per pass:
 * a value of the wrong type or out of range is dropped, so the pass recomputes it (the next ordinal from
 * the names in use), and a time in the future — one another clock wrote, §3.17 — is clamped to now.
 * Each correction is reported by an event naming the field, the value and what is used instead; the
 * pass then writes the corrected status, so a tampered field is reported once.
 */
import {
  describeValue,
  EventReasons,
  ExporterSetStatusBounds as B,
  type Condition,
  type ExporterSetStatus,
} from 'virtual-exporters/internal';
import type { PlanEvent } from '../model/events';
import { toMillis, toTimestamp } from '../model/time';
import { listOf } from '../model/wire-guards';

/** A status field that was not used as written. */
export interface StatusCorrection {
  /** `status.<field>`. */
  readonly field: string;
  /** The value as written, in JSON (cut short: `describeValue`). */
  readonly value: string;
  /** What was wrong, and what is used instead. */
  readonly used: string;
}

export interface ReadStatus {
  /** The status with every read-back field valid (or absent, to be recomputed). */
  readonly status: ExporterSetStatus | undefined;
  readonly corrections: readonly StatusCorrection[];
}

type Fields = Record<string, unknown>;

function isCount(value: unknown, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max;
}

/**
 * The status with its read-back fields checked against `now` (see the module doc). `nextOrdinal`'s
 * correction says only that it is recomputed: observe.ts names the value once it knows it.
 */
export function readStatus(raw: unknown, now: number): ReadStatus {
  if (raw === undefined || raw === null) return { status: undefined, corrections: [] };
  const corrections: StatusCorrection[] = [];
  const fix = (field: string, value: unknown, used: string): void => {
    corrections.push({ field: `status.${field}`, value: describeValue(value), used });
  };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    fix('', raw, 'not an object; the status is recomputed');
    return { status: undefined, corrections };
  }
  const status: Fields = { ...(raw as Fields) };
  const drop = (field: string, used: string): void => {
    fix(field, status[field], used);
    delete status[field];
  };

  if (status.nextOrdinal !== undefined && !isCount(status.nextOrdinal, B.nextOrdinal)) {
    drop('nextOrdinal', `not an integer from 0 to ${B.nextOrdinal}; recomputed from the names in use`);
  }
  if (status.startupFailures !== undefined && !isCount(status.startupFailures, B.startupFailures)) {
    const value = status.startupFailures;
    const clamped = typeof value === 'number' && value > B.startupFailures ? B.startupFailures : undefined;
    if (clamped === undefined) drop('startupFailures', 'not a count; 0 is used');
    else {
      fix('startupFailures', value, `above ${B.startupFailures}; ${B.startupFailures} is used`);
      status.startupFailures = clamped;
    }
  }
  if (status.scaleDownTarget !== undefined && !isCount(status.scaleDownTarget, B.startupFailures)) {
    drop('scaleDownTarget', "not a count; the window's target is recomputed");
  }
  for (const field of ['lastStartupFailureTime', 'scaleDownWindowStart'] as const) {
    const value = status[field];
    if (value === undefined) continue;
    const ms = typeof value === 'string' || value instanceof Date ? toMillis(value) : undefined;
    if (ms === undefined) drop(field, 'not a timestamp; it is dropped');
    else if (ms > now) {
      fix(field, value, `in the future by this controller's clock; now (${toTimestamp(now)}) is used`);
      status[field] = toTimestamp(now);
    }
  }
  const revision = status.templateRevision;
  if (revision !== undefined && (typeof revision !== 'string' || revision.length > B.templateRevision)) {
    drop('templateRevision', 'not a label value; recomputed from the template');
  }
  if (status.conditions !== undefined) {
    const conditions = listOf<Condition>(status.conditions).filter(
      (c) => typeof c.type === 'string' && typeof c.status === 'string',
    );
    if (!Array.isArray(status.conditions) || conditions.length !== status.conditions.length) {
      fix('conditions', status.conditions, 'entries without a type and status are dropped');
    }
    status.conditions = conditions;
  }
  return { status: status as unknown as ExporterSetStatus, corrections };
}

/** One Warning event per corrected field. */
export function correctionEvents(corrections: readonly StatusCorrection[]): PlanEvent[] {
  return corrections.map((c) => ({
    type: 'Warning',
    reason: EventReasons.StatusCorrected,
    message: `${c.field} was ${c.value}: ${c.used}`,
  }));
}
