/**
 * Kubernetes' field errors (apimachinery `field.Error`) and how the API server prints them: the error
 * types, the `<field>: <body>` line of a 422 `Status` message, and the value in the body as Go prints
 * it (`%v` for numbers and booleans, `%q` for strings, JSON with sorted keys for the rest). The values
 * are classified as the API server's JSON decoder sees them: an integer without a fraction or an
 * exponent is an `int64`, every other number a `float64`.
 */

/** `field.ErrorType`. */
export type FieldErrorType =
  | 'FieldValueInvalid'
  | 'FieldValueTypeInvalid'
  | 'FieldValueRequired'
  | 'FieldValueNotSupported'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueDuplicate'
  | 'FieldValueForbidden'
  | 'InternalError';

/** The value of an error that prints none (`field.OmitValueType`). */
export const OMIT_VALUE: unique symbol = Symbol('omit value');

/** One field error. */
export interface FieldError {
  /** The field path as Kubernetes prints it; `<nil>` for the object itself. */
  readonly field: string;
  readonly type: FieldErrorType;
  /** The bad value (`OMIT_VALUE`: none is printed). */
  readonly value: unknown;
  /** What follows the type and value. */
  readonly detail: string;
}

/** The errors that stop the CEL rules from running (apiextensions' `hasBlockingErr`). */
export const BLOCKING_ERROR_TYPES: ReadonlySet<string> = new Set([
  'FieldValueNotSupported',
  'FieldValueRequired',
  'FieldValueTooLong',
  'FieldValueTooMany',
  'FieldValueTypeInvalid',
]);

/** The path of the object itself, as `(*field.Path)(nil).String()` prints it. */
export const NIL_PATH = '<nil>';

const TYPE_WORDS: Record<FieldErrorType, string> = {
  FieldValueInvalid: 'Invalid value',
  FieldValueTypeInvalid: 'Invalid value',
  FieldValueRequired: 'Required value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueForbidden: 'Forbidden',
  InternalError: 'Internal error',
};

/** The body of an error (`field.Error.ErrorBody`): what follows `<field>: `. */
export function errorBody(e: Pick<FieldError, 'type' | 'value' | 'detail'>): string {
  let text = TYPE_WORDS[e.type];
  const printsValue = ![
    'FieldValueRequired',
    'FieldValueForbidden',
    'FieldValueTooLong',
    'InternalError',
  ].includes(e.type);
  if (printsValue && e.value !== OMIT_VALUE) text += `: ${goValue(e.value)}`;
  if (e.detail) text += `: ${e.detail}`;
  return text;
}

/** The value as `ErrorBody` prints it. */
export function goValue(value: unknown): string {
  switch (goKind(value)) {
    case 'int64':
    case 'bool':
      return String(value);
    case 'float64':
      return goFloat(value as number);
    case 'string':
      return goQuote(value as string);
    default:
      return goJson(value);
  }
}

/** How the API server's JSON decoder types a value. */
export type GoKind = 'nil' | 'bool' | 'string' | 'int64' | 'float64' | 'slice' | 'map';

export function goKind(value: unknown): GoKind {
  if (value === null || value === undefined) return 'nil';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number')
    return Number.isInteger(value) && Math.abs(value) < 2 ** 63 ? 'int64' : 'float64';
  if (typeof value === 'bigint') return 'int64';
  if (Array.isArray(value)) return 'slice';
  return 'map';
}

/** `%v` of a float64: Go's shortest form, with an exponent (of at least two digits) below 1e-4 and from 1e6 on. */
export function goFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mantissa, exponent] = x.toExponential().split('e');
  const exp = Number(exponent);
  if (exp < -4 || exp >= 6) {
    const digits = String(Math.abs(exp)).padStart(2, '0');
    return `${mantissa}e${exp < 0 ? '-' : '+'}${digits}`;
  }
  return String(x);
}

/** Characters Go's `strconv.Quote` escapes: all but letters, marks, numbers, punctuation, symbols and ' '. */
const NOT_PRINTABLE = /[\p{C}\p{Z}]/u;

/** `%q` of a string (`strconv.Quote`). */
export function goQuote(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === ' ' || !NOT_PRINTABLE.test(ch)) out += ch;
    else if (code === 7) out += '\\a';
    else if (code === 8) out += '\\b';
    else if (code === 12) out += '\\f';
    else if (code === 10) out += '\\n';
    else if (code === 13) out += '\\r';
    else if (code === 9) out += '\\t';
    else if (code === 11) out += '\\v';
    else if (code < 0x80) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code <= 0xffff) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/** Go's `json.Marshal` of a decoded value: map keys sorted, `<`, `>`, `&`, U+2028 and U+2029 escaped. */
export function goJson(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return (JSON.stringify(sorted(value)) ?? 'null').replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** `%v` of a decoded value: strings bare, `[a b]` for lists, `map[k:v]` (keys sorted) for maps. */
export function goPlain(value: unknown): string {
  switch (goKind(value)) {
    case 'nil':
      return '<nil>';
    case 'float64':
      return goFloat(value as number);
    case 'slice':
      return `[${(value as unknown[]).map(goPlain).join(' ')}]`;
    case 'map': {
      const map = value as Record<string, unknown>;
      return `map[${Object.keys(map)
        .sort()
        .map((k) => `${k}:${goPlain(map[k])}`)
        .join(' ')}]`;
    }
    default:
      return String(value);
  }
}

/** `%T` of a decoded value. */
export function goTypeName(value: unknown): string {
  const names: Record<GoKind, string> = {
    nil: '<nil>',
    bool: 'bool',
    string: 'string',
    int64: 'int64',
    float64: 'float64',
    slice: '[]interface {}',
    map: 'map[string]interface {}',
  };
  return names[goKind(value)];
}
