/**
 * §3.13 spec checks: what SpecValid reports — a selector that does not select the template labels, and
 * a spec that breaks the set's own rules (a set admitted by a CRD without our rules: a name too long
 * for the set label, template labels or annotations Kubernetes refuses), which would otherwise retry
 * creates the API server always refuses; and the rules `spec.schedules` breaks, which stop nothing.
 * The gates that follow from them are decide/gates.ts.
 */
import {
  formatIssue,
  RuleMessages,
  SCHEDULES_PATH,
  validateExporterSet,
  type ExporterSet,
  type ValidationIssue,
} from 'virtual-exporters/internal';

/** Findings shown in a condition, at most; the rest are counted. */
const MAX_SHOWN_FINDINGS = 5;

/** What SpecValid reports. */
export interface SpecChecks {
  readonly selectorMatchesTemplate: boolean;
  /** The set's own rules it breaks (validateExporterSet), formatted; undefined when it keeps them. */
  readonly invalidSpec?: string;
  /**
   * The rules `spec.schedules` breaks, formatted: they stop no create (schedules.ts leaves out the
   * entries it cannot read and caps the rest), so the pool keeps its static buffer meanwhile.
   */
  readonly scheduleFindings?: string;
}

/** Issues as one message: the first few, and how many more. */
function findings(issues: readonly ValidationIssue[]): string | undefined {
  if (issues.length === 0) return undefined;
  const shown = issues.slice(0, MAX_SHOWN_FINDINGS).map(formatIssue).join('; ');
  const more = issues.length > MAX_SHOWN_FINDINGS ? `; and ${issues.length - MAX_SHOWN_FINDINGS} more` : '';
  return `${shown}${more}`;
}

/**
 * Whether the selector selects the template labels, and the set's own rules it breaks. The mismatch is
 * the cause only when the selector and the labels are valid (validateExporterSet says so only then): an
 * invalid key or value is reported as what it is, naming the key and the rule.
 */
export function specChecks(set: ExporterSet): SpecChecks {
  const found = validateExporterSet(set);
  const isMismatch = (issue: ValidationIssue) =>
    issue.path === 'spec.selector' && issue.message === RuleMessages.selectorMatchesTemplate;
  const isSchedule = (issue: ValidationIssue) =>
    issue.path === SCHEDULES_PATH || issue.path.startsWith(`${SCHEDULES_PATH}[`);
  const invalidSpec = findings(found.filter((issue) => !isMismatch(issue) && !isSchedule(issue)));
  const scheduleFindings = findings(found.filter(isSchedule));
  return {
    selectorMatchesTemplate: !found.some(isMismatch),
    ...(invalidSpec !== undefined ? { invalidSpec } : {}),
    ...(scheduleFindings !== undefined ? { scheduleFindings } : {}),
  };
}
