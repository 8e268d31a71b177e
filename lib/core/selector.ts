/**
 * Kubernetes label selectors (metav1.LabelSelector), evaluated exactly as apimachinery's
 * `LabelSelectorAsSelector` does, because Jumpstarter matches Leases to Exporters that way and the
 * controller must agree with it about which lease a pool can serve.
 *
 * - `matchLabels` and `matchExpressions` are ANDed; `NotIn` and `DoesNotExist` match an absent key.
 * - An empty selector `{}` selects everything; an absent (`undefined`) selector selects nothing.
 * - An invalid selector (unknown operator, wrong values, bad label syntax) selects nothing, as the
 *   API server would fail to build it.
 */
import type { LabelSelector, LabelSelectorOperator } from '../api';
import { RuleMessages } from '../api';
import { ValidationError, type ValidationIssue } from './issue';
import { isPlainObject } from './plain-object';
import { validateLabelKey, validateLabels, validateLabelValue } from './names';
import { fieldPath, indexPath } from './path';

export const SELECTOR_OPERATORS: readonly LabelSelectorOperator[] = ['In', 'NotIn', 'Exists', 'DoesNotExist'];

function isOperator(value: unknown): value is LabelSelectorOperator {
  return (SELECTOR_OPERATORS as readonly unknown[]).includes(value);
}

/**
 * Every rule the API server applies to a label selector, with issues under `path`
 * (`spec.selector.matchExpressions[0].operator`). An absent selector gives no issues: whether one is
 * required is the caller's rule.
 */
export function validateLabelSelector(selector: unknown, path: string): ValidationIssue[] {
  if (selector === undefined || selector === null) return [];
  if (!isPlainObject(selector)) {
    return [
      {
        path,
        value: selector,
        message: 'must be a label selector: an object with matchLabels and/or matchExpressions',
      },
    ];
  }
  const issues = validateLabels(selector.matchLabels, fieldPath(path, 'matchLabels'));
  const expressions = selector.matchExpressions;
  if (expressions === undefined || expressions === null) return issues;
  const expressionsPath = fieldPath(path, 'matchExpressions');
  if (!Array.isArray(expressions)) {
    issues.push({
      path: expressionsPath,
      value: expressions,
      message: 'must be a list of requirements ({key, operator, values})',
    });
    return issues;
  }
  expressions.forEach((expression: unknown, index) => {
    issues.push(...validateRequirement(expression, indexPath(expressionsPath, index)));
  });
  return issues;
}

function validateRequirement(requirement: unknown, path: string): ValidationIssue[] {
  if (!isPlainObject(requirement)) {
    return [
      { path, value: requirement, message: 'must be a requirement object with key, operator and values' },
    ];
  }
  const issues: ValidationIssue[] = [];
  const { key, operator, values } = requirement;
  const keyPath = fieldPath(path, 'key');
  if (key === undefined || key === null) {
    issues.push({ path: keyPath, message: 'is required: the label key the requirement tests' });
  } else {
    for (const message of validateLabelKey(key))
      issues.push({ path: keyPath, value: key, message: `label key ${message}` });
  }
  const operatorPath = fieldPath(path, 'operator');
  if (!isOperator(operator)) {
    issues.push(
      operator === undefined || operator === null
        ? { path: operatorPath, message: RuleMessages.selectorOperator }
        : { path: operatorPath, value: operator, message: RuleMessages.selectorOperator },
    );
  }
  const valuesPath = fieldPath(path, 'values');
  let count = 0;
  if (values !== undefined && values !== null) {
    if (!Array.isArray(values)) {
      issues.push({ path: valuesPath, value: values, message: 'must be a list of label values' });
      return issues;
    }
    count = values.length;
    values.forEach((value: unknown, index) => {
      for (const message of validateLabelValue(value)) {
        issues.push({ path: indexPath(valuesPath, index), value, message: `label value ${message}` });
      }
    });
  }
  if (isOperator(operator)) {
    const needsValues = operator === 'In' || operator === 'NotIn';
    if (needsValues !== count > 0) {
      issues.push(
        values === undefined || values === null
          ? { path: valuesPath, message: RuleMessages.selectorValues }
          : { path: valuesPath, value: values, message: RuleMessages.selectorValues },
      );
    }
  }
  return issues;
}

/**
 * Whether `labels` satisfy `selector`. `{}` matches everything; `undefined` and invalid selectors
 * match nothing (see the module doc).
 */
export function matchesSelector(
  selector: LabelSelector | undefined,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  if (selector === undefined || selector === null) return false;
  if (validateLabelSelector(selector, '').length > 0) return false;
  const present = labels ?? {};
  const has = (key: string): boolean => Object.prototype.hasOwnProperty.call(present, key);
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (value === undefined) continue; // vanishes when serialized
    if (!has(key) || present[key] !== value) return false;
  }
  for (const { key, operator, values = [] } of selector.matchExpressions ?? []) {
    const found = has(key);
    const ok =
      operator === 'In'
        ? found && values.includes(present[key])
        : operator === 'NotIn'
          ? !found || !values.includes(present[key])
          : operator === 'Exists'
            ? found
            : !found;
    if (!ok) return false;
  }
  return true;
}

/**
 * The selector in Kubernetes' string form, as `status.selector` carries it for the `/scale`
 * subresource and `kubectl get -l` reads it: requirements sorted by key, `a=b`, `c in (x,y)`,
 * `d notin (x)`, `e`, `!f`, joined by commas; values sorted. `{}` and `undefined` give `""`.
 * Throws a ValidationError for an invalid selector (validate first).
 */
export function selectorToString(selector: LabelSelector | undefined): string {
  if (selector === undefined || selector === null) return '';
  const issues = validateLabelSelector(selector, 'selector');
  if (issues.length > 0) throw new ValidationError('label selector', issues);
  const requirements: { key: string; text: string }[] = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (value === undefined) continue;
    requirements.push({ key, text: `${key}=${value}` });
  }
  for (const { key, operator, values = [] } of selector.matchExpressions ?? []) {
    const list = `(${[...values].sort().join(',')})`;
    const text =
      operator === 'In'
        ? `${key} in ${list}`
        : operator === 'NotIn'
          ? `${key} notin ${list}`
          : operator === 'Exists'
            ? key
            : `!${key}`;
    requirements.push({ key, text });
  }
  // Array.prototype.sort is stable, so requirements on one key keep their order (labels first).
  requirements.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return requirements.map((r) => r.text).join(',');
}
