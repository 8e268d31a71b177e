/**
 * The `labelSelector` and `fieldSelector` query parameters of list and watch, parsed as the API server
 * parses them. A label selector becomes a `LabelSelector` evaluated by the library's `matchesSelector`
 * (the matching the controller and Jumpstarter use); field selectors support `metadata.name` and
 * `metadata.namespace`, the fields every resource type has. Malformed text is a 400 BadRequest.
 */
import {
  matchesSelector,
  validateLabelSelector,
  type LabelSelector,
  type LabelSelectorRequirement,
} from 'virtual-exporters/internal';
import { ApiError, type KubeObject, type ListOptions } from './types';

function badLabelSelector(text: string, why: string): ApiError {
  return new ApiError(400, 'BadRequest', `unable to parse requirement: label selector "${text}": ${why}`);
}

type Token =
  | { kind: 'word'; text: string }
  | { kind: 'op'; text: '!' | '=' | '==' | '!=' | '(' | ')' | ',' | '<' | '>' }
  | { kind: 'end' };

/** Splits a selector into words (keys, values, `in`, `notin`) and punctuation. */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '!' || c === '=') {
      const two = text.slice(i, i + 2);
      if (two === '!=' || two === '==') {
        tokens.push({ kind: 'op', text: two });
        i += 2;
      } else {
        tokens.push({ kind: 'op', text: c });
        i++;
      }
    } else if ('(),<>'.includes(c)) {
      tokens.push({ kind: 'op', text: c as '(' | ')' | ',' | '<' | '>' });
      i++;
    } else {
      let j = i;
      while (j < text.length && !/[\s!=(),<>]/.test(text[j])) j++;
      tokens.push({ kind: 'word', text: text.slice(i, j) });
      i = j;
    }
  }
  tokens.push({ kind: 'end' });
  return tokens;
}

/**
 * Parses Kubernetes' string form (`a=b,c!=d,e in (x,y),f notin (z),g,!h`; `==` means `=`) into a
 * `LabelSelector`. `a=b` is `a In (b)` and `a!=b` is `a NotIn (b)` (so it matches objects without
 * `a`). Empty or absent text selects everything (`{}`). Throws 400 BadRequest when malformed.
 */
export function parseLabelSelector(text: string | undefined): LabelSelector {
  const source = text ?? '';
  const tokens = tokenize(source);
  let pos = 0;
  const peek = () => tokens[pos];
  const next = () => tokens[pos++];
  const fail = (why: string) => badLabelSelector(source, why);
  const word = (what: string): string => {
    const t = next();
    if (t.kind !== 'word')
      throw fail(`expected ${what}, found ${t.kind === 'end' ? 'the end' : `"${t.text}"`}`);
    return t.text;
  };
  const isOp = (t: Token, op: string) => t.kind === 'op' && t.text === op;

  const expressions: LabelSelectorRequirement[] = [];
  if (peek().kind === 'end') return {};
  for (;;) {
    if (isOp(peek(), '!')) {
      next();
      expressions.push({ key: word('a label key after "!"'), operator: 'DoesNotExist' });
    } else {
      const key = word('a label key');
      const t = peek();
      if (t.kind === 'end' || isOp(t, ',')) {
        expressions.push({ key, operator: 'Exists' });
      } else if (isOp(t, '=') || isOp(t, '==') || isOp(t, '!=')) {
        next();
        // An empty value (`a=`) is a valid label value.
        const value = peek().kind === 'word' ? word('a value') : '';
        expressions.push({ key, operator: isOp(t, '!=') ? 'NotIn' : 'In', values: [value] });
      } else if (t.kind === 'word' && (t.text === 'in' || t.text === 'notin')) {
        next();
        if (!isOp(next(), '(')) throw fail(`expected "(" after "${t.text}"`);
        const values: string[] = [];
        for (;;) {
          values.push(peek().kind === 'word' ? word('a value') : '');
          const sep = next();
          if (isOp(sep, ')')) break;
          if (!isOp(sep, ',')) throw fail(`expected "," or ")" in the values of "${key}"`);
        }
        expressions.push({ key, operator: t.text === 'in' ? 'In' : 'NotIn', values });
      } else if (isOp(t, '<') || isOp(t, '>')) {
        throw fail(`the "${t.text}" operator is not supported by the test cluster`);
      } else {
        throw fail(`expected an operator (=, ==, !=, in, notin) after "${key}"`);
      }
    }
    const sep = next();
    if (sep.kind === 'end') break;
    if (!isOp(sep, ',')) throw fail(`expected "," between requirements, found "${sep.text}"`);
  }
  const selector: LabelSelector = { matchExpressions: expressions };
  const issues = validateLabelSelector(selector, 'labelSelector');
  if (issues.length > 0) throw fail(issues.map((i) => `${i.path}: ${i.message}`).join('; '));
  return selector;
}

/** One `field=value` / `field!=value` requirement of a field selector. */
export interface FieldRequirement {
  readonly field: 'metadata.name' | 'metadata.namespace';
  readonly operator: '=' | '!=';
  readonly value: string;
}

const SUPPORTED_FIELDS = ['metadata.name', 'metadata.namespace'] as const;

/** Splits on `sep` where it is not escaped with a backslash (the API server's field selector escaping). */
function splitUnescaped(text: string, sep: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && i + 1 < text.length) {
      current += text[i] + text[i + 1];
      i++;
    } else if (text[i] === sep) {
      parts.push(current);
      current = '';
    } else current += text[i];
  }
  parts.push(current);
  return parts;
}

const unescape = (s: string) => s.replace(/\\(.)/g, '$1');

/**
 * Parses a field selector (`metadata.name=x,metadata.namespace!=y`; `==` means `=`). Only
 * `metadata.name` and `metadata.namespace` are supported, as for custom resources. Throws 400.
 */
export function parseFieldSelector(text: string | undefined): FieldRequirement[] {
  const source = (text ?? '').trim();
  if (source === '') return [];
  return splitUnescaped(source, ',').map((part) => {
    const m = /^(.*?)(!=|==|=)(.*)$/s.exec(part);
    if (!m) {
      throw new ApiError(
        400,
        'BadRequest',
        `invalid field selector "${source}": "${part}" is not field=value or field!=value`,
      );
    }
    const field = m[1].trim();
    if (!(SUPPORTED_FIELDS as readonly string[]).includes(field)) {
      // kube-apiserver's words for a kind whose only field selectors are the metadata ones.
      throw new ApiError(
        400,
        'BadRequest',
        `${JSON.stringify(field)} is not a known field selector: only ${SUPPORTED_FIELDS.map((f) => JSON.stringify(f)).join(', ')}`,
      );
    }
    return {
      field: field as FieldRequirement['field'],
      operator: m[2] === '!=' ? '!=' : '=',
      value: unescape(m[3].trim()),
    };
  });
}

/** Whether `object` meets every requirement. */
export function matchesFields(requirements: readonly FieldRequirement[], object: KubeObject): boolean {
  return requirements.every(({ field, operator, value }) => {
    const actual = (field === 'metadata.name' ? object.metadata.name : object.metadata.namespace) ?? '';
    return operator === '=' ? actual === value : actual !== value;
  });
}

/** A predicate for list and watch: both selectors of `options`, parsed once (throws 400 when malformed). */
export function objectFilter(options: ListOptions = {}): (object: KubeObject) => boolean {
  const labels = options.labelSelector?.trim() ? parseLabelSelector(options.labelSelector) : undefined;
  const fields = parseFieldSelector(options.fieldSelector);
  return (object) =>
    (labels === undefined || matchesSelector(labels, object.metadata.labels)) &&
    matchesFields(fields, object);
}
