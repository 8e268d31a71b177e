/**
 * The parts of a wire object every kind shares: `apiVersion`, `kind` and `metadata`, checked as the
 * API server would before our own rules run.
 */
import type { IssueCollector } from './issue-collector';
import { validateAnnotations, validateDns1123Label, validateDns1123Subdomain, validateLabels } from './names';
import { fieldPath } from './path';

/** `apiVersion` and `kind`, when given, must name the expected kind. */
export function checkTypeMeta(
  issues: IssueCollector,
  object: Record<string, unknown>,
  apiVersion: string,
  kind: string,
): void {
  if (object.apiVersion !== undefined && object.apiVersion !== apiVersion) {
    issues.add('apiVersion', `must be ${apiVersion}`, object.apiVersion);
  }
  if (object.kind !== undefined && object.kind !== kind) {
    issues.add('kind', `must be ${kind}`, object.kind);
  }
}

/**
 * `metadata`: a name that is a DNS-1123 subdomain (or a `generateName`), a namespace that is a DNS-1123
 * label when given (namespaced kinds may leave it to `kubectl apply`'s context), valid labels and
 * annotations. Returns the metadata object when it is one.
 */
export function checkObjectMeta(
  issues: IssueCollector,
  metadata: unknown,
): Record<string, unknown> | undefined {
  const meta = issues.object(metadata, 'metadata', 'the object needs at least a name');
  if (!meta) return undefined;
  const generateName = issues.string(meta.generateName, 'metadata.generateName');
  if (meta.name === undefined || meta.name === null) {
    if (generateName === undefined) issues.add('metadata.name', 'is required: give the object a name');
  } else {
    for (const message of validateDns1123Subdomain(meta.name))
      issues.add('metadata.name', message, meta.name);
  }
  if (meta.namespace !== undefined && meta.namespace !== null) {
    for (const message of validateDns1123Label(meta.namespace)) {
      issues.add('metadata.namespace', message, meta.namespace);
    }
  }
  issues.addAll(validateLabels(meta.labels, fieldPath('metadata', 'labels')));
  issues.addAll(validateAnnotations(meta.annotations, fieldPath('metadata', 'annotations')));
  return meta;
}
