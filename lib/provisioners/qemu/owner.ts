import { JUMPSTARTER_API_VERSION, Kinds, type Exporter, type OwnerReference } from '../../api';
import type { ValidationIssue } from '../../core/issue';

/**
 * The controller reference every per-instance object carries: deleting the Exporter garbage-collects
 * its Pod and config Secret. Undefined when the Exporter has no name or uid yet.
 */
export function exporterOwnerReference(exporter: Exporter): OwnerReference | undefined {
  const { name, uid } = exporter.metadata ?? {};
  if (!name || !uid) return undefined;
  return {
    apiVersion: JUMPSTARTER_API_VERSION,
    kind: Kinds.Exporter,
    name,
    uid,
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** Why an Exporter cannot own rendered objects yet, if it cannot. */
export function ownerIssues(exporter: Exporter): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (!exporter.metadata?.name) {
    issues.push({
      path: 'exporter.metadata.name',
      message: 'the Exporter needs a name: it names the Pod and config Secret',
    });
  }
  if (!exporter.metadata?.uid) {
    issues.push({
      path: 'exporter.metadata.uid',
      message:
        'the Exporter must exist in the cluster (have a uid) before its Pod and config Secret are rendered, as they are owned by it',
    });
  }
  return issues;
}
