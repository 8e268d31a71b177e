import { describeValue, type ValidationIssue } from '../core/issue';

/** Maps a wire path (`spec.template.metadata.labels.board`) to the prop a user wrote (`template.labels.board`). */
export type PropPathMapper = (wirePath: string) => string;

/**
 * One line per issue: `<prop>=<value>: <rule>`. Both front ends print these lines, so a rule reads the
 * same in a cdk8s synth and in a `pulumi up`; only the prefix naming the construct or component differs.
 */
export function issueLines(issues: readonly ValidationIssue[], toProp: PropPathMapper): string[] {
  return issues.map((i) => {
    const value = 'value' in i ? `=${describeValue(i.value)}` : '';
    return `${toProp(i.path)}${value}: ${i.message}`;
  });
}

/**
 * `[<where>] invalid <Kind>: <line>`, or one indented line per issue when there are several. `where`
 * is how the user finds the culprit: the cdk8s construct path, or the Pulumi component's type and name.
 */
export function invalidArgsMessage(where: string, kind: string, lines: readonly string[]): string {
  const head = `[${where}] invalid ${kind}`;
  return lines.length === 1 ? `${head}: ${lines[0]}` : `${head}:\n  ${lines.join('\n  ')}`;
}
