/**
 * JEP-0014's parameter deep-merge: `merged = deepMerge(class.parameters, set.parameters)`.
 *
 * - plain objects merge recursively and the override wins at the same path;
 * - scalars, lists and `null` from the override replace the base value: lists are never concatenated
 *   or merged index by index (which is what lodash.merge would do, hence this hand-written version);
 * - an `undefined` override (or a missing key) keeps the base value;
 * - the inputs are never mutated and the result shares no object or list with them;
 * - the keys `__proto__`, `constructor` and `prototype` are dropped at every depth, so parameters
 *   read from JSON or YAML cannot reach `Object.prototype` through the result;
 * - input nested deeper than MAX_WALK_DEPTH (depth.ts) throws a NestingTooDeepError instead of
 *   overflowing the stack.
 *
 * Result objects are ordinary `{}` objects, not `Object.create(null)` ones: cdk8s refuses to render
 * objects without `Object` as constructor, and no write through a prototype setter can happen because
 * the three keys above are never assigned.
 */
import type { JsonObject } from '../api';
import { assertNestingWithin } from './depth';
import { isPlainObject } from './plain-object';

/** Keys that could reach or replace a prototype when assigned; never copied. */
const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * A deep copy of JSON-like data: plain objects and lists are copied, unsafe keys dropped, members
 * whose value is `undefined` left out. Other values (primitives, class instances) are returned as is.
 */
export function deepCopy<T>(value: T): T;
export function deepCopy(value: unknown): unknown {
  assertNestingWithin(value, 'the data to copy');
  return copyValue(value);
}

function copyValue(value: unknown): unknown {
  // Array.from builds the copy in this realm, even for a list from a vm context or structuredClone.
  if (Array.isArray(value)) return Array.from(value as unknown[], (item) => copyValue(item));
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (UNSAFE_KEYS.has(key)) continue;
    const item = copyValue(value[key]);
    if (item !== undefined) copy[key] = item;
  }
  return copy;
}

/** `object[key]` only when it is the object's own: `{}`'s `toString` is not a parameter. */
function own(object: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}

/** Merges `override` over `base` with the JEP semantics described in this module's doc. */
export function deepMerge(base: JsonObject, override: JsonObject | undefined): JsonObject;
export function deepMerge(base: JsonObject | undefined, override: JsonObject): JsonObject;
export function deepMerge(base: unknown, override: unknown): unknown;
export function deepMerge(base: unknown, override: unknown): unknown {
  assertNestingWithin(base, 'the base of the merge');
  assertNestingWithin(override, 'the override of the merge');
  return mergeValues(base, override);
}

function mergeValues(base: unknown, override: unknown): unknown {
  if (override === undefined) return copyValue(base);
  if (!isPlainObject(base) || !isPlainObject(override)) return copyValue(override);
  const merged: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(base), ...Object.keys(override)])) {
    if (UNSAFE_KEYS.has(key)) continue;
    const value = mergeValues(own(base, key), own(override, key));
    if (value !== undefined) merged[key] = value;
  }
  return merged;
}

/**
 * The parameters an instance is provisioned with: the set's over the class's. A top level that is not
 * an object counts as `{}` here; reporting it is the job of the class and set validators
 * (RuleMessages.parametersObject), which run before anyone provisions.
 */
export function mergeParameters(classParameters: unknown, setParameters: unknown): JsonObject {
  const base = isPlainObject(classParameters) ? (classParameters as JsonObject) : {};
  const override = isPlainObject(setParameters) ? (setParameters as JsonObject) : {};
  return deepMerge(base, override);
}
