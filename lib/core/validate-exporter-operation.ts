/**
 * Every rule the ExporterOperation CRD applies, for synth time: the same checks and, for the CEL
 * rules, the same messages (OperationRuleMessages), so an operation a front end accepts is admitted.
 */
import {
  API_VERSION,
  Kinds,
  OperationNames,
  OperationRuleMessages as M,
  PROVISIONER_OPERATION_PATTERN,
} from '../api';
import { ExporterOperationBounds as Bounds } from './bounds';
import type { ValidationIssue } from './issue';
import { IssueCollector } from './issue-collector';
import { isPlainObject } from './plain-object';
import { keyPath } from './path';
import { validateLabelSelector } from './selector';
import { checkObjectMeta, checkTypeMeta } from './validate-object-meta';

const PROVISIONER_OPERATION = new RegExp(PROVISIONER_OPERATION_PATTERN);
const INT64_MAX = Number.MAX_SAFE_INTEGER;

/** Whether admission accepts `name` as an operation: one of ours, or `<provisioner-domain>/<Name>`. */
export function isValidOperationName(name: string): boolean {
  return (OperationNames as readonly string[]).includes(name) || PROVISIONER_OPERATION.test(name);
}

/** Issues for an ExporterOperation wire object; `[]` when valid. Never throws, whatever `obj` is. */
export function validateExporterOperation(obj: unknown): ValidationIssue[] {
  const issues = new IssueCollector();
  if (!isPlainObject(obj)) {
    issues.add('', `must be an ${Kinds.ExporterOperation} object`, obj);
    return issues.issues;
  }
  checkTypeMeta(issues, obj, API_VERSION, Kinds.ExporterOperation);
  checkObjectMeta(issues, obj.metadata);
  const spec = issues.object(obj.spec, 'spec', 'an operation needs at least operation and a target');
  if (!spec) return issues.issues;

  const operation = issues.string(spec.operation, 'spec.operation', {
    required: 'Recycle, Disable, Enable or Drain',
    nonEmpty: true,
  });
  if (operation !== undefined) {
    if (operation.length > Bounds.operation) {
      issues.add('spec.operation', `must be at most ${Bounds.operation} characters`, operation);
    } else if (!isValidOperationName(operation)) {
      issues.add('spec.operation', M.operationName, operation);
    }
  }
  for (const field of ['exporterName', 'exporterSetName'] as const) {
    const value = issues.string(spec[field], `spec.${field}`, { nonEmpty: true });
    if (value !== undefined && value.length > Bounds.objectName) {
      issues.add(`spec.${field}`, `must be at most ${Bounds.objectName} characters`, value);
    }
  }
  if ((spec.exporterName !== undefined) === (spec.exporterSetName !== undefined)) {
    issues.add('spec', M.oneTarget);
  }
  if (spec.selector !== undefined && spec.exporterSetName === undefined) {
    issues.add('spec.selector', M.selectorNeedsSet, spec.selector);
  }
  issues.addAll(validateLabelSelector(spec.selector, 'spec.selector'));
  const parameters = issues.stringMap(spec.parameters, 'spec.parameters');
  if (parameters !== undefined) {
    const entries = Object.entries(parameters);
    if (entries.length > Bounds.parameters) {
      issues.add('spec.parameters', `must have at most ${Bounds.parameters} entries`, entries.length);
    }
    for (const [key, value] of entries) {
      if (value.length > Bounds.parameterValue) {
        issues.add(
          keyPath('spec.parameters', key),
          `must be at most ${Bounds.parameterValue} characters`,
          value,
        );
      }
    }
  }
  issues.integer(spec.activeDeadlineSeconds, 'spec.activeDeadlineSeconds', { min: 1, max: INT64_MAX });
  issues.integer(spec.ttlSecondsAfterFinished, 'spec.ttlSecondsAfterFinished', { min: 0, max: INT64_MAX });
  return issues.issues;
}
