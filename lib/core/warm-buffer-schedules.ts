/**
 * Scheduled warm buffers: the rules on `spec.schedules`. The CRD checks what CEL can (names
 * unique and DNS labels, the cron's shape, durations, the zone's shape, counts within maxReplicas)
 * with the same messages; what only the cron library can tell (the expression's fields, the zone
 * exists, the window closes before the next one opens) is checked here, at synth time and in the
 * controller, which ignores a schedule that breaks a rule (the pool keeps its static buffer).
 */
import { RuleMessages } from '../api';
import { ExporterSetBounds as Bounds } from './bounds';
import { isTimeZone, parseCron, shortestGapMs, TIME_ZONE_PATTERN, CRON_SHAPE_PATTERN } from './cron';
import { formatDuration, GO_DURATION_RANGE_PATTERN, tryParseDuration } from './duration';
import type { ValidationIssue } from './issue';
import { INT32_MAX, IssueCollector } from './issue-collector';
import { fieldPath, indexPath } from './path';

/** The zone a schedule's cron is read in when it names none. */
export const DEFAULT_SCHEDULE_TIME_ZONE = 'UTC';

/** A schedule's name: a DNS label. */
export const SCHEDULE_NAME_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
/** CEL: a duration holds a non-zero digit (the range pattern guarantees the rest is digits and units). */
export const NONZERO_DURATION_PATTERN = '[1-9]';

const NAME = new RegExp(SCHEDULE_NAME_PATTERN);
const DURATION = new RegExp(GO_DURATION_RANGE_PATTERN);
const NONZERO = new RegExp(NONZERO_DURATION_PATTERN);
const CRON_SHAPE = new RegExp(CRON_SHAPE_PATTERN);
const ZONE_SHAPE = new RegExp(TIME_ZONE_PATTERN);

export const SCHEDULES_PATH = 'spec.schedules';

/**
 * The issues of one `spec.schedules` entry on its own (not the ones between entries or with the
 * spec's maxReplicas); `[]` when the controller can use it.
 */
export function scheduleEntryIssues(entry: unknown, path: string): ValidationIssue[] {
  const issues = new IssueCollector();
  const schedule = issues.listEntry(entry, path);
  if (!schedule) return issues.issues;
  const at = (f: string) => fieldPath(path, f);

  const name = issues.string(schedule.name, at('name'), {
    required: 'status and events name the window by it',
  });
  if (name !== undefined && !tooLong(issues, name, at('name'), Bounds.scheduleName) && !NAME.test(name)) {
    issues.add(at('name'), RuleMessages.scheduleName, name);
  }
  issues.integer(schedule.minAvailableReplicas, at('minAvailableReplicas'), {
    min: 0,
    max: INT32_MAX,
    required: 'the warm buffer while the window is open',
  });
  issues.integer(schedule.minReplicas, at('minReplicas'), { min: 0, max: INT32_MAX });

  const zone = issues.string(schedule.timeZone, at('timeZone'));
  const zoneOk =
    zone === undefined ||
    (!tooLong(issues, zone, at('timeZone'), Bounds.scheduleTimeZone) &&
      checkZone(issues, zone, at('timeZone')));

  const durationMs = durationOf(issues, schedule.duration, at('duration'), {
    required: 'how long each window lasts, such as 8h',
    message: RuleMessages.scheduleDuration,
    positive: true,
  });
  durationOf(issues, schedule.leadTime, at('leadTime'), { message: RuleMessages.scheduleLeadTime });

  const cron = issues.string(schedule.cron, at('cron'), {
    required: 'when each window opens, such as "0 8 * * 1-5"',
  });
  if (cron === undefined || tooLong(issues, cron, at('cron'), Bounds.scheduleCron)) return issues.issues;
  if (!CRON_SHAPE.test(cron)) {
    issues.add(at('cron'), RuleMessages.scheduleCron, cron);
    return issues.issues;
  }
  const parsed = parseCron(cron);
  if (!parsed.ok) {
    issues.add(
      at('cron'),
      `is not a cron expression the controller can read (${parsed.reason}); ${RuleMessages.scheduleCron}`,
      cron,
    );
    return issues.issues;
  }
  if (durationMs !== undefined && zoneOk) {
    const gap = shortestGapMs(cron);
    if (durationMs > gap) {
      issues.add(
        at('duration'),
        `is longer than the shortest gap between occurrences of cron ${JSON.stringify(cron)} (${formatDuration(gap)}), so the window would never close: make it at most ${formatDuration(gap)}, or open windows less often`,
        schedule.duration,
      );
    }
  }
  return issues.issues;
}

/**
 * Issues of `spec.schedules`: each entry (scheduleEntryIssues), the list's bound, unique names, and
 * counts within `maxReplicas` (the spec's, after defaulting; 0 or unknown skips the rule).
 */
export function checkSchedules(
  issues: IssueCollector,
  value: unknown,
  maxReplicas: number | undefined,
): void {
  const schedules = issues.list(value, SCHEDULES_PATH);
  if (!schedules) return;
  if (schedules.length > Bounds.schedules) {
    issues.add(SCHEDULES_PATH, `must have at most ${Bounds.schedules} schedules`, schedules.length);
    return;
  }
  const seen = new Set<string>();
  schedules.forEach((entry, i) => {
    const path = indexPath(SCHEDULES_PATH, i);
    const found = scheduleEntryIssues(entry, path);
    issues.addAll(found);
    if (found.length > 0) return;
    const s = entry as { name: string; minAvailableReplicas: number; minReplicas?: number };
    if (seen.has(s.name)) {
      issues.add(fieldPath(path, 'name'), RuleMessages.scheduleNamesUnique, s.name);
    }
    seen.add(s.name);
    if (maxReplicas === undefined || maxReplicas === 0) return;
    if (s.minAvailableReplicas > maxReplicas) {
      issues.add(
        fieldPath(path, 'minAvailableReplicas'),
        RuleMessages.scheduleMinAvailableLeMax,
        s.minAvailableReplicas,
      );
    }
    if (s.minReplicas !== undefined && s.minReplicas !== null && s.minReplicas > maxReplicas) {
      issues.add(fieldPath(path, 'minReplicas'), RuleMessages.scheduleMinReplicasLeMax, s.minReplicas);
    }
  });
}

/** The zone's shape (the CRD's rule), then whether the tz database has it; true when it is usable. */
function checkZone(issues: IssueCollector, zone: string, path: string): boolean {
  if (!ZONE_SHAPE.test(zone)) {
    issues.add(path, RuleMessages.scheduleTimeZone, zone);
    return false;
  }
  if (!isTimeZone(zone)) {
    issues.add(path, `is not a time zone of the tz database; ${RuleMessages.scheduleTimeZone}`, zone);
    return false;
  }
  return true;
}

/** A schedule duration's milliseconds; undefined (and an issue, unless absent and optional) otherwise. */
function durationOf(
  issues: IssueCollector,
  value: unknown,
  path: string,
  rule: { readonly required?: string; readonly message: string; readonly positive?: boolean },
): number | undefined {
  const text = issues.string(value, path, rule.required !== undefined ? { required: rule.required } : {});
  if (text === undefined || tooLong(issues, text, path, Bounds.scheduleDuration)) return undefined;
  const ms = DURATION.test(text) ? tryParseDuration(text) : undefined;
  if (ms === undefined) {
    issues.add(path, rule.message, text);
    return undefined;
  }
  if (rule.positive && (!NONZERO.test(text) || ms <= 0)) {
    issues.add(path, RuleMessages.scheduleDurationPositive, text);
    return undefined;
  }
  return ms;
}

/** Reports a string over its CRD maxLength; true when it did. */
function tooLong(issues: IssueCollector, value: string, path: string, max: number): boolean {
  if (value.length <= max) return false;
  issues.add(path, `must be at most ${max} characters long`, value);
  return true;
}
