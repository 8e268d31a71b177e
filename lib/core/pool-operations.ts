/**
 * The pool-operation fields of an ExporterSet: the scale-in order, the update strategy and
 * the requested recycle — their allowed values, the rules the CRD applies to them (same messages), and
 * how the controller reads them (a percentage of the pool as a count).
 */
import { RuleMessages, type IntOrPercent, type ScaleInBasePolicy, type UpdateStrategyType } from '../api';
import { ExporterSetBounds as Bounds } from './bounds';
import type { ValidationIssue } from './issue';
import { isAbsent, IssueCollector } from './issue-collector';
import { isPlainObject } from './plain-object';
import { indexPath } from './path';
import { validateLabelSelector } from './selector';

export const SCALE_IN_BASE_POLICIES: readonly ScaleInBasePolicy[] = ['Oldest', 'Newest', 'Random'];
export const UPDATE_STRATEGY_TYPES: readonly UpdateStrategyType[] = [
  'Proactive',
  'Opportunistic',
  'Unmanaged',
];

/** The percentages maxSurge and maxUnavailable accept: 0% to 100% (the CRD's rule). */
export const UPDATE_PERCENT_PATTERN = '^(100|[1-9]?[0-9])%$';
const UPDATE_PERCENT = new RegExp(UPDATE_PERCENT_PATTERN);

/**
 * RFC 3339 with a time zone, as the CRD's `format: date-time` admits it: kube-apiserver (kube-openapi)
 * takes a real date, `T` or `t`, hh:mm:ss with hh ≤ 23, mm ≤ 59 and ss ≤ 59, an optional fraction, and
 * `Z`, `z` or ±hh:mm — no space for the `T`, no offset without its colon, no February 30th and no
 * hour 24, all of which `Date.parse` takes. Synth time also refuses what the API server would take but
 * `Date.parse` (the controller's reading) cannot: a fraction after another mark than `.`, an offset
 * beyond ±23:59.
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d+)?(z|[+-]\d{2}:\d{2})$/;

/** The synth-time wording of the CRD's `format: date-time` on recycleRequestedAt. */
export const RECYCLE_REQUESTED_AT_MESSAGE =
  'recycleRequestedAt must be an RFC 3339 time with a time zone, such as 2026-11-26T18:00:00Z';

/** Whether `text` is a real calendar date written YYYY-MM-DD. */
function isCalendarDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return days !== undefined && day >= 1 && day <= days;
}

/** Whether `text` is an RFC 3339 time with a zone that the API server admits and the controller reads. */
export function isRfc3339(text: string): boolean {
  const [date, time, ...rest] = text.toLowerCase().split('t');
  return (
    rest.length === 0 &&
    time !== undefined &&
    isCalendarDate(date) &&
    TIME.test(time) &&
    !Number.isNaN(Date.parse(text))
  );
}

/**
 * An int-or-percent as a count of `total`: a percentage rounds up for a surge and down for
 * unavailability (as Kubernetes' Deployments do). Undefined for a value the CRD refuses.
 */
export function scaledCount(value: IntOrPercent, total: number, roundUp: boolean): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : undefined;
  if (!UPDATE_PERCENT.test(value)) return undefined;
  const exact = (Number(value.slice(0, -1)) / 100) * total;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

/** Issues of spec.scaleInStrategy, spec.updateStrategy and spec.recycleRequestedAt; the CRD's messages. */
export function checkPoolOperations(issues: IssueCollector, spec: Record<string, unknown>): void {
  checkScaleInStrategy(issues, spec.scaleInStrategy);
  checkUpdateStrategy(issues, spec.updateStrategy);
  const at = spec.recycleRequestedAt;
  if (!isAbsent(at) && (typeof at !== 'string' || !isRfc3339(at))) {
    issues.add('spec.recycleRequestedAt', RECYCLE_REQUESTED_AT_MESSAGE, at);
  }
}

function checkScaleInStrategy(issues: IssueCollector, value: unknown): void {
  const path = 'spec.scaleInStrategy';
  const strategy = issues.object(value, path);
  if (!strategy) return;
  issues.oneOf(strategy.basePolicy, `${path}.basePolicy`, SCALE_IN_BASE_POLICIES);
  const selectors = issues.list(strategy.selectors, `${path}.selectors`);
  if (!selectors) return;
  if (selectors.length > Bounds.scaleInSelectors) {
    issues.add(
      `${path}.selectors`,
      `must have at most ${Bounds.scaleInSelectors} selectors`,
      selectors.length,
    );
    return;
  }
  selectors.forEach((selector, i) => {
    const at = indexPath(`${path}.selectors`, i);
    issues.addAll([...selectorSizeIssues(selector, at), ...validateLabelSelector(selector, at)]);
  });
}

/** The bounds the CRD puts on each scale-in selector (as on spec.selector). */
function selectorSizeIssues(selector: unknown, path: string): ValidationIssue[] {
  if (!isPlainObject(selector)) return [];
  const found: ValidationIssue[] = [];
  const labels = isPlainObject(selector.matchLabels) ? Object.keys(selector.matchLabels).length : 0;
  if (labels > Bounds.selectorMatchLabels) {
    found.push({
      path: `${path}.matchLabels`,
      value: labels,
      message: `must have at most ${Bounds.selectorMatchLabels} labels`,
    });
  }
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions.length : 0;
  if (expressions > Bounds.selectorMatchExpressions) {
    found.push({
      path: `${path}.matchExpressions`,
      value: expressions,
      message: `must have at most ${Bounds.selectorMatchExpressions} requirements`,
    });
  }
  return found;
}

function checkUpdateStrategy(issues: IssueCollector, value: unknown): void {
  const path = 'spec.updateStrategy';
  const strategy = issues.object(value, path);
  if (!strategy) return;
  const before = issues.issues.length;
  const type = issues.oneOf(strategy.type, `${path}.type`, UPDATE_STRATEGY_TYPES);
  const surge = intOrPercent(issues, strategy.maxSurge, `${path}.maxSurge`, RuleMessages.maxSurgeValue);
  const unavailable = intOrPercent(
    issues,
    strategy.maxUnavailable,
    `${path}.maxUnavailable`,
    RuleMessages.maxUnavailableValue,
  );
  // Like the API server: the object's rules run only when its fields are valid.
  if (issues.issues.length > before) return;
  const proactive = type === undefined || type === 'Proactive';
  if (!proactive && (surge !== undefined || unavailable !== undefined)) {
    issues.add(path, RuleMessages.updateStrategyProactiveOnly, strategy);
  }
  if (isZero(surge) && isZero(unavailable))
    issues.add(path, RuleMessages.updateStrategyNotBothZero, strategy);
}

/** A count ≥ 0 or a percentage 0%–100%; undefined when absent or refused. */
function intOrPercent(
  issues: IssueCollector,
  value: unknown,
  path: string,
  message: string,
): IntOrPercent | undefined {
  if (isAbsent(value)) return undefined;
  if (typeof value === 'number' && !Number.isInteger(value)) {
    issues.add(path, 'must be a whole number or a percentage string such as 25%', value);
    return undefined;
  }
  if (typeof value !== 'number' && typeof value !== 'string') {
    issues.add(path, 'must be a whole number or a percentage string such as 25%', value);
    return undefined;
  }
  const fits =
    typeof value === 'number'
      ? value >= 0
      : value.length <= Bounds.updatePercent && UPDATE_PERCENT.test(value);
  if (!fits) {
    issues.add(path, message, value);
    return undefined;
  }
  return value;
}

function isZero(value: IntOrPercent | undefined): boolean {
  return value === 0 || value === '0%';
}
