/**
 * An admission simulator for custom resources, for tests: it does to a candidate object what a
 * Kubernetes API server does on create or update with the CRD's structural schema —
 *
 *   1. resets `status` when the CRD has a status subresource (dropped on create, kept from the old
 *      object on update), unless the caller writes status on purpose;
 *   2. prunes fields the schema does not know (reported in `pruned`);
 *   3. applies schema defaults (recursively: into present objects, array items and map values, and
 *      into objects that were themselves just defaulted; a null in a non-nullable field is defaulted
 *      or dropped);
 *   4. validates the OpenAPI part with ajv (`strict: false`, ajv-formats), with `nullable` and
 *      `x-kubernetes-int-or-string` translated and other `x-kubernetes-*` keywords dropped;
 *   5. evaluates every `x-kubernetes-validations` rule with @marcbachmann/cel-js wherever its schema
 *      node occurs in the object (each array item, each map value), with integer fields as BigInt
 *      (JS numbers are CEL doubles) and date-time strings as timestamps. Rules that use `oldSelf`
 *      (transition rules) run only on update, where the old value at the same place exists.
 *
 * Like the API server, CEL rules are skipped (with one note, when the CRD has rules) when the object
 * breaks a type, enum, required, maxLength, maxItems or maxProperties constraint: the rules are
 * written for the shape these guarantee, and their cost was estimated for the sizes they bound.
 */
import { Environment } from '@marcbachmann/cel-js';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { CustomResourceDefinition, JSONSchemaProps, ValidationRule } from '../../lib/crds';

export interface AdmissionError {
  /** Kubernetes-style field path, e.g. `spec.template.spec.drivers[1].name`, `spec.selector.matchLabels[app]`. */
  readonly path: string;
  readonly message: string;
}

export interface AdmitOptions {
  /** The stored object, for an update: enables transition rules (`oldSelf`) and keeps its status. */
  readonly oldObject?: unknown;
  /** Validate `status` as given (a write to the /status subresource) instead of resetting it. */
  readonly keepStatus?: boolean;
  /** Version to validate against; default: the one in the object's apiVersion, else the storage version. */
  readonly version?: string;
}

export interface AdmissionResult {
  /** The object as it would be stored: status reset, unknown fields pruned, defaults applied. */
  readonly object: Record<string, unknown>;
  readonly errors: AdmissionError[];
  /** Paths of fields removed because the schema does not know them. */
  readonly pruned: string[];
}

/** The note the API server adds when type errors stop it from running the CEL rules. */
export const CEL_SKIPPED_MESSAGE =
  'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

type Json = unknown;
type JsonMap = Record<string, Json>;

const isMap = (v: Json): v is JsonMap => typeof v === 'object' && v !== null && !Array.isArray(v);

function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

// ---- paths ----

function child(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) return path ? `${path}.${key}` : key;
  return `${path}[${key}]`;
}

function fromJsonPointer(pointer: string): string {
  if (!pointer) return '';
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<string>((p, s) => child(p, /^\d+$/.test(s) ? Number(s) : s), '');
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

// ---- status, pruning, defaulting ----

function rootSchemaOf(crd: CustomResourceDefinition, obj: Json, version?: string) {
  const apiVersion = isMap(obj) && typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const wanted = version ?? apiVersion.split('/')[1];
  const v =
    crd.spec.versions.find((x) => x.name === wanted) ??
    crd.spec.versions.find((x) => x.storage) ??
    crd.spec.versions[0];
  return v;
}

function prune(value: Json, schema: JSONSchemaProps, path: string, pruned: string[], root = false): void {
  if (Array.isArray(value)) {
    if (schema.items) value.forEach((item, i) => prune(item, schema.items!, child(path, i), pruned));
    return;
  }
  if (!isMap(value) || schema['x-kubernetes-int-or-string']) return;
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  const additional =
    typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
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
  if (!isMap(value)) return;
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    const current = value[key];
    if (current === null && !prop.nullable) {
      if (prop.default !== undefined) value[key] = clone(prop.default);
      else delete value[key];
    } else if (current === undefined && prop.default !== undefined) {
      value[key] = clone(prop.default);
    }
  }
  const additional =
    typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  for (const [key, v] of Object.entries(value)) {
    const prop = schema.properties?.[key] ?? additional;
    if (prop) applyDefaults(v, prop);
  }
}

// ---- OpenAPI validation with ajv ----

const ajv = new Ajv({ strict: false, allErrors: true, verbose: true });
addFormats(ajv);
const compiled = new WeakMap<JSONSchemaProps, ValidateFunction>();

const PASSTHROUGH_KEYWORDS = [
  'format',
  'enum',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'required',
] as const;

/** Translates a structural schema into plain JSON Schema for ajv. */
function toAjvSchema(s: JSONSchemaProps): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const raw = s as Record<string, unknown>;
  for (const k of PASSTHROUGH_KEYWORDS) if (raw[k] !== undefined) out[k] = raw[k];
  if (typeof out.format === 'string' && !ajv.formats[out.format]) delete out.format;
  if (s.type) out.type = s.nullable ? [s.type, 'null'] : s.type;
  if (s.nullable && Array.isArray(out.enum)) out.enum = [...(out.enum as unknown[]), null];
  if (s.properties) {
    out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, toAjvSchema(v)]));
  }
  if (typeof s.additionalProperties === 'object')
    out.additionalProperties = toAjvSchema(s.additionalProperties);
  if (s.items) out.items = toAjvSchema(s.items);
  if (s.anyOf) out.anyOf = s.anyOf.map(toAjvSchema);
  if (s['x-kubernetes-int-or-string'] && !s.anyOf) out.anyOf = [{ type: 'integer' }, { type: 'string' }];
  return out;
}

function validatorFor(schema: JSONSchemaProps): ValidateFunction {
  let v = compiled.get(schema);
  if (!v) {
    v = ajv.compile(toAjvSchema(schema));
    compiled.set(schema, v);
  }
  return v;
}

/**
 * The errors that "block" the CEL rules on a real API server (apiextensions' hasBlockingErr: type,
 * not-supported, required, too-long and too-many field errors). Other violations (pattern, minimum,
 * minLength, format...) leave the rules running.
 */
const BLOCKING = new Set(['type', 'enum', 'anyOf', 'required', 'maxLength', 'maxItems', 'maxProperties']);

/** Whether any node of the schema carries a CEL rule: without any, the API server has no CEL validator. */
function hasRules(schema: JSONSchemaProps): boolean {
  if ((schema['x-kubernetes-validations'] ?? []).length > 0) return true;
  const children = [
    ...Object.values(schema.properties ?? {}),
    ...(schema.items ? [schema.items] : []),
    ...(typeof schema.additionalProperties === 'object' ? [schema.additionalProperties] : []),
    ...(schema.anyOf ?? []),
  ];
  return children.some(hasRules);
}

function schemaErrors(errors: readonly ErrorObject[]): { errors: AdmissionError[]; blocking: boolean } {
  const out: AdmissionError[] = [];
  let blocking = false;
  for (const e of errors) {
    // The branches of an int-or-string anyOf are summarised by the anyOf error itself.
    if (e.schemaPath.includes('/anyOf/')) continue;
    if (BLOCKING.has(e.keyword)) blocking = true;
    const path = fromJsonPointer(e.instancePath);
    switch (e.keyword) {
      case 'required':
        out.push({
          path: child(path, (e.params as { missingProperty: string }).missingProperty),
          message: 'Required value',
        });
        break;
      case 'type':
        out.push({ path, message: `must be of type ${String((e.params as { type: unknown }).type)}` });
        break;
      case 'enum': {
        const allowed = (e.params as { allowedValues: unknown[] }).allowedValues;
        out.push({
          path,
          message: `Unsupported value: ${JSON.stringify(e.data)}: supported values: ${allowed.map((a) => JSON.stringify(a)).join(', ')}`,
        });
        break;
      }
      case 'anyOf':
        out.push({ path, message: 'must be an integer or a string' });
        break;
      default:
        out.push({ path, message: e.message ?? e.keyword });
    }
  }
  return { errors: out, blocking };
}

// ---- CEL rules ----

const env = new Environment().registerVariable('self', 'dyn').registerVariable('oldSelf', 'dyn');
const programs = new Map<string, ReturnType<Environment['parse']>>();

function program(expression: string) {
  let p = programs.get(expression);
  if (!p) {
    p = env.parse(expression);
    programs.set(expression, p);
  }
  return p;
}

const usesOldSelf = (rule: ValidationRule) => /\boldSelf\b/.test(rule.rule);

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
  if (isMap(value)) {
    const additional =
      typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
    const out: JsonMap = {};
    for (const [k, v] of Object.entries(value)) out[k] = toCel(v, schema.properties?.[k] ?? additional);
    return out;
  }
  return value;
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0];
}

function evaluateRules(
  value: Json,
  old: Json,
  schema: JSONSchemaProps,
  path: string,
  isUpdate: boolean,
  errors: AdmissionError[],
): void {
  if (value === undefined || value === null) return;
  for (const rule of schema['x-kubernetes-validations'] ?? []) {
    const transition = usesOldSelf(rule);
    // Transition rules need an old value at the same place; optionalOldSelf is not simulated.
    if (transition && (!isUpdate || old === undefined || old === null)) continue;
    const message = rule.message ?? `failed rule: ${rule.rule}`;
    const at = applyFieldPath(path, rule.fieldPath);
    let result: unknown;
    try {
      result = program(rule.rule)({ self: toCel(value, schema), oldSelf: toCel(old, schema) });
    } catch (err) {
      errors.push({ path: at, message: `${message} (the rule could not be evaluated: ${firstLine(err)})` });
      continue;
    }
    if (result === true) continue;
    if (result !== false) {
      errors.push({ path: at, message: `${message} (the rule returned ${String(result)}, not a bool)` });
      continue;
    }
    let text = message;
    if (rule.messageExpression) {
      try {
        const m = program(rule.messageExpression)({
          self: toCel(value, schema),
          oldSelf: toCel(old, schema),
        });
        if (typeof m === 'string' && m.trim()) text = m;
      } catch {
        // The API server falls back to `message` too.
      }
    }
    errors.push({ path: at, message: text });
  }

  if (Array.isArray(value)) {
    if (!schema.items) return;
    const keys =
      schema['x-kubernetes-list-type'] === 'map' ? (schema['x-kubernetes-list-map-keys'] ?? []) : undefined;
    value.forEach((item, i) => {
      // Only list-type map items correlate with old items (by their keys), as on the API server.
      const oldItem =
        keys && Array.isArray(old) && isMap(item)
          ? old.find((o) => isMap(o) && keys.every((k) => JSON.stringify(o[k]) === JSON.stringify(item[k])))
          : undefined;
      evaluateRules(item, oldItem, schema.items!, child(path, i), isUpdate, errors);
    });
    return;
  }
  if (isMap(value)) {
    const additional =
      typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
    for (const [k, v] of Object.entries(value)) {
      const prop = schema.properties?.[k] ?? additional;
      if (prop) evaluateRules(v, isMap(old) ? old[k] : undefined, prop, child(path, k), isUpdate, errors);
    }
  }
}

// ---- the entry point ----

/** Simulates admission of `obj` (a create, or an update when `oldObject` is given) under `crd`. */
export function admit(
  crd: CustomResourceDefinition,
  obj: unknown,
  options: AdmitOptions = {},
): AdmissionResult {
  const version = rootSchemaOf(crd, obj, options.version);
  const schema = version.schema.openAPIV3Schema;
  const object = clone(obj);
  if (!isMap(object)) return { object: {}, errors: [{ path: '', message: 'must be an object' }], pruned: [] };
  const errors: AdmissionError[] = [];
  const expectedApiVersion = `${crd.spec.group}/${version.name}`;
  if (object.apiVersion !== expectedApiVersion) {
    errors.push({
      path: 'apiVersion',
      message: `must be ${expectedApiVersion} (got ${JSON.stringify(object.apiVersion)})`,
    });
  }
  if (object.kind !== crd.spec.names.kind) {
    errors.push({
      path: 'kind',
      message: `must be ${crd.spec.names.kind} (got ${JSON.stringify(object.kind)})`,
    });
  }

  if (version.subresources?.status && !options.keepStatus) {
    const oldStatus = isMap(options.oldObject) ? options.oldObject.status : undefined;
    if (oldStatus === undefined) delete object.status;
    else object.status = clone(oldStatus);
  }

  const pruned: string[] = [];
  prune(object, schema, '', pruned, true);
  applyDefaults(object, schema);

  const validate = validatorFor(schema);
  let blocking = false;
  if (!validate(object)) {
    const found = schemaErrors(validate.errors ?? []);
    errors.push(...found.errors);
    blocking = found.blocking;
  }

  if (blocking) {
    if (hasRules(schema)) errors.push({ path: '', message: CEL_SKIPPED_MESSAGE });
  } else {
    const isUpdate = options.oldObject !== undefined;
    const old = isUpdate ? clone(options.oldObject) : undefined;
    if (isUpdate && isMap(old)) applyDefaults(old, schema);
    evaluateRules(object, old, schema, '', isUpdate, errors);
  }
  return { object, errors, pruned };
}

/** Convenience for tests: the error messages only. */
export function admissionMessages(result: AdmissionResult): string[] {
  return result.errors.map((e) => e.message);
}
