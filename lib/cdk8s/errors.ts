import type { IConstruct } from 'constructs';
import { describeValue, type ValidationIssue } from '../core/issue';

/** Maps a wire path (`spec.template.metadata.labels.board`) to the prop a user wrote. */
export type PropPathMapper = (wirePath: string) => string;

/**
 * One line per issue: `<prop>=<value>: <rule>`. cdk8s prefixes validation errors with the construct
 * path; `constructError` adds it for errors thrown from a constructor.
 */
export function issueLines(issues: readonly ValidationIssue[], toProp: PropPathMapper): string[] {
  return issues.map((i) => {
    const value = 'value' in i ? `=${describeValue(i.value)}` : '';
    return `${toProp(i.path)}${value}: ${i.message}`;
  });
}

/** An error naming the construct path, each prop, its value and the rule it breaks. */
export function constructError(
  scope: IConstruct,
  kind: string,
  issues: readonly ValidationIssue[],
  toProp: PropPathMapper,
): Error {
  const lines = issueLines(issues, toProp);
  const head = `[${scope.node.path}] invalid ${kind}`;
  return new Error(lines.length === 1 ? `${head}: ${lines[0]}` : `${head}:\n  ${lines.join('\n  ')}`);
}
