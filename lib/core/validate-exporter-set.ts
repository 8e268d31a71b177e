/**
 * Every rule the ExporterSet CRD applies: upstream's schema and CEL rules with their exact
 * messages, plus ours (derived driver names unique, selector selects the template labels, cooldown
 * is a duration, parameters an object, schedules in warm-buffer-schedules.ts). Runs at synth time and in the controller; the class and the
 * provisioner are checked by validate-references.
 */
import { API_VERSION, Defaults, Kinds, RuleMessages, type LabelSelector, type RecycleStrategy } from '../api';
import { ExporterSetBounds as Bounds } from './bounds';
import { deriveDriverName } from './drivers';
import { GO_DURATION_PATTERN, GO_DURATION_RANGE_PATTERN } from './duration';
import type { ValidationIssue } from './issue';
import { INT32_MAX, isAbsent, IssueCollector } from './issue-collector';
import { isPlainObject } from './plain-object';
import {
  DNS1123_SUBDOMAIN_PATTERN,
  LABEL_VALUE_MAX_LENGTH,
  validateAnnotations,
  validateDns1123Subdomain,
  validateLabels,
} from './names';
import { fieldPath, indexPath } from './path';
import { matchesSelector, validateLabelSelector } from './selector';
import { checkImages } from './validate-images';
import { checkObjectMeta, checkTypeMeta } from './validate-object-meta';
import { checkPoolOperations } from './pool-operations';
import { checkForecast } from './forecast';
import { checkSchedules } from './warm-buffer-schedules';

export const RECYCLE_STRATEGIES: readonly RecycleStrategy[] = ['ExitAndReplace', 'InPlaceReuse'];

/** A driver `ref`: dot-separated, no empty segment (upstream's schema pattern). */
export const DRIVER_REF_PATTERN = '^[^.]+([.][^.]+)*$';
const DRIVER_REF = new RegExp(DRIVER_REF_PATTERN);

const DRIVERS_PATH = 'spec.template.spec.drivers';
const DURATION = new RegExp(GO_DURATION_PATTERN);
const DURATION_IN_RANGE = new RegExp(GO_DURATION_RANGE_PATTERN);
const TEMPLATE_ANNOTATIONS_PATH = 'spec.template.metadata.annotations';
const REVISION_NAME = new RegExp(DNS1123_SUBDOMAIN_PATTERN);

/**
 * Issues for an ExporterSet wire object; `[]` when valid. Never throws, whatever `obj` is. Besides the
 * CRD's rules it refuses what would make every instance's create fail (a name too long for the set
 * label, template labels and annotations Kubernetes refuses on an object), so the controller can
 * gate creates on it.
 */
export function validateExporterSet(obj: unknown): ValidationIssue[] {
  const issues = new IssueCollector();
  if (!isPlainObject(obj)) {
    issues.add('', `must be an ${Kinds.ExporterSet} object`, obj);
    return issues.issues;
  }
  checkTypeMeta(issues, obj, API_VERSION, Kinds.ExporterSet);
  const meta = checkObjectMeta(issues, obj.metadata);
  const name = meta?.name;
  if (
    typeof name === 'string' &&
    name.length > LABEL_VALUE_MAX_LENGTH &&
    validateDns1123Subdomain(name).length === 0
  ) {
    issues.add('metadata.name', RuleMessages.exporterSetNameLength, name);
  }
  const spec = issues.object(
    obj.spec,
    'spec',
    'a set needs a selector, a template and a virtualTargetClassName',
  );
  if (!spec) return issues.issues;

  const maxReplicas = checkReplicas(issues, spec);
  // Like the API server, skip the duration rule on a value that already breaks its bound.
  const cooldownTooLong = tooLong(
    issues,
    spec.scaleDownCooldown,
    'spec.scaleDownCooldown',
    Bounds.scaleDownCooldown,
  );
  const cooldown = spec.scaleDownCooldown;
  if (!cooldownTooLong && !isAbsent(cooldown)) {
    // The CRD's two rules: the Go grammar, then the digit limits that keep it in Go's range.
    if (typeof cooldown !== 'string' || !DURATION.test(cooldown)) {
      issues.add('spec.scaleDownCooldown', RuleMessages.scaleDownCooldownDuration, cooldown);
    } else if (!DURATION_IN_RANGE.test(cooldown)) {
      issues.add('spec.scaleDownCooldown', RuleMessages.scaleDownCooldownRange, cooldown);
    }
  }
  issues.oneOf(spec.recycleStrategy, 'spec.recycleStrategy', RECYCLE_STRATEGIES);
  issues.boolean(spec.paused, 'spec.paused');
  checkPoolOperations(issues, spec);
  checkRevisions(issues, spec);
  checkForecast(issues, spec.forecast);
  checkSchedules(issues, spec.schedules, maxReplicas);
  issues.string(spec.virtualTargetClassName, 'spec.virtualTargetClassName', {
    required: 'the VirtualTargetClass (in the same namespace) that provisions the instances',
    nonEmpty: true,
  });
  if (!isAbsent(spec.parameters) && !isPlainObject(spec.parameters)) {
    issues.add('spec.parameters', RuleMessages.parametersObject, spec.parameters);
  }
  issues.shallow(spec.parameters, 'spec.parameters');
  checkImages(issues, spec.images, 'spec.images');

  let selectorValid = false;
  if (
    !issues.missing(
      spec.selector,
      'spec.selector',
      'which Exporters belong to the set, usually the template labels',
    )
  ) {
    const selectorIssues = [
      ...selectorBoundIssues(spec.selector),
      ...validateLabelSelector(spec.selector, 'spec.selector'),
    ];
    issues.addAll(selectorIssues);
    selectorValid = selectorIssues.length === 0;
  }
  const labels = checkTemplate(issues, spec.template);
  if (selectorValid && labels !== undefined && !matchesSelector(spec.selector as LabelSelector, labels)) {
    issues.add('spec.selector', RuleMessages.selectorMatchesTemplate, spec.selector);
  }
  return issues.issues;
}

/**
 * Types and minimums, then upstream's CEL rules on the values after CRD defaulting. Returns
 * maxReplicas after defaulting, when valid.
 */
function checkReplicas(issues: IssueCollector, spec: Record<string, unknown>): number | undefined {
  const read = (field: 'minReplicas' | 'maxReplicas' | 'minAvailableReplicas'): number | undefined => {
    const value = spec[field];
    if (isAbsent(value)) return Defaults[field];
    return issues.integer(value, `spec.${field}`, { min: 0, max: INT32_MAX });
  };
  const min = read('minReplicas');
  const max = read('maxReplicas');
  const minAvailable = read('minAvailableReplicas');
  // The API server evaluates CEL only on schema-valid objects: skip the rules when a value is broken.
  if (max === undefined || max === 0) return max;
  if (min !== undefined && min > max)
    issues.add('spec.minReplicas', RuleMessages.minReplicasLeMax, spec.minReplicas);
  if (minAvailable !== undefined && minAvailable > max) {
    issues.add('spec.minAvailableReplicas', RuleMessages.minAvailableLeMax, spec.minAvailableReplicas);
  }
  return max;
}

/** `spec.revisionHistoryLimit` and `spec.pinnedRevision` (a name or hash; whether it exists is the controller's to say). */
function checkRevisions(issues: IssueCollector, spec: Record<string, unknown>): void {
  issues.integer(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit', { min: 0, max: INT32_MAX });
  const pinned = spec.pinnedRevision;
  if (isAbsent(pinned) || tooLong(issues, pinned, 'spec.pinnedRevision', Bounds.pinnedRevision)) return;
  if (typeof pinned !== 'string') issues.add('spec.pinnedRevision', 'must be a string', pinned);
  else if (!REVISION_NAME.test(pinned))
    issues.add('spec.pinnedRevision', RuleMessages.pinnedRevision, pinned);
}

/**
 * `spec.template`: label and annotation syntax, driver rules. Returns the template labels when they
 * are valid (`{}` when absent), for the selector check; undefined otherwise.
 */
function checkTemplate(issues: IssueCollector, value: unknown): Record<string, string> | undefined {
  const template = issues.object(value, 'spec.template', 'the labels and drivers of every instance');
  if (!template) return undefined;
  let labels: Record<string, string> | undefined;
  const metadata = issues.object(template.metadata, 'spec.template.metadata');
  if (metadata) {
    const labelIssues = validateLabels(metadata.labels, 'spec.template.metadata.labels');
    if (isPlainObject(metadata.labels)) {
      const count = Object.keys(metadata.labels).length;
      if (count > Bounds.templateLabels) {
        labelIssues.push(tooMany('spec.template.metadata.labels', count, Bounds.templateLabels, 'labels'));
      }
    }
    issues.addAll(labelIssues);
    if (labelIssues.length === 0) labels = (metadata.labels ?? {}) as Record<string, string>;
    issues.addAll(checkTemplateAnnotations(metadata.annotations));
  } else if (isAbsent(template.metadata)) {
    labels = {};
  }
  const spec = issues.object(template.spec, 'spec.template.spec');
  if (spec) checkDrivers(issues, spec.drivers);
  return labels;
}

function checkDrivers(issues: IssueCollector, value: unknown): void {
  const drivers = issues.list(value, DRIVERS_PATH);
  if (!drivers) return;
  if (drivers.length > Bounds.drivers) {
    issues.addAll([tooMany(DRIVERS_PATH, drivers.length, Bounds.drivers, 'drivers')]);
    return;
  }
  const firstIndexByName = new Map<string, number>();
  drivers.forEach((item, index) => {
    const path = indexPath(DRIVERS_PATH, index);
    const driver = issues.listEntry(item, path);
    if (!driver) return;
    const before = issues.issues.length;
    const name = issues.string(driver.name, fieldPath(path, 'name'));
    if (name === '') issues.add(fieldPath(path, 'name'), RuleMessages.driverNameNotEmpty, name);
    const hasType = !isAbsent(driver.type);
    const hasRef = !isAbsent(driver.ref);
    const type = issues.string(driver.type, fieldPath(path, 'type'), { nonEmpty: true });
    const ref = issues.string(driver.ref, fieldPath(path, 'ref'));
    if (ref !== undefined && !DRIVER_REF.test(ref)) {
      issues.add(
        fieldPath(path, 'ref'),
        'must be a dot-separated path of non-empty segments naming a nested driver, e.g. power or board.power',
        ref,
      );
    }
    issues.object(driver.config, fieldPath(path, 'config'));
    issues.shallow(driver.config, fieldPath(path, 'config'));
    tooLong(issues, name, fieldPath(path, 'name'), Bounds.driverName);
    tooLong(issues, type, fieldPath(path, 'type'), Bounds.driverType);
    tooLong(issues, ref, fieldPath(path, 'ref'), Bounds.driverRef);
    if (!hasType && !hasRef) issues.add(path, RuleMessages.driverTypeOrRef);
    if (hasType && hasRef) issues.add(path, RuleMessages.driverTypeRefExclusive);
    if (hasRef && !isAbsent(driver.config)) issues.add(path, RuleMessages.driverRefNoConfig);
    if (issues.issues.length > before) return;

    const derived = deriveDriverName({ name, type, ref });
    if (!derived) {
      issues.add(path, `no driver name can be derived from ${type ?? ref}; give the driver a name`);
      return;
    }
    const first = firstIndexByName.get(derived);
    if (first === undefined) firstIndexByName.set(derived, index);
    else issues.add(path, RuleMessages.driverNamesUnique, derived);
  });
}

/**
 * Template annotations: label-key syntax, string values, at most Bounds.templateAnnotations of them
 * and Bounds.templateAnnotationsSize bytes in all (every instance carries them, plus its own).
 */
function checkTemplateAnnotations(annotations: unknown): ValidationIssue[] {
  const found = validateAnnotations(annotations, TEMPLATE_ANNOTATIONS_PATH, {
    bytes: Bounds.templateAnnotationsSize,
    message: RuleMessages.templateAnnotationsSize,
  });
  if (isPlainObject(annotations)) {
    const count = Object.keys(annotations).length;
    if (count > Bounds.templateAnnotations) {
      found.push(tooMany(TEMPLATE_ANNOTATIONS_PATH, count, Bounds.templateAnnotations, 'annotations'));
    }
  }
  return found;
}

/** A count over one of the CRD's size bounds (lib/core/bounds.ts). */
function tooMany(path: string, count: number, max: number, what: string): ValidationIssue {
  return { path, value: count, message: `must have at most ${max} ${what}` };
}

/** Reports a string over its CRD maxLength; true when it did. */
function tooLong(issues: IssueCollector, value: unknown, path: string, max: number): boolean {
  if (typeof value !== 'string' || value.length <= max) return false;
  issues.add(path, `must be at most ${max} characters long`, value);
  return true;
}

/** The selector's size bounds; its syntax is validateLabelSelector's job. */
function selectorBoundIssues(selector: unknown): ValidationIssue[] {
  if (!isPlainObject(selector)) return [];
  const found: ValidationIssue[] = [];
  const path = 'spec.selector';
  if (isPlainObject(selector.matchLabels)) {
    const count = Object.keys(selector.matchLabels).length;
    if (count > Bounds.selectorMatchLabels) {
      found.push(tooMany(fieldPath(path, 'matchLabels'), count, Bounds.selectorMatchLabels, 'labels'));
    }
  }
  const expressions = selector.matchExpressions;
  if (Array.isArray(expressions)) {
    if (expressions.length > Bounds.selectorMatchExpressions) {
      found.push(
        tooMany(
          fieldPath(path, 'matchExpressions'),
          expressions.length,
          Bounds.selectorMatchExpressions,
          'requirements',
        ),
      );
    }
    expressions.forEach((e, i) => {
      if (isPlainObject(e) && Array.isArray(e.values) && e.values.length > Bounds.selectorValues) {
        const at = fieldPath(indexPath(fieldPath(path, 'matchExpressions'), i), 'values');
        found.push(tooMany(at, e.values.length, Bounds.selectorValues, 'values'));
      }
    });
  }
  return found;
}
