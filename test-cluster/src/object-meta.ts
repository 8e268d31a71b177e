/**
 * ObjectMeta rules the API server applies to every kind on create and update: which fields are the
 * server's, which empty fields count as absent, and the validation of names, labels, annotations,
 * finalizers and ownerReferences (422 causes).
 */
import {
  validateAnnotations,
  validateDns1123Label,
  validateDns1123Subdomain,
  validateLabels,
} from 'virtual-exporters/internal';
import { invalidCause } from './api-errors';
import { isJsonMap } from './json-values';
import type { AdmissionCause, KubeObject, ResourceType } from './types';

/** ObjectMeta fields only the server sets; an update cannot change them. */
export const SERVER_FIELDS = [
  'uid',
  'name',
  'namespace',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'generation',
  'resourceVersion',
] as const;
/** ObjectMeta fields serialized with omitempty: an empty list or map is the same as none. */
export const OMIT_EMPTY = ['labels', 'annotations', 'finalizers', 'ownerReferences'] as const;

/** Kubernetes' name rule per kind: DNS labels for namespaces, path segments for RBAC, DNS subdomains else. */
function nameProblems(rt: ResourceType, name: string): string[] {
  if (rt.group === '' && rt.plural === 'namespaces') return validateDns1123Label(name);
  if (rt.group === 'rbac.authorization.k8s.io') {
    if (name === '.' || name === '..') return ['may not be "." or ".."'];
    return /[/%]/.test(name) ? ['may not contain "/" or "%"'] : [];
  }
  return validateDns1123Subdomain(name);
}

/** The 422 causes of `object`'s metadata; `withName` also checks the name (on create: names never change). */
export function metadataCauses(rt: ResourceType, object: KubeObject, withName: boolean): AdmissionCause[] {
  const meta = object.metadata;
  const causes: AdmissionCause[] = [];
  if (withName) {
    for (const m of nameProblems(rt, meta.name ?? ''))
      causes.push(invalidCause('metadata.name', meta.name, m));
  }
  for (const issue of [
    ...validateLabels(meta.labels, 'metadata.labels'),
    ...validateAnnotations(meta.annotations, 'metadata.annotations'),
  ]) {
    causes.push(invalidCause(issue.path, issue.value, issue.message));
  }
  if (
    meta.finalizers !== undefined &&
    (!Array.isArray(meta.finalizers) || meta.finalizers.some((f) => typeof f !== 'string' || f === ''))
  ) {
    causes.push(invalidCause('metadata.finalizers', meta.finalizers, 'must be a list of non-empty strings'));
  }
  const owners = meta.ownerReferences;
  if (owners !== undefined) {
    if (!Array.isArray(owners))
      causes.push(invalidCause('metadata.ownerReferences', owners, 'must be a list'));
    else {
      owners.forEach((o, i) => {
        for (const field of ['apiVersion', 'kind', 'name', 'uid'] as const) {
          if (!isJsonMap(o) || typeof o[field] !== 'string' || o[field] === '') {
            causes.push(
              invalidCause(
                `metadata.ownerReferences[${i}].${field}`,
                isJsonMap(o) ? (o[field] ?? '') : o,
                `${field} must not be empty`,
              ),
            );
          }
        }
      });
      if (owners.filter((o) => isJsonMap(o) && o.controller === true).length > 1) {
        causes.push(
          invalidCause(
            'metadata.ownerReferences',
            owners,
            'Only one reference can have Controller set to true',
          ),
        );
      }
    }
  }
  return causes;
}
