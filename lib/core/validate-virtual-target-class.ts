/**
 * Every rule the VirtualTargetClass CRD applies, for synth time and for the controller.
 * Checks the schema only; whether the provisioner exists and accepts the parameters is
 * validate-references' job.
 */
import { API_VERSION, Kinds, RuleMessages, type BindingMode, type ReclaimPolicy } from '../api';
import type { ValidationIssue } from './issue';
import { IssueCollector } from './issue-collector';
import { isPlainObject } from './plain-object';
import { checkImages } from './validate-images';
import { checkScheduling } from './validate-scheduling';
import { checkObjectMeta, checkTypeMeta } from './validate-object-meta';

export const BINDING_MODES: readonly BindingMode[] = ['Immediate', 'WaitForFirstConsumer'];
export const RECLAIM_POLICIES: readonly ReclaimPolicy[] = ['Delete', 'Retain'];

/** Issues for a VirtualTargetClass wire object; `[]` when valid. Never throws, whatever `obj` is. */
export function validateVirtualTargetClass(obj: unknown): ValidationIssue[] {
  const issues = new IssueCollector();
  if (!isPlainObject(obj)) {
    issues.add('', `must be a ${Kinds.VirtualTargetClass} object`, obj);
    return issues.issues;
  }
  checkTypeMeta(issues, obj, API_VERSION, Kinds.VirtualTargetClass);
  checkObjectMeta(issues, obj.metadata);
  const spec = issues.object(obj.spec, 'spec', 'a class needs at least a provisioner');
  if (!spec) return issues.issues;

  issues.string(spec.provisioner, 'spec.provisioner', {
    required: 'the provisioner that realises instances, e.g. qemu.jumpstarter.dev',
    nonEmpty: true,
  });
  if (!isPlainObjectOrAbsent(spec.parameters)) {
    issues.add('spec.parameters', RuleMessages.parametersObject, spec.parameters);
  }
  issues.shallow(spec.parameters, 'spec.parameters');
  const credentials = issues.object(spec.credentialsSecretRef, 'spec.credentialsSecretRef');
  // Upstream defaults the name to "" and accepts it, so only the type is checked.
  if (credentials) issues.string(credentials.name, 'spec.credentialsSecretRef.name');
  issues.oneOf(spec.bindingMode, 'spec.bindingMode', BINDING_MODES);
  issues.oneOf(spec.reclaimPolicy, 'spec.reclaimPolicy', RECLAIM_POLICIES);
  checkScheduling(issues, spec.scheduling, 'spec.scheduling');
  const caBundle = issues.object(spec.caBundleConfigMapRef, 'spec.caBundleConfigMapRef');
  if (caBundle) {
    issues.string(caBundle.name, 'spec.caBundleConfigMapRef.name', {
      required: 'the ConfigMap that holds the CA bundle',
      nonEmpty: true,
    });
    issues.string(caBundle.key, 'spec.caBundleConfigMapRef.key');
  }
  checkImages(issues, spec.images, 'spec.images');
  return issues.issues;
}

function isPlainObjectOrAbsent(value: unknown): boolean {
  return value === undefined || value === null || isPlainObject(value);
}
