import type { IConstruct } from 'constructs';
import type { ValidationIssue } from '../core/issue';
import { invalidArgsMessage, issueLines, type PropPathMapper } from '../manifests/messages';

/**
 * An error naming the construct path, each prop, its value and the rule it breaks. Errors found at
 * synth (`node.addValidation`) are the bare `issueLines`: cdk8s prefixes those with the path itself.
 */
export function constructError(
  scope: IConstruct,
  kind: string,
  issues: readonly ValidationIssue[],
  toProp: PropPathMapper,
): Error {
  return new Error(invalidArgsMessage(scope.node.path, kind, issueLines(issues, toProp)));
}
