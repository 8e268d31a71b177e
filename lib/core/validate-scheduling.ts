/**
 * A class's `scheduling`: the schema's types, plus the rules the API server applies to the Pod fields
 * they are copied into (node selector labels, toleration operators and effects), because a class that
 * breaks those can never produce a Pod: better said at synth time than as a failed create.
 */
import type { IssueCollector } from './issue-collector';
import { validateLabelKey, validateLabels, validateLabelValue } from './names';
import { fieldPath, indexPath, keyPath } from './path';
import { isQuantity } from './quantity';

export const TOLERATION_OPERATORS: readonly string[] = ['Equal', 'Exists'];
export const TOLERATION_EFFECTS: readonly string[] = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

export function checkScheduling(issues: IssueCollector, value: unknown, path: string): void {
  const scheduling = issues.object(value, path);
  if (!scheduling) return;
  const nodeSelectorPath = fieldPath(path, 'nodeSelector');
  if (issues.stringMap(scheduling.nodeSelector, nodeSelectorPath)) {
    issues.addAll(validateLabels(scheduling.nodeSelector, nodeSelectorPath));
  }
  const tolerationsPath = fieldPath(path, 'tolerations');
  issues.list(scheduling.tolerations, tolerationsPath)?.forEach((item, index) => {
    checkToleration(issues, item, indexPath(tolerationsPath, index));
  });
  checkResources(issues, scheduling.resources, fieldPath(path, 'resources'));
  issues.object(scheduling.affinity, fieldPath(path, 'affinity'));
  issues.shallow(scheduling.affinity, fieldPath(path, 'affinity'));
  issues.string(scheduling.priorityClassName, fieldPath(path, 'priorityClassName'));
  issues.string(scheduling.runtimeClassName, fieldPath(path, 'runtimeClassName'));
}

/** core/v1 Toleration, as Pod validation checks it. */
function checkToleration(issues: IssueCollector, item: unknown, path: string): void {
  const toleration = issues.listEntry(item, path);
  if (!toleration) return;
  const key = issues.string(toleration.key, fieldPath(path, 'key'));
  const operatorPath = fieldPath(path, 'operator');
  const operator = issues.string(toleration.operator, operatorPath);
  const value = issues.string(toleration.value, fieldPath(path, 'value'));
  const effectPath = fieldPath(path, 'effect');
  const effect = issues.string(toleration.effect, effectPath);
  const seconds = issues.integer(toleration.tolerationSeconds, fieldPath(path, 'tolerationSeconds'));
  if (key) {
    for (const message of validateLabelKey(key))
      issues.add(fieldPath(path, 'key'), `toleration key ${message}`, key);
  }
  if (operator && !TOLERATION_OPERATORS.includes(operator)) {
    issues.add(
      operatorPath,
      `must be one of ${TOLERATION_OPERATORS.join(', ')} (empty means Equal)`,
      operator,
    );
  }
  const exists = operator === 'Exists';
  const keyReadable = toleration.key === undefined || toleration.key === null || key !== undefined;
  if (keyReadable && !key && !exists) {
    issues.add(
      operatorPath,
      'must be Exists when the key is empty (that tolerates every taint)',
      operator ?? '',
    );
  }
  if (exists && value) {
    issues.add(fieldPath(path, 'value'), 'must be empty when the operator is Exists', value);
  } else if ((operator === undefined || operator === '' || operator === 'Equal') && value) {
    for (const message of validateLabelValue(value)) {
      issues.add(fieldPath(path, 'value'), `toleration value ${message}`, value);
    }
  }
  if (effect && !TOLERATION_EFFECTS.includes(effect)) {
    issues.add(
      effectPath,
      `must be one of ${TOLERATION_EFFECTS.join(', ')} (empty means all effects)`,
      effect,
    );
  }
  if (seconds !== undefined && effect !== 'NoExecute') {
    issues.add(effectPath, 'must be NoExecute when tolerationSeconds is set', effect ?? '');
  }
}

function checkResources(issues: IssueCollector, value: unknown, path: string): void {
  const resources = issues.object(value, path);
  if (!resources) return;
  for (const field of ['limits', 'requests'] as const) {
    const mapPath = fieldPath(path, field);
    const map = issues.object(resources[field], mapPath);
    if (!map) continue;
    for (const [name, quantity] of Object.entries(map)) {
      if (quantity === undefined) continue; // vanishes when serialized
      // The schema says integer or string: JSON numbers with a fraction are rejected.
      const ok =
        (typeof quantity === 'number' && Number.isInteger(quantity)) ||
        (typeof quantity === 'string' && isQuantity(quantity));
      if (!ok) {
        issues.add(keyPath(mapPath, name), 'must be a quantity such as 4, 500m, 8Gi or 16G', quantity);
      }
    }
  }
  const claimsPath = fieldPath(path, 'claims');
  const names = new Set<string>();
  issues.list(resources.claims, claimsPath)?.forEach((item, index) => {
    const itemPath = indexPath(claimsPath, index);
    const claim = issues.listEntry(item, itemPath);
    if (!claim) return;
    const name = issues.string(claim.name, fieldPath(itemPath, 'name'), {
      required: 'the name of a resource claim of the Pod',
    });
    issues.string(claim.request, fieldPath(itemPath, 'request'));
    // The list is a map keyed by name (x-kubernetes-list-type: map).
    if (name !== undefined) {
      if (names.has(name)) issues.add(fieldPath(itemPath, 'name'), 'must be unique among the claims', name);
      names.add(name);
    }
  });
}
