/**
 * Admission of custom resources, as a Kubernetes API server does it with a CRD's structural schema —
 * the test cluster runs it on every write of our kinds, and the library tests (test/support) use it to
 * check the CRDs offline. For a candidate object it
 *
 *   1. resets `status` when the CRD has a status subresource (dropped on create, kept from the old
 *      object on update), unless the caller writes status on purpose (`keepStatus`);
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
 *
 * The ajv validators and CEL programs of a CRD are compiled once (`compileCrd` caches per CRD object),
 * because admission sits on the hot path of the benchmarks.
 */
import { Environment } from '@marcbachmann/cel-js';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type {
  CustomResourceDefinition,
  CustomResourceDefinitionVersion,
  JSONSchemaProps,
  ValidationRule,
} from 'virtual-exporters/internal';
import { cloneJson, isJsonMap, type JsonMap } from './json-values';
import type { Admission, AdmissionCause } from './types';

/** The note the API server adds when type errors stop it from running the CEL rules. */
export const CEL_SKIPPED_MESSAGE =
  'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

/** Kubernetes' field error types that admission produces (`field.ErrorType`). */
export type FindingType = 'FieldValueInvalid' | 'FieldValueRequired' | 'FieldValueNotSupported';

/** One admission error. */
export interface AdmissionFinding {
  /** Kubernetes-style field path, e.g. `spec.template.spec.drivers[1].name`, `spec.selector.matchLabels[app]`. */
  readonly path: string;
  /** The rule's own words: a CEL rule's message verbatim, `Required value`, `must be of type integer`. */
  readonly message: string;
  readonly type: FindingType;
  /** What Kubernetes prints after `Invalid value:` — the bad value, or the schema type for CEL rules. */
  readonly value?: unknown;
}

export interface ReviewOptions {
  /** The stored object, for an update: enables transition rules (`oldSelf`) and keeps its status. */
  readonly oldObject?: unknown;
  /** Validate `status` as given (a write to the /status subresource) instead of resetting it. */
  readonly keepStatus?: boolean;
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

// ---- OpenAPI validation with ajv ----

const ajv = new Ajv({ strict: false, allErrors: true, verbose: true });
addFormats(ajv);

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
  const additional = additionalOf(s);
  if (additional) out.additionalProperties = toAjvSchema(additional);
  if (s.items) out.items = toAjvSchema(s.items);
  if (s.anyOf) out.anyOf = s.anyOf.map(toAjvSchema);
  if (s['x-kubernetes-int-or-string'] && !s.anyOf) out.anyOf = [{ type: 'integer' }, { type: 'string' }];
  return out;
}

/**
 * The errors that "block" the CEL rules on a real API server (apiextensions' hasBlockingErr: type,
 * not-supported, required, too-long and too-many field errors). Other violations (pattern, minimum,
 * minLength, format...) leave the rules running.
 */
const BLOCKING = new Set(['type', 'enum', 'anyOf', 'required', 'maxLength', 'maxItems', 'maxProperties']);

function schemaFindings(errors: readonly ErrorObject[]): { findings: AdmissionFinding[]; blocking: boolean } {
  const out: AdmissionFinding[] = [];
  let blocking = false;
  for (const e of errors) {
    // The branches of an int-or-string anyOf are summarised by the anyOf error itself.
    if (e.schemaPath.includes('/anyOf/')) continue;
    if (BLOCKING.has(e.keyword)) blocking = true;
    const path = fromJsonPointer(e.instancePath);
    switch (e.keyword) {
      case 'required': {
        const missing = (e.params as { missingProperty: string }).missingProperty;
        out.push({ path: child(path, missing), message: 'Required value', type: 'FieldValueRequired' });
        break;
      }
      case 'type':
        out.push({
          path,
          message: `must be of type ${String((e.params as { type: unknown }).type)}`,
          type: 'FieldValueInvalid',
          value: e.data,
        });
        break;
      case 'enum': {
        const allowed = (e.params as { allowedValues: unknown[] }).allowedValues;
        out.push({
          path,
          message: `Unsupported value: ${JSON.stringify(e.data)}: supported values: ${allowed.map((a) => JSON.stringify(a)).join(', ')}`,
          type: 'FieldValueNotSupported',
          value: e.data,
        });
        break;
      }
      case 'anyOf':
        out.push({
          path,
          message: 'must be an integer or a string',
          type: 'FieldValueInvalid',
          value: e.data,
        });
        break;
      default:
        out.push({ path, message: e.message ?? e.keyword, type: 'FieldValueInvalid', value: e.data });
    }
  }
  return { findings: out, blocking };
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
  readonly findings: AdmissionFinding[];
}

function evaluateRules(value: Json, old: Json, schema: JSONSchemaProps, path: string, walk: RuleWalk): void {
  if (value === undefined || value === null) return;
  const rules = walk.rules.get(schema);
  if (rules) {
    // CEL reports the schema type as the "value" of a rule violation (`Invalid value: "object"`).
    const shown = schema.type ?? 'object';
    let context: Record<string, unknown> | undefined;
    for (const r of rules) {
      // Transition rules need an old value at the same place; optionalOldSelf is not simulated.
      if (r.transition && (!walk.isUpdate || old === undefined || old === null)) continue;
      const at = applyFieldPath(path, r.rule.fieldPath);
      context ??= { self: toCel(value, schema), oldSelf: toCel(old, schema) };
      let result: unknown;
      try {
        result = run(r.program, context);
      } catch (err) {
        walk.findings.push({
          path: at,
          message: `${r.message} (the rule could not be evaluated: ${firstLine(err)})`,
          type: 'FieldValueInvalid',
          value: shown,
        });
        continue;
      }
      if (result === true) continue;
      if (result !== false) {
        walk.findings.push({
          path: at,
          message: `${r.message} (the rule returned ${String(result)}, not a bool)`,
          type: 'FieldValueInvalid',
          value: shown,
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
      walk.findings.push({ path: at, message: text, type: 'FieldValueInvalid', value: shown });
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
      const prop = schema.properties?.[k] ?? additional;
      if (prop) evaluateRules(v, isJsonMap(old) ? old[k] : undefined, prop, child(path, k), walk);
    }
  }
}

// ---- compiled CRDs ----

interface CompiledVersion {
  readonly version: CustomResourceDefinitionVersion;
  readonly schema: JSONSchemaProps;
  readonly validate: ValidateFunction;
  readonly rules: Map<JSONSchemaProps, CompiledRule[]>;
}

function compileVersion(version: CustomResourceDefinitionVersion): CompiledVersion {
  const schema = version.schema.openAPIV3Schema;
  return { version, schema, validate: ajv.compile(toAjvSchema(schema)), rules: compileRules(schema) };
}

function reviewWith(
  crd: CustomResourceDefinition,
  compiled: CompiledVersion,
  obj: unknown,
  options: ReviewOptions,
): ReviewResult {
  const { version, schema, validate, rules } = compiled;
  const object = cloneJson(obj);
  if (!isJsonMap(object)) {
    return {
      object: {},
      findings: [{ path: '', message: 'must be an object', type: 'FieldValueInvalid', value: obj }],
      pruned: [],
    };
  }
  const findings: AdmissionFinding[] = [];
  const expectedApiVersion = `${crd.spec.group}/${version.name}`;
  if (object.apiVersion !== expectedApiVersion) {
    findings.push({
      path: 'apiVersion',
      message: `must be ${expectedApiVersion} (got ${JSON.stringify(object.apiVersion)})`,
      type: 'FieldValueInvalid',
      value: object.apiVersion,
    });
  }
  if (object.kind !== crd.spec.names.kind) {
    findings.push({
      path: 'kind',
      message: `must be ${crd.spec.names.kind} (got ${JSON.stringify(object.kind)})`,
      type: 'FieldValueInvalid',
      value: object.kind,
    });
  }

  if (version.subresources?.status && !options.keepStatus) {
    const oldStatus = isJsonMap(options.oldObject) ? options.oldObject.status : undefined;
    if (oldStatus === undefined) delete object.status;
    else object.status = cloneJson(oldStatus);
  }

  const pruned: string[] = [];
  prune(object, schema, '', pruned, true);
  applyDefaults(object, schema);

  let blocking = false;
  if (!validate(object)) {
    const found = schemaFindings(validate.errors ?? []);
    findings.push(...found.findings);
    blocking = found.blocking;
  }

  if (blocking) {
    if (rules.size > 0)
      findings.push({ path: '', message: CEL_SKIPPED_MESSAGE, type: 'FieldValueInvalid', value: 'null' });
  } else if (rules.size > 0) {
    const isUpdate = options.oldObject !== undefined;
    const old = isUpdate ? cloneJson(options.oldObject) : undefined;
    if (isUpdate && isJsonMap(old)) applyDefaults(old, schema);
    evaluateRules(object, old, schema, '', { rules, isUpdate, findings });
  }
  return { object, findings, pruned };
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

/** How Kubernetes renders the value of an `Invalid value` error: JSON, cut short when long. */
function shownValue(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** A finding as a `Status` cause: the message is Kubernetes' error body (`Invalid value: "object": <rule message>`). */
export function causeOf(finding: AdmissionFinding): AdmissionCause {
  const message =
    finding.type === 'FieldValueInvalid'
      ? `Invalid value: ${shownValue(finding.value)}: ${finding.message}`
      : finding.message;
  return { field: finding.path, message, reason: finding.type };
}

/**
 * The test cluster's admission of one CRD version (default: the storage version). The store isolates
 * status itself, so the object's status is validated as given.
 */
export function crdAdmission(crd: CustomResourceDefinition, version?: string): Admission {
  const compiled = compileCrd(crd);
  const name = version ?? crd.spec.versions.find((v) => v.storage)?.name ?? crd.spec.versions[0]?.name;
  return {
    admit(object, old) {
      const result = compiled.review(object, {
        version: name,
        keepStatus: true,
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
