/**
 * A validation finding: where (a JSON-ish path such as `spec.template.spec.drivers[1].name`), the
 * offending value, and the rule in words. Where a CRD CEL rule exists, `message` is its exact text,
 * so synth time, admission and the controller all say the same thing.
 */
export interface ValidationIssue {
  readonly path: string;
  readonly value?: unknown;
  readonly message: string;
}

/** Renders a value for a message: short, JSON-like, never multi-line. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** `path: message (got value)` — the one-line form used in errors, conditions and logs. */
export function formatIssue(issue: ValidationIssue): string {
  const got = 'value' in issue ? ` (got ${describeValue(issue.value)})` : '';
  return `${issue.path}: ${issue.message}${got}`;
}

/** Prefixes every issue's path, e.g. to place parameter issues under `spec.parameters`. */
export function prefixIssues(prefix: string, issues: readonly ValidationIssue[]): ValidationIssue[] {
  return issues.map((i) => ({ ...i, path: i.path ? `${prefix}.${i.path}` : prefix }));
}

/** Thrown where a caller wants one error for a list of issues. */
export class ValidationError extends Error {
  constructor(
    readonly subject: string,
    readonly issues: readonly ValidationIssue[],
  ) {
    super(`${subject} is invalid:\n${issues.map((i) => `  - ${formatIssue(i)}`).join('\n')}`);
    this.name = 'ValidationError';
  }
}
