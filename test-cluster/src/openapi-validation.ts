/**
 * The OpenAPI part of custom resource validation, as kube-apiserver runs it (kube-openapi's schema
 * validator over a CRD's structural schema, then apiextensions' translation of its results into field
 * errors), for the keywords structural schemas use: type (with `nullable`, int-or-string and the
 * formats int32, int64, float, double, date-time and date), enum, minimum and maximum (with their
 * exclusive flags), multipleOf, minLength, maxLength, pattern, minItems, maxItems, uniqueItems,
 * minProperties, maxProperties, required, properties, additionalProperties, items and anyOf. Of the
 * other string formats, uri, email, hostname, ipv4, ipv6, uuid and byte are checked with ajv-formats'
 * checks (close to kube-openapi's, not verified against it); the rest are not checked.
 *
 * It is a port rather than ajv because what a client reads is kube-openapi's: its messages, its error
 * types (a type error is a FieldValueTypeInvalid, which keeps the CEL rules from running; maxLength a
 * `Too long`), the errors it adds (an integer out of its format's range) and the ones it does not.
 * test/admission/real-server.kube.test.ts holds it to a real kube-apiserver, case by case.
 *
 * It follows the real validator where that shows in what a client reads: each node is checked by the
 * type, anyOf, string, format, number, array, enum and object validators in that order, and a failing
 * type does not stop the others; the string validator stops at its first failure (maxLength, then
 * minLength, then pattern); messages name the field as `<path> in body`; a type error names the type
 * the decoder saw (`string`, `integer`, `float64`...) and is a `FieldValueTypeInvalid`, which stops the
 * CEL rules; maxLength, maxItems and maxProperties are `Too long` / `Too many`; a number outside its
 * integer format's range is reported against the object itself (`<nil>`). Where kube-apiserver's order
 * comes from Go map iteration (properties, map values) it is random there; here it is the schema's
 * property order and the object's key order.
 */
import { fullFormats } from 'ajv-formats/dist/formats';
import type { JSONSchemaProps } from 'virtual-exporters/internal';
import { goFloat, goKind, goQuote, NIL_PATH, OMIT_VALUE, type FieldError, type GoKind } from './field-errors';

/** kube-openapi's result before the API server turns it into field errors. */
type OpenApiError =
  | {
      readonly kind: 'validation';
      readonly code: 'required' | 'type' | 'enum' | 'tooLong' | 'tooMany' | 'other';
      /** The path as kube-openapi names it (`spec.minReplicas`, `.spec` for a required root field). */
      readonly name: string;
      readonly value?: unknown;
      readonly valid?: number;
      readonly values?: readonly unknown[];
      readonly message: string;
    }
  | { readonly kind: 'plain'; readonly message: string };

const IN = 'body';

/** The keywords of OpenAPI v3.0 our CRD type leaves out, for CRDs that use them. */
type NumberKeywords = { multipleOf?: number; exclusiveMinimum?: boolean; exclusiveMaximum?: boolean };

/** String formats the API server keeps (others are dropped from the schema), without their dashes. */
const SUPPORTED_STRING_FORMATS = new Set(
  (
    'bsonobjectid uri email hostname ipv4 ipv6 cidr mac uuid uuid3 uuid4 uuid5 isbn isbn10 isbn13 ' +
    'creditcard ssn hexcolor rgbcolor byte password date duration datetime k8sshortname k8slongname'
  ).split(' '),
);

/** The types of a schema node as the validator sees them (int-or-string is both). */
function typesOf(s: JSONSchemaProps): string[] {
  if (s['x-kubernetes-int-or-string']) return ['integer', 'string'];
  return s.type ? [s.type] : [];
}

/** The format left after the API server drops the ones it does not support for the type. */
function formatOf(s: JSONSchemaProps): string {
  const format = s.format ?? '';
  if (!format) return '';
  const types = typesOf(s);
  const type = types.length === 1 ? types[0] : '';
  switch (type) {
    case '':
    case 'string':
      return SUPPORTED_STRING_FORMATS.has(format.replace(/-/g, '')) ? format : '';
    case 'integer':
      return format === 'int32' || format === 'int64' ? format : '';
    case 'number':
      return format === 'float' || format === 'double' ? format : '';
    default:
      return '';
  }
}

/** The JSON type and format kube-openapi infers from a decoded value. */
function schemaInfo(kind: GoKind): [string, string] {
  switch (kind) {
    case 'bool':
      return ['boolean', ''];
    case 'string':
      return ['string', ''];
    case 'int64':
      return ['integer', 'int64'];
    case 'float64':
      return ['number', 'float64'];
    case 'slice':
      return ['array', ''];
    case 'map':
      return ['object', ''];
    default:
      return ['', ''];
  }
}

const invalidType = (name: string, typeName: string, value: string): OpenApiError => ({
  kind: 'validation',
  code: 'type',
  name,
  value,
  message: `${name} in ${IN} must be of type ${typeName}: ${goQuote(value)}`,
});

const other = (name: string, value: unknown, message: string): OpenApiError => ({
  kind: 'validation',
  code: 'other',
  name,
  value,
  message,
});

/** Whether a float64 holds a whole number a JSON integer can carry (swag.IsFloat64AJSONInteger). */
function isJsonInteger(x: number): boolean {
  return Number.isFinite(x) && Math.abs(x) <= 2 ** 53 - 1 && Number.isInteger(x);
}

function checkType(s: JSONSchemaProps, data: unknown, path: string, out: OpenApiError[]): void {
  const types = typesOf(s);
  const format = formatOf(s);
  if (types.length === 0 && !format) return;
  const kind = goKind(data);
  if (kind === 'nil') {
    if (types.length > 0 && !types.includes('null') && !s.nullable) {
      out.push(invalidType(path, types.join(','), 'null'));
    }
    return;
  }
  const [schType, valueFormat] = schemaInfo(kind);
  const isFloatInt = schType === 'number' && isJsonInteger(data as number) && types.includes('integer');
  const isIntFloat = schType === 'integer' && types.includes('number');
  if (
    kind !== 'string' &&
    kind !== 'slice' &&
    format &&
    !(types.includes(schType) || valueFormat === format || isFloatInt || isIntFloat)
  ) {
    out.push(invalidType(path, format, valueFormat));
    return;
  }
  if (
    !(types.includes('number') || types.includes('integer')) &&
    format &&
    (kind === 'string' || kind === 'slice')
  )
    return;
  if (!(types.includes(schType) || isFloatInt || isIntFloat))
    out.push(invalidType(path, types.join(','), schType));
}

function checkAnyOf(s: JSONSchemaProps, data: unknown, path: string, out: OpenApiError[]): void {
  if (!s.anyOf || s.anyOf.length === 0) return;
  let best: OpenApiError[] | undefined;
  for (const branch of s.anyOf) {
    const found: OpenApiError[] = [];
    validateNode(branch, data, path, found);
    if (found.length === 0) return;
    best ??= found;
  }
  out.push({ kind: 'plain', message: `${goQuote(path)} must validate at least one schema (anyOf)` });
  out.push(...(best ?? []));
}

function checkString(s: JSONSchemaProps, data: string, path: string, out: OpenApiError[]): void {
  const length = [...data].length;
  if (s.maxLength !== undefined && length > s.maxLength) {
    out.push({
      kind: 'validation',
      code: 'tooLong',
      name: path,
      value: data,
      valid: s.maxLength,
      message: `${path} in ${IN} should be at most ${s.maxLength} chars long`,
    });
    return;
  }
  if (s.minLength !== undefined && length < s.minLength) {
    out.push(other(path, data, `${path} in ${IN} should be at least ${s.minLength} chars long`));
    return;
  }
  if (s.pattern !== undefined && !pattern(s.pattern).test(data)) {
    out.push(other(path, data, `${path} in ${IN} should match '${s.pattern}'`));
  }
}

const patterns = new Map<string, RegExp>();
function pattern(source: string): RegExp {
  let re = patterns.get(source);
  if (!re) patterns.set(source, (re = new RegExp(source, 'u')));
  return re;
}

/** strfmt's date (RFC 3339 full-date, a real day). */
function isDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  const days = [
    31,
    year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28,
    31,
    30,
    31,
    30,
    31,
    31,
    30,
    31,
    30,
    31,
  ];
  return day <= days[month - 1];
}

/** strfmt's date-time: a date, `t` (any case), then hh:mm:ss, an optional fraction and a zone. */
function isDateTime(text: string): boolean {
  if (text.length < 4) return false;
  const parts = text.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0])) return false;
  const m = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/u.exec(parts[1]);
  return m !== null && m[1] <= '23' && m[2] <= '59' && m[3] <= '59';
}

/** ajv-formats' check of a format, for the string formats kube-openapi checks alike (an approximation). */
function ajvFormat(
  name: 'uri' | 'email' | 'hostname' | 'ipv4' | 'ipv6' | 'uuid' | 'byte',
): (text: string) => boolean {
  const format = fullFormats[name];
  if (format instanceof RegExp) return (text) => format.test(text);
  if (typeof format === 'function') return (text) => (format as (t: string) => boolean)(text);
  return () => true;
}

/** The checks of the string formats: date-time and date as kube-openapi's strfmt does them. */
const FORMAT_CHECKS: Record<string, (text: string) => boolean> = {
  datetime: isDateTime,
  date: isDate,
  uri: ajvFormat('uri'),
  email: ajvFormat('email'),
  hostname: ajvFormat('hostname'),
  ipv4: ajvFormat('ipv4'),
  ipv6: ajvFormat('ipv6'),
  uuid: ajvFormat('uuid'),
  byte: ajvFormat('byte'),
};

function checkFormat(s: JSONSchemaProps, data: string, path: string, out: OpenApiError[]): void {
  const format = formatOf(s);
  const check = FORMAT_CHECKS[format.replace(/-/g, '')];
  if (check && !check(data)) out.push(invalidType(path, format, data));
}

const INT_RANGES: Record<string, [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
};

/** swag.FormatFloat64: the shortest decimal, never an exponent. */
function plainDecimal(x: number): string {
  if (Number.isInteger(x)) return BigInt(x).toString();
  const text = String(x);
  if (!/e/i.test(text)) return text;
  const [mantissa, exponent] = text.split('e');
  const exp = Number(exponent);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace(/^-/, '').replace('.', '');
  const point = mantissa.replace(/^-/, '').indexOf('.');
  const intDigits = (point < 0 ? digits.length : point) + exp;
  return `${negative ? '-' : ''}0.${'0'.repeat(-intDigits)}${digits}`;
}

function checkNumber(schema: JSONSchemaProps, data: number, path: string, out: OpenApiError[]): void {
  const s = schema as JSONSchemaProps & NumberKeywords;
  const kind = goKind(data);
  const types = typesOf(s);
  let typeName = '';
  let format = '';
  if (types.length === 1 && types[0] === 'integer') {
    typeName = 'integer';
    if (s.format === 'int32' || s.format === 'int64') format = s.format;
  } else if (types.length === 1 && types[0] === 'number') {
    typeName = 'number';
    if (s.format === 'float' || s.format === 'double') format = s.format;
  }
  let inRange = true;
  if (typeName === 'integer') {
    const text = kind === 'int64' ? BigInt(data).toString() : plainDecimal(data);
    const [min, max] = INT_RANGES[format || 'int64'];
    inRange = /^[+-]?\d+$/.test(text) && BigInt(text) >= min && BigInt(text) <= max;
  } else if (typeName === 'number' && format === 'float') {
    inRange = Math.abs(data) <= 3.4028234663852886e38;
  }
  if (!inRange) {
    out.push({
      kind: 'plain',
      message: format
        ? `Checked value must be of type ${typeName} with format ${format} in ${path}`
        : `Checked value must be of type ${typeName} (default format) in ${path}`,
    });
  }
  const bound = (b: number) => (kind === 'int64' ? String(Math.trunc(b)) : goFloat(b));
  const asBound = (b: number) => (kind === 'int64' ? Math.trunc(b) : b);
  if (s.multipleOf !== undefined) {
    const factor = s.multipleOf;
    const ratio =
      kind === 'int64' ? data / Math.trunc(factor) : factor < 1 ? (1 / factor) * data : data / factor;
    if (!Number.isInteger(ratio)) {
      out.push(other(path, data, `${path} in ${IN} should be a multiple of ${bound(factor)}`));
    }
  }
  if (s.minimum !== undefined) {
    const min = asBound(s.minimum);
    if (s.exclusiveMinimum ? data <= min : data < min) {
      const words = s.exclusiveMinimum ? 'greater than' : 'greater than or equal to';
      out.push(other(path, data, `${path} in ${IN} should be ${words} ${bound(s.minimum)}`));
    }
  }
  if (s.maximum !== undefined) {
    const max = asBound(s.maximum);
    if (s.exclusiveMaximum ? data >= max : data > max) {
      const words = s.exclusiveMaximum ? 'less than' : 'less than or equal to';
      out.push(other(path, data, `${path} in ${IN} should be ${words} ${bound(s.maximum)}`));
    }
  }
}

function checkArray(s: JSONSchemaProps, data: unknown[], path: string, out: OpenApiError[]): void {
  if (s.items) data.forEach((item, i) => validateNode(s.items!, item, `${path}[${i}]`, out));
  if (s.minItems !== undefined && data.length < s.minItems) {
    out.push(other(path, data.length, `${path} in ${IN} should have at least ${s.minItems} items`));
  }
  if (s.maxItems !== undefined && data.length > s.maxItems) {
    out.push({
      kind: 'validation',
      code: 'tooMany',
      name: path,
      value: data.length,
      valid: s.maxItems,
      message: `${path} in ${IN} should have at most ${s.maxItems} items`,
    });
  }
  if ((s as { uniqueItems?: boolean }).uniqueItems) {
    const seen = data.map((item) => JSON.stringify(sortedJson(item)));
    if (new Set(seen).size !== seen.length) {
      out.push(other(path, undefined, `${path} in ${IN} shouldn't contain duplicates`));
    }
  }
}

function sortedJson(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedJson);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortedJson((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

/** Equality as the enum check has it: deep, and a number equals a number of the same value. */
function enumEqual(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  return JSON.stringify(sortedJson(a)) === JSON.stringify(sortedJson(b));
}

function checkEnum(s: JSONSchemaProps, data: unknown, path: string, out: OpenApiError[]): void {
  const values = s.enum as unknown[] | undefined;
  if (!values || values.length === 0) return;
  if (data !== null && data !== undefined && values.some((v) => enumEqual(data, v))) return;
  out.push({
    kind: 'validation',
    code: 'enum',
    name: path,
    value: data ?? null,
    values,
    message: `${path} in ${IN} should be one of ${JSON.stringify(values)}`,
  });
}

function checkObject(
  s: JSONSchemaProps,
  data: Record<string, unknown>,
  path: string,
  out: OpenApiError[],
): void {
  const size = Object.keys(data).length;
  if (s.minProperties !== undefined && size < s.minProperties) {
    out.push(other(path, size, `${path} in ${IN} should have at least ${s.minProperties} properties`));
  }
  if (s.maxProperties !== undefined && size > s.maxProperties) {
    out.push({
      kind: 'validation',
      code: 'tooMany',
      name: path,
      value: size,
      valid: s.maxProperties,
      message: `${path} in ${IN} should have at most ${s.maxProperties} properties`,
    });
  }
  const properties = s.properties ?? {};
  if (typeof s.additionalProperties === 'object') {
    for (const [key, value] of Object.entries(data)) {
      if (!(key in properties)) validateNode(s.additionalProperties, value, `${path}.${key}`, out);
    }
  }
  for (const [name, schema] of Object.entries(properties)) {
    if (name in data) validateNode(schema, data[name], path ? `${path}.${name}` : name, out);
  }
  for (const name of s.required ?? []) {
    if (!(name in data)) {
      out.push({
        kind: 'validation',
        code: 'required',
        name: `${path}.${name}`,
        message: `${path}.${name} in ${IN} is required`,
      });
    }
  }
}

/** kube-openapi's SchemaValidator on one node. */
function validateNode(s: JSONSchemaProps, data: unknown, path: string, out: OpenApiError[]): void {
  const kind = goKind(data);
  checkType(s, data, path, out);
  if (kind === 'nil') {
    checkEnum(s, data, path, out);
    return;
  }
  checkAnyOf(s, data, path, out);
  if (kind === 'string') {
    checkString(s, data as string, path, out);
    checkFormat(s, data as string, path, out);
  }
  if (kind === 'int64' || kind === 'float64') checkNumber(s, data as number, path, out);
  if (kind === 'slice') checkArray(s, data as unknown[], path, out);
  checkEnum(s, data, path, out);
  if (kind === 'map') checkObject(s, data as Record<string, unknown>, path, out);
}

/** A child of a field path (`field.Path.Child`); `null` is the object itself. */
export function childPath(base: string | null, name: string): string {
  return base === null ? name : `${base}.${name}`;
}

/**
 * The field errors of `data` under `schema`, as the API server reports them: paths below `base`
 * (`null` for the object itself; `status` when a /status write is checked against the status schema).
 */
export function validateOpenApi(schema: JSONSchemaProps, data: unknown, base: string | null): FieldError[] {
  const found: OpenApiError[] = [];
  validateNode(schema, data, '', found);
  return found.map((e): FieldError => {
    if (e.kind === 'plain')
      return { field: base ?? NIL_PATH, type: 'FieldValueInvalid', value: '', detail: e.message };
    const name = e.name.replace(/^\./, '');
    const field = name && name !== '.' ? childPath(base, name) : (base ?? NIL_PATH);
    const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);
    switch (e.code) {
      case 'required':
        return { field, type: 'FieldValueRequired', value: '', detail: '' };
      case 'enum':
        return {
          field,
          type: 'FieldValueNotSupported',
          value: e.value,
          detail: `supported values: ${(e.values ?? [])
            .map((v) => goQuote(typeof v === 'string' ? v : JSON.stringify(v)))
            .join(', ')}`,
        };
      case 'tooLong':
        return {
          field,
          type: 'FieldValueTooLong',
          value: OMIT_VALUE,
          detail: `may not be more than ${e.valid} ${plural(e.valid!, 'byte', 'bytes')}`,
        };
      case 'tooMany':
        return {
          field,
          type: 'FieldValueTooMany',
          value: e.value,
          detail: `must have at most ${e.valid} ${plural(e.valid!, 'item', 'items')}`,
        };
      case 'type':
        return { field, type: 'FieldValueTypeInvalid', value: e.value ?? '', detail: e.message };
      default:
        return { field, type: 'FieldValueInvalid', value: e.value ?? '', detail: e.message };
    }
  });
}
