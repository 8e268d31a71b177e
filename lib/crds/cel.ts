/**
 * Builders for the CEL texts of our admission rules. They only use what both the Kubernetes API
 * server (CEL standard macros plus the strings extension library: indexOf, lastIndexOf, substring)
 * and `@marcbachmann/cel-js` (the evaluator our tests run) support.
 *
 * The API server estimates each rule's cost from the sizes of the fields it reads (bounds.ts), and
 * it only knows the size of a string function's result when the function is applied to a field
 * directly: `type.split('.')[0]` has an unknown size, so anything done with it is estimated as
 * unbounded and the CRD is refused. The rules therefore apply substring and indexOf to fields only.
 */
import { DRIVER_PACKAGE_PREFIX } from '../core/drivers';
import { GO_DURATION_PATTERN, GO_DURATION_RANGE_PATTERN } from '../core/duration';

// Re-exported for the CRD modules: the duration grammar lives in lib/core/duration.ts.
export { GO_DURATION_PATTERN, GO_DURATION_RANGE_PATTERN };

/** A CEL string literal for `text` (single-quoted, backslashes and quotes escaped). */
export function celString(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * CEL for the name a driver entry `d` gets, exactly as lib/core/drivers.ts `deriveDriverName`: its
 * `name`; else the package of `type` (text before the first dot) without the `jumpstarter_driver_`
 * prefix; else the last dot-segment of `ref`; else `''` (nothing to derive). The prefix has no dot,
 * so `type` starts with it exactly when its package does.
 */
export function derivedDriverNameCel(d: string): string {
  const type = `${d}.type`;
  const dot = `${type}.indexOf('.')`;
  const prefix = DRIVER_PACKAGE_PREFIX.length;
  const pkgWithoutPrefix = `(${dot} < 0 ? ${type}.substring(${prefix}) : ${type}.substring(${prefix}, ${dot}))`;
  const pkg = `(${dot} < 0 ? ${type} : ${type}.substring(0, ${dot}))`;
  return (
    `(has(${d}.name) ? ${d}.name` +
    ` : has(${d}.type) ? (${type}.startsWith(${celString(DRIVER_PACKAGE_PREFIX)}) ? ${pkgWithoutPrefix} : ${pkg})` +
    ` : has(${d}.ref) ? ${d}.ref.substring(${d}.ref.lastIndexOf('.') + 1)` +
    " : '')"
  );
}

/**
 * CEL, on a list of driver entries (`self`), that holds when no two entries end up with the same
 * name after derivation. Entries with nothing to derive from are left to the type/ref rule.
 */
export function uniqueDriverNamesCel(): string {
  return (
    'self.all(a, !(has(a.name) || has(a.type) || has(a.ref))' +
    ` || self.exists_one(b, ${derivedDriverNameCel('b')} == ${derivedDriverNameCel('a')}))`
  );
}

/**
 * CEL that holds when the label selector at `selector` selects the label map at `labels`, whose
 * presence is tested by `labelsPresent` (a CEL boolean). Every matchLabels entry must be in the
 * labels, and every matchExpressions requirement must hold on them; unknown operators are left to
 * the selector's own operator rule.
 */
export function selectorSelectsLabelsCel(selector: string, labels: string, labelsPresent: string): string {
  const hasKey = (key: string) => `(${labelsPresent} && ${key} in ${labels})`;
  const matchLabels =
    `!has(${selector}.matchLabels) || ${selector}.matchLabels.all(k, ` +
    `${hasKey('k')} && ${labels}[k] == ${selector}.matchLabels[k])`;
  const matchExpressions =
    `!has(${selector}.matchExpressions) || ${selector}.matchExpressions.all(e, ` +
    `e.operator == 'In' ? (${hasKey('e.key')} && has(e.values) && ${labels}[e.key] in e.values)` +
    ` : e.operator == 'NotIn' ? (!${hasKey('e.key')} || !has(e.values) || !(${labels}[e.key] in e.values))` +
    ` : e.operator == 'Exists' ? ${hasKey('e.key')}` +
    ` : e.operator == 'DoesNotExist' ? !${hasKey('e.key')}` +
    ' : true)';
  return `(${matchLabels}) && (${matchExpressions})`;
}
