/**
 * Admission of custom resources, as kube-apiserver does it with a CRD's structural schema — the test
 * cluster runs it on every write of our kinds, and the library tests (test/support) use it to check
 * the CRDs offline. For a candidate object it
 *
 *   1. resets `status` when the CRD has a status subresource (dropped on create, kept from the old
 *      object on update), unless the caller writes status on purpose (`keepStatus`);
 *   2. prunes fields the schema does not know (reported in `pruned`);
 *   3. applies schema defaults (recursively: into present objects, array items and map values, and
 *      into objects that were themselves just defaulted; a null in a non-nullable field is defaulted
 *      or dropped);
 *   4. checks apiVersion and kind (alone: when they are wrong nothing else is checked);
 *   5. validates the OpenAPI part as kube-openapi does (openapi-validation.ts) — on a /status write
 *      the status against the status schema, paths below `status`;
 *   6. checks the scale subresource's replicas paths (an int64 from 0 to 2^31-1) and selector path;
 *   7. finds duplicates in `x-kubernetes-list-type` set and map lists;
 *   8. evaluates every `x-kubernetes-validations` rule with @marcbachmann/cel-js wherever its schema
 *      node occurs in the object (each array item, each map value), with integer fields as BigInt
 *      (JS numbers are CEL doubles) and date-time strings as timestamps. Rules that use `oldSelf`
 *      (transition rules) run only on update, where the old value at the same place exists.
 *
 * Like the API server, the CEL rules are skipped (with one note, when the CRD has rules) when an
 * earlier error — the caller's ObjectMeta errors included — is a blocking one: a wrong type, an
 * unsupported value, a missing required field, a string too long or too many items or properties.
 * Findings are kube-apiserver's field errors, worded as it words them (field-errors.ts).
 * Not simulated: validation ratcheting (an update that leaves an invalid field as it was is refused
 * here; kube-apiserver lets it through with a warning).
 *
 * The CEL programs of a CRD are compiled once (`compileCrd` caches per CRD object), because admission
 * sits on the hot path of the benchmarks.
 */
import { Environment } from '@marcbachmann/cel-js';
import type {
  CustomResourceDefinition,
  CustomResourceDefinitionVersion,
  JSONSchemaProps,
  ValidationRule,
} from 'virtual-exporters/internal';
import {
  BLOCKING_ERROR_TYPES,
  errorBody,
  goKind,
  goPlain,
  goTypeName,
  NIL_PATH,
  OMIT_VALUE,
  type FieldError,
  type FieldErrorType,
} from './field-errors';
import { cloneJson, isJsonMap, type JsonMap } from './json-values';
import { validateOpenApi } from './openapi-validation';
import type { Admission, AdmissionCause } from './types';

/** The note the API server adds when type errors stop it from running the CEL rules. */
export const CEL_SKIPPED_MESSAGE =
  'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

/** Kubernetes' field error types (`field.ErrorType`). */
export type FindingType = FieldErrorType;

/** One admission error. */
export interface AdmissionFinding {
  /**
   * The field path as Kubernetes prints it, `''` for the object itself: `spec.template.spec.drivers[1].name`;
   * map values are `.key` in schema errors and `[key]` in CEL rule errors (`spec.template.metadata.labels[team]`).
   */
  readonly path: string;
  /**
   * For `Invalid value` errors the words after the value — a CEL rule's message verbatim, or the
   * validator's (`spec.minReplicas in body should be greater than or equal to 0`); for the others the
   * whole error body (`Required value`, `Unsupported value: "x": supported values: ...`,
   * `Too long: may not be more than 64 bytes`, `Too many: 65: must have at most 64 items`).
   */
  readonly message: string;
  readonly type: FindingType;
  /** The field error as the API server reports it. */
  readonly error: FieldError;
}

export interface ReviewOptions {
  /** The stored object, for an update: enables transition rules (`oldSelf`) and keeps its status. */
  readonly oldObject?: unknown;
  /** Validate `status` as given instead of resetting it. */
  readonly keepStatus?: boolean;
  /**
   * A write to the /status subresource (implies `keepStatus`): the OpenAPI check covers the status
   * only, against the status schema with paths below `status`, as kube-apiserver's status strategy does.
   */
  readonly statusWrite?: boolean;
  /** Errors found before (the API server's ObjectMeta checks): they come first and can block the CEL rules. */
  readonly priorErrors?: readonly FieldError[];
  /** Version to validate against; default: the one in the object's apiVersion, else the storage version. */
  readonly version?: string;
}

export interface ReviewResult {
  /** The object as it would be stored: status reset, unknown fields pruned, defaults applied. */
  readonly object: JsonMap;
  readonly findings: AdmissionFinding[];
  /** Paths of fields removed because the schema does not know them. */
  readonly pruned: string[];
}

/** A CRD with its validators compiled. */
export interface CompiledCrd {
  readonly crd: CustomResourceDefinition;
  /** Admission of `obj` (a create, or an update when `oldObject` is given). */
  review(obj: unknown, options?: ReviewOptions): ReviewResult;
  /** The structural schema of a version. */
  schemaOf(version: string | undefined): JSONSchemaProps | undefined;
}

type Json = unknown;

// ---- paths ----

/** A property (`.name`, or `[name]` when it is not an identifier), or an item (`[i]`), of `path`. */
function child(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) return path ? `${path}.${key}` : key;
  return `${path}[${key}]`;
}

/** A map value of `path` (`field.Path.Key`): always `[key]`. */
function keyOf(path: string, key: string): string {
  return `${path}[${key}]`;
}

/** Applies a rule's `fieldPath` (`.a.b`, `.a['x']`, `.a[0]`) to the rule's location. */
function applyFieldPath(path: string, fieldPath: string | undefined): string {
  if (!fieldPath) return path;
  let result = path;
  const re = /\.([A-Za-z_$][A-Za-z0-9_$]*)|\[\s*'([^']*)'\s*\]|\[\s*(\d+)\s*\]/g;
  for (const m of fieldPath.matchAll(re)) {
    result = child(result, m[1] ?? m[2] ?? Number(m[3]));
  }
  return result;
}

const additionalOf = (schema: JSONSchemaProps): JSONSchemaProps | undefined =>
  typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;

// ---- pruning, defaulting ----

function prune(value: Json, schema: JSONSchemaProps, path: string, pruned: string[], root = false): void {
  if (Array.isArray(value)) {
    if (schema.items) value.forEach((item, i) => prune(item, schema.items!, child(path, i), pruned));
    return;
  }
  if (!isJsonMap(value) || schema['x-kubernetes-int-or-string']) return;
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  const additional = additionalOf(schema);
  for (const key of Object.keys(value)) {
    // ObjectMeta, apiVersion and kind at the root are the API server's business, not the schema's.
    if (root && (key === 'metadata' || key === 'apiVersion' || key === 'kind')) continue;
    const prop = schema.properties?.[key] ?? additional;
    if (prop) prune(value[key], prop, child(path, key), pruned);
    else if (!preserve && schema.additionalProperties !== true) {
      delete value[key];
      pruned.push(child(path, key));
    }
  }
}

/** Structural defaulting, as the API server does it. */
function applyDefaults(value: Json, schema: JSONSchemaProps): void {
  if (Array.isArray(value)) {
    if (schema.items) for (const item of value) applyDefaults(item, schema.items);
    return;
  }
  if (!isJsonMap(value)) return;
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    const current = value[key];
    if (current === null && !prop.nullable) {
      if (prop.default !== undefined) value[key] = cloneJson(prop.default);
      else delete value[key];
    } else if (current === undefined && prop.default !== undefined) {
      value[key] = cloneJson(prop.default);
    }
  }
  const additional = additionalOf(schema);
  for (const [key, v] of Object.entries(value)) {
    const prop = schema.properties?.[key] ?? additional;
    if (prop) applyDefaults(v, prop);
  }
}

// ---- scale subresource and list types ----

/** `unstructured.NestedFieldNoCopy` and the typed accessors over it: the value, or the accessor error. */
function nested(
  obj: JsonMap,
  fields: readonly string[],
  want: 'int64' | 'string',
): { value?: unknown; error?: string } {
  let val: unknown = obj;
  for (const [i, f] of fields.entries()) {
    if (val === null || val === undefined) return {};
    if (!isJsonMap(val)) {
      return {
        error: `.${fields.slice(0, i + 1).join('.')} accessor error: ${goPlain(val)} is of the type ${goTypeName(val)}, expected map[string]interface{}`,
      };
    }
    if (!(f in val)) return {};
    val = val[f];
  }
  if (val === null || val === undefined) return {};
  if (goKind(val) !== want) {
    return {
      error: `.${fields.join('.')} accessor error: ${goPlain(val)} is of the type ${goTypeName(val)}, expected ${want}`,
    };
  }
  return { value: val };
}

/** The checks of a replicas path of the scale subresource (customResourceValidator.ValidateScaleSpec/Status). */
function scaleReplicasErrors(object: JsonMap, path: string): FieldError[] {
  const { value, error } = nested(object, path.replace(/^\./, '').split('.'), 'int64');
  const invalid = (v: unknown, detail: string): FieldError[] => [
    { field: path, type: 'FieldValueInvalid', value: v, detail },
  ];
  if (error) return invalid(0, error);
  const n = typeof value === 'number' ? value : 0;
  if (n < 0) return invalid(n, 'should be a non-negative integer');
  if (n > 2 ** 31 - 1) return invalid(n, `should be less than or equal to ${2 ** 31 - 1}`);
  return [];
}

function scaleErrors(
  object: JsonMap,
  scale: NonNullable<CustomResourceDefinitionVersion['subresources']>['scale'],
  statusWrite: boolean,
): FieldError[] {
  if (!scale) return [];
  const errors = statusWrite ? [] : scaleReplicasErrors(object, scale.specReplicasPath);
  errors.push(...scaleReplicasErrors(object, scale.statusReplicasPath));
  if (scale.labelSelectorPath) {
    const path = scale.labelSelectorPath;
    const { error } = nested(object, path.replace(/^\./, '').split('.'), 'string');
    if (error) errors.push({ field: path, type: 'FieldValueInvalid', value: '', detail: error });
  }
  return errors;
}

/** Duplicates in `x-kubernetes-list-type: set` and `map` lists (apiextensions' listtype validation). */
function listTypeErrors(value: Json, schema: JSONSchemaProps, path: string, out: FieldError[]): void {
  if (Array.isArray(value)) {
    const listType = schema['x-kubernetes-list-type'];
    const at = (i: number) => (path ? `${path}[${i}]` : `[${i}]`);
    const duplicates = (keys: readonly unknown[]) => {
      const seen = new Map<string, number>();
      const found: number[] = [];
      keys.forEach((k, i) => {
        const id = JSON.stringify(k);
        const times = seen.get(id) ?? 0;
        seen.set(id, times + 1);
        if (times === 1) found.push(i);
      });
      return found;
    };
    if (listType === 'set') {
      for (const i of duplicates(value))
        out.push({ field: at(i), type: 'FieldValueDuplicate', value: value[i], detail: '' });
    } else if (listType === 'map') {
      const bad = value.findIndex((x) => x !== null && !isJsonMap(x));
      if (bad >= 0) {
        out.push({
          field: at(bad),
          type: 'FieldValueInvalid',
          value: value[bad],
          detail: 'must be an object for an array of list-type map',
        });
      } else {
        const keys = schema['x-kubernetes-list-map-keys'] ?? [];
        const keyOfItem = (x: Json) =>
          Object.fromEntries(keys.filter((k) => isJsonMap(x) && k in x).map((k) => [k, (x as JsonMap)[k]]));
        const itemKeys = value.map(keyOfItem);
        for (const i of duplicates(itemKeys)) {
          out.push({ field: at(i), type: 'FieldValueDuplicate', value: itemKeys[i], detail: '' });
        }
      }
    }
    if (schema.items) value.forEach((item, i) => listTypeErrors(item, schema.items!, at(i), out));
    return;
  }
  if (!isJsonMap(value)) return;
  const additional = additionalOf(schema);
  for (const [k, v] of Object.entries(value)) {
    const prop = schema.properties?.[k];
    if (prop) listTypeErrors(v, prop, path ? `${path}.${k}` : k, out);
    else if (additional) listTypeErrors(v, additional, keyOf(path, k), out);
  }
}

// ---- CEL rules ----

/** `list.sum()` of Kubernetes' CEL list library (cel-js lacks it): integers stay integers. */
function sum(list: readonly unknown[]): unknown {
  return list.every((x) => typeof x === 'bigint')
    ? list.reduce<bigint>((total, x) => total + (x as bigint), 0n)
    : list.reduce<number>((total, x) => total + Number(x), 0);
}

const env = new Environment()
  .registerVariable('self', 'dyn')
  .registerVariable('oldSelf', 'dyn')
  .registerFunction('list.sum(): dyn', sum);
type Program = (context: Record<string, unknown>) => unknown;
const programs = new Map<string, Program | Error>();

/** The parsed program of an expression (shared by all CRDs), or the parse error to report. */
function program(expression: string): Program | Error {
  let p = programs.get(expression);
  if (!p) {
    try {
      p = env.parse(expression) as unknown as Program;
    } catch (err) {
      p = err instanceof Error ? err : new Error(String(err));
    }
    programs.set(expression, p);
  }
  return p;
}

interface CompiledRule {
  readonly rule: ValidationRule;
  readonly transition: boolean;
  readonly message: string;
  readonly program: Program | Error;
  readonly messageProgram?: Program | Error;
}

/** The rules of every schema node that has some; an empty map means the CRD has no CEL validator. */
function compileRules(schema: JSONSchemaProps, into = new Map<JSONSchemaProps, CompiledRule[]>()) {
  const rules = schema['x-kubernetes-validations'] ?? [];
  if (rules.length > 0) {
    into.set(
      schema,
      rules.map((rule) => ({
        rule,
        transition: /\boldSelf\b/.test(rule.rule),
        message: rule.message ?? `failed rule: ${rule.rule}`,
        program: program(rule.rule),
        ...(rule.messageExpression ? { messageProgram: program(rule.messageExpression) } : {}),
      })),
    );
  }
  const additional = additionalOf(schema);
  for (const c of [
    ...Object.values(schema.properties ?? {}),
    ...(schema.items ? [schema.items] : []),
    ...(additional ? [additional] : []),
    ...(schema.anyOf ?? []),
  ]) {
    compileRules(c, into);
  }
  return into;
}

/** The value as CEL sees it under its schema: integers as BigInt, date-times as timestamps. */
function toCel(value: Json, schema: JSONSchemaProps | undefined): unknown {
  if (value === null || value === undefined || !schema) return value;
  if (typeof value === 'number') {
    const integral = schema.type === 'integer' || schema['x-kubernetes-int-or-string'];
    return integral && Number.isInteger(value) ? BigInt(value) : value;
  }
  if (typeof value === 'string') {
    if (schema.format === 'date-time' || schema.format === 'date') {
      const d = new Date(value);
      return Number.isNaN(d.getTime()) ? value : d;
    }
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => toCel(item, schema.items));
  if (isJsonMap(value)) {
    const additional = additionalOf(schema);
    const out: JsonMap = {};
    for (const [k, v] of Object.entries(value)) out[k] = toCel(v, schema.properties?.[k] ?? additional);
    return out;
  }
  return value;
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0];
}

function run(p: Program | Error, context: Record<string, unknown>): unknown {
  if (p instanceof Error) throw p;
  return p(context);
}

interface RuleWalk {
  readonly rules: Map<JSONSchemaProps, CompiledRule[]>;
  readonly isUpdate: boolean;
  readonly errors: FieldError[];
}

/** The error of a rule that does not hold, as the rule's `reason` asks (default: an invalid value). */
function ruleError(rule: ValidationRule, field: string, value: unknown, detail: string): FieldError {
  switch (rule.reason) {
    case 'FieldValueRequired':
      return { field, type: 'FieldValueRequired', value: '', detail };
    case 'FieldValueForbidden':
      return { field, type: 'FieldValueForbidden', value: '', detail };
    case 'FieldValueDuplicate':
      return { field, type: 'FieldValueDuplicate', value, detail: '' };
    default:
      return { field, type: 'FieldValueInvalid', value, detail };
  }
}

function evaluateRules(value: Json, old: Json, schema: JSONSchemaProps, path: string, walk: RuleWalk): void {
  if (value === undefined || value === null) return;
  const rules = walk.rules.get(schema);
  if (rules) {
    // The API server shows a scalar's value, never an object's or a list's; when a rule cannot be
    // evaluated, it shows the schema type.
    const shown = schema.type === 'object' || schema.type === 'array' ? OMIT_VALUE : value;
    const type = schema.type ?? '';
    let context: Record<string, unknown> | undefined;
    for (const r of rules) {
      // Transition rules need an old value at the same place; optionalOldSelf is not simulated.
      if (r.transition && (!walk.isUpdate || old === undefined || old === null)) continue;
      const at = applyFieldPath(path, r.rule.fieldPath) || NIL_PATH;
      context ??= { self: toCel(value, schema), oldSelf: toCel(old, schema) };
      let result: unknown;
      try {
        result = run(r.program, context);
      } catch (err) {
        walk.errors.push({
          field: at,
          type: 'FieldValueInvalid',
          value: type,
          detail: `${r.message} (the rule could not be evaluated: ${firstLine(err)})`,
        });
        continue;
      }
      if (result === true) continue;
      if (result !== false) {
        walk.errors.push({
          field: at,
          type: 'FieldValueInvalid',
          value: type,
          detail: `${r.message} (the rule returned ${String(result)}, not a bool)`,
        });
        continue;
      }
      let text = r.message;
      if (r.messageProgram) {
        try {
          const m = run(r.messageProgram, context);
          if (typeof m === 'string' && m.trim()) text = m;
        } catch {
          // The API server falls back to `message` too.
        }
      }
      walk.errors.push(ruleError(r.rule, at, shown, text));
    }
  }

  if (Array.isArray(value)) {
    const items = schema.items;
    if (!items) return;
    const keys =
      schema['x-kubernetes-list-type'] === 'map' ? (schema['x-kubernetes-list-map-keys'] ?? []) : undefined;
    value.forEach((item, i) => {
      // Only list-type map items correlate with old items (by their keys), as on the API server.
      const oldItem =
        keys && Array.isArray(old) && isJsonMap(item)
          ? old.find(
              (o) => isJsonMap(o) && keys.every((k) => JSON.stringify(o[k]) === JSON.stringify(item[k])),
            )
          : undefined;
      evaluateRules(item, oldItem, items, child(path, i), walk);
    });
    return;
  }
  if (isJsonMap(value)) {
    const additional = additionalOf(schema);
    for (const [k, v] of Object.entries(value)) {
      const oldValue = isJsonMap(old) ? old[k] : undefined;
      const prop = schema.properties?.[k];
      if (prop) evaluateRules(v, oldValue, prop, child(path, k), walk);
      else if (additional) evaluateRules(v, oldValue, additional, keyOf(path, k), walk);
    }
  }
}

// ---- compiled CRDs ----

interface CompiledVersion {
  readonly version: CustomResourceDefinitionVersion;
  readonly schema: JSONSchemaProps;
  readonly rules: Map<JSONSchemaProps, CompiledRule[]>;
}

function compileVersion(version: CustomResourceDefinitionVersion): CompiledVersion {
  const schema = version.schema.openAPIV3Schema;
  return { version, schema, rules: compileRules(schema) };
}

/** A field error as a finding of the library's admission checks. */
function findingOf(error: FieldError): AdmissionFinding {
  const invalid = error.type === 'FieldValueInvalid' || error.type === 'FieldValueTypeInvalid';
  return {
    path: error.field === NIL_PATH ? '' : error.field,
    message: invalid ? error.detail : errorBody(error),
    type: error.type,
    error,
  };
}

function reviewWith(
  crd: CustomResourceDefinition,
  compiled: CompiledVersion,
  obj: unknown,
  options: ReviewOptions,
): ReviewResult {
  const { version, schema, rules } = compiled;
  const object = cloneJson(obj);
  if (!isJsonMap(object)) {
    const error: FieldError = {
      field: NIL_PATH,
      type: 'FieldValueInvalid',
      value: obj,
      detail: 'must be an object',
    };
    return { object: {}, findings: [findingOf(error)], pruned: [] };
  }
  // TypeMeta first, and alone (customResourceValidator.ValidateTypeMeta).
  const typeMeta: FieldError[] = [];
  if (object.kind !== crd.spec.names.kind) {
    typeMeta.push({
      field: 'kind',
      type: 'FieldValueInvalid',
      value: typeof object.kind === 'string' ? object.kind : '',
      detail: `must be ${crd.spec.names.kind}`,
    });
  }
  const expectedApiVersion = `${crd.spec.group}/${version.name}`;
  if (object.apiVersion !== expectedApiVersion) {
    typeMeta.push({
      field: 'apiVersion',
      type: 'FieldValueInvalid',
      value: typeof object.apiVersion === 'string' ? object.apiVersion : '',
      detail: `must be ${expectedApiVersion}`,
    });
  }
  if (typeMeta.length > 0) return { object, findings: typeMeta.map(findingOf), pruned: [] };

  const statusWrite = options.statusWrite === true;
  if (version.subresources?.status && !options.keepStatus && !statusWrite) {
    const oldStatus = isJsonMap(options.oldObject) ? options.oldObject.status : undefined;
    if (oldStatus === undefined) delete object.status;
    else object.status = cloneJson(oldStatus);
  }

  const pruned: string[] = [];
  prune(object, schema, '', pruned, true);
  applyDefaults(object, schema);

  const errors: FieldError[] = [...(options.priorErrors ?? [])];
  const statusSchema = schema.properties?.status;
  if (!statusWrite) errors.push(...validateOpenApi(schema, object, null));
  else if (statusSchema && object.status !== undefined)
    errors.push(...validateOpenApi(statusSchema, object.status, 'status'));
  errors.push(...scaleErrors(object, version.subresources?.scale, statusWrite));
  listTypeErrors(object, schema, '', errors);

  if (rules.size > 0) {
    if (errors.some((e) => BLOCKING_ERROR_TYPES.has(e.type))) {
      errors.push({ field: NIL_PATH, type: 'FieldValueInvalid', value: null, detail: CEL_SKIPPED_MESSAGE });
    } else {
      const isUpdate = options.oldObject !== undefined;
      const old = isUpdate ? cloneJson(options.oldObject) : undefined;
      if (isUpdate && isJsonMap(old)) applyDefaults(old, schema);
      evaluateRules(object, old, schema, '', { rules, isUpdate, errors });
    }
  }
  const own = errors.slice(options.priorErrors?.length ?? 0);
  return { object, findings: own.map(findingOf), pruned };
}

const compiledCrds = new WeakMap<CustomResourceDefinition, CompiledCrd>();

/** Compiles (once per CRD object; treat CRDs as read-only) the validators of every version of `crd`. */
export function compileCrd(crd: CustomResourceDefinition): CompiledCrd {
  const cached = compiledCrds.get(crd);
  if (cached) return cached;
  const versions = new Map(crd.spec.versions.map((v) => [v.name, compileVersion(v)]));
  const fallback =
    crd.spec.versions.find((v) => v.storage)?.name ?? crd.spec.versions[0]?.name ?? '<no versions>';
  const compiled: CompiledCrd = {
    crd,
    review(obj, options = {}) {
      const apiVersion = isJsonMap(obj) && typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
      const wanted = options.version ?? apiVersion.split('/')[1];
      const version = versions.get(wanted ?? '') ?? versions.get(fallback);
      if (!version) throw new Error(`CRD ${crd.metadata.name} has no versions`);
      return reviewWith(crd, version, obj, options);
    },
    schemaOf: (version) => versions.get(version ?? fallback)?.schema,
  };
  compiledCrds.set(crd, compiled);
  return compiled;
}

/** A finding as a `Status` cause: the field (`<nil>` for the object itself), the error body, the type. */
export function causeOf(finding: AdmissionFinding): AdmissionCause {
  return { field: finding.error.field, message: errorBody(finding.error), reason: finding.type };
}

/**
 * The test cluster's admission of one CRD version (default: the storage version). The store isolates
 * status itself, so the object's status is validated as given.
 */
export function crdAdmission(crd: CustomResourceDefinition, version?: string): Admission {
  const compiled = compileCrd(crd);
  const name = version ?? crd.spec.versions.find((v) => v.storage)?.name ?? crd.spec.versions[0]?.name;
  return {
    admit(object, old, options = {}) {
      const result = compiled.review(object, {
        version: name,
        keepStatus: true,
        ...(options.statusWrite ? { statusWrite: true } : {}),
        ...(options.prior
          ? {
              priorErrors: options.prior.map((c): FieldError => ({
                field: c.field,
                type: (c.reason ?? 'FieldValueInvalid') as FieldErrorType,
                value: OMIT_VALUE,
                detail: c.message,
              })),
            }
          : {}),
        ...(old !== undefined ? { oldObject: old } : {}),
      });
      return { object: result.object as typeof object, causes: result.findings.map(causeOf) };
    },
    unknownFields(object) {
      const schema = compiled.schemaOf(name);
      const pruned: string[] = [];
      if (schema) prune(cloneJson(object), schema, '', pruned, true);
      return pruned;
    },
  };
}
