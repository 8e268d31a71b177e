/**
 * A static cost estimate of CRD validation rules, for tests: a small model of the check a Kubernetes
 * API server makes when a CRD is created or updated. The API server estimates the worst-case cost
 * of every `x-kubernetes-validations` rule from the schema alone, multiplies it by how often the
 * rule can run in one object (once per item of the lists around it), and refuses the CRD when one
 * rule exceeds StaticEstimatedCostLimit or all rules together exceed StaticEstimatedCRDCostLimit. Sizes come from `maxLength`, `maxItems`,
 * `maxProperties` and enums; a field without a bound is assumed to fill a whole 3 MiB request.
 *
 * This is a conservative approximation, not a port of cel-go. It uses the same size rules (a
 * `maxLength` counts 4 bytes per character, an unbounded string fills the request, an unbounded
 * list or map holds as many of its smallest items as a request fits), the same cost factors for
 * what our rules use (0.1 per byte a string function or comparison traverses, 0.25 per regex
 * character, one per item a list membership test scans, items × body for a comprehension), and it
 * loses track of sizes where cel-go does (the items of `split`). It rounds the fixed per-step
 * costs its own way and does not model what our rules do not use (optionals, `cel.bind`,
 * two-variable comprehensions, messageExpression, the Kubernetes library functions), so its numbers
 * are close to, not equal to, the API server's: tests keep a wide margin to the real limits.
 *
 * Beyond the number it says *why* a rule is expensive: every list or map a comprehension ranges
 * over (with its bound), and every unbounded list, map or string that a rule ranges over, searches,
 * compares or passes to a string function.
 */
import { Environment, type ASTNode } from '@marcbachmann/cel-js';
import type { CustomResourceDefinition, JSONSchemaProps, ValidationRule } from '../../lib/crds';

/** The API server's request size limit: what bounds every field the schema leaves unbounded. */
export const MAX_REQUEST_BYTES = 3 * 1024 * 1024;
/** The most one rule may be estimated to cost (apiextensions' StaticEstimatedCostLimit). */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;
/** The most all rules of a CRD version may cost together (StaticEstimatedCRDCostLimit). */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;

const STRING_TRAVERSAL_COST = 0.1;
const REGEX_LENGTH_COST = 0.25;
const LIST_CREATE_COST = 10;
const MAP_CREATE_COST = 30;
/** Per step of all/exists/exists_one (loop condition and accumulator update), and of map/filter (list append). */
const TEST_STEP_COST = 3;
const COLLECT_STEP_COST = 3 + LIST_CREATE_COST;
/** A `maxLength` counts characters; the API server reasons in bytes, and a character takes up to 4. */
const BYTES_PER_CHARACTER = 4;
const UNBOUNDED_STRING_BYTES = MAX_REQUEST_BYTES - 2;

/** Something a rule does with a value (`all`, `exists_one`, `in`, `split`, `size`, `==`...). */
export interface Use {
  /** The schema field, e.g. `spec.template.spec.drivers[*].type`, or the CEL text that computes the value. */
  readonly field: string;
  readonly use: string;
}

/** A list or map a rule iterates, with the most items the estimate allows it. */
export interface Range extends Use {
  readonly size: number;
  /** Whether the size is a bound of the schema (else it is what fits in a request, or unknown). */
  readonly bounded: boolean;
}

export interface RuleEstimate {
  /** Schema path of the node that carries the rule (`''` is the root); items are `[*]`, map values `{*}`. */
  readonly location: string;
  readonly rule: string;
  readonly message?: string;
  /** Worst-case cost of one evaluation. */
  readonly cost: number;
  /**
   * Worst-case comprehension steps (and items scanned by `in`): for each, the product of its bound
   * and the bounds of the comprehensions it is nested in, summed.
   */
  readonly iterations: number;
  /** How many times the rule can run on one object: the product of the sizes of the lists and maps around it. */
  readonly cardinality: number;
  /** `cost × cardinality`: what the API server compares with StaticEstimatedCostLimit and adds up for the CRD. */
  readonly objectCost: number;
  readonly ranges: Range[];
  /** Unbounded (or unknown-size) lists, maps and strings the rule iterates, searches, compares or passes to a string function. */
  readonly unbounded: Use[];
}

// ---- values as the estimator sees them ----

type Kind = 'string' | 'list' | 'map' | 'object' | 'scalar' | 'dyn';

interface Value {
  readonly kind: Kind;
  /** Largest size as the API server counts it: bytes of a string, items of a list, entries of a map. */
  readonly size: number;
  /** Whether the size follows from bounds (schema bounds, enums, literals) rather than the request size. */
  readonly bounded: boolean;
  /** A schema path, or the CEL text that computes the value. */
  readonly origin: string;
  readonly schema?: JSONSchemaProps;
  /** Items of a list, values of a map. */
  readonly element?: () => Value;
  /** Keys of a map. */
  readonly key?: () => Value;
}

const scalar = (origin: string): Value => ({ kind: 'scalar', size: 1, bounded: true, origin });
const unknown = (origin: string, kind: Kind = 'dyn'): Value => ({
  kind,
  size: Infinity,
  bounded: false,
  origin,
});

/** The smallest a value of this schema can be in JSON, which caps how many fit in a request. */
function minSerializedSize(schema: JSONSchemaProps): number {
  if (schema['x-kubernetes-int-or-string']) return 1;
  switch (schema.type) {
    case 'string':
      return 2;
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return 4;
    case 'object': {
      let size = 2;
      for (const name of schema.required ?? []) {
        const prop = schema.properties?.[name];
        if (prop && prop.default === undefined) size += name.length + minSerializedSize(prop) + 4;
      }
      return size;
    }
    default:
      return 2;
  }
}

function stringValue(schema: JSONSchemaProps, origin: string): Value {
  if (schema.maxLength !== undefined) {
    return { kind: 'string', size: schema.maxLength * BYTES_PER_CHARACTER, bounded: true, origin, schema };
  }
  if (schema.enum) {
    const longest = Math.max(0, ...schema.enum.map((e) => String(e).length));
    return { kind: 'string', size: longest, bounded: true, origin, schema };
  }
  return { kind: 'string', size: UNBOUNDED_STRING_BYTES, bounded: false, origin, schema };
}

/** The value a schema node describes, as the API server sizes it. */
function fromSchema(schema: JSONSchemaProps, origin: string): Value {
  if (schema['x-kubernetes-int-or-string']) return { ...stringValue(schema, origin), kind: 'dyn' };
  switch (schema.type) {
    case 'string':
      // Timestamps and durations are fixed-size CEL values, not strings.
      return schema.format === 'date-time' || schema.format === 'date' || schema.format === 'duration'
        ? scalar(origin)
        : stringValue(schema, origin);
    case 'integer':
    case 'number':
    case 'boolean':
      return scalar(origin);
    case 'array': {
      const items = schema.items ?? {};
      const bounded = schema.maxItems !== undefined;
      return {
        kind: 'list',
        size: bounded
          ? schema.maxItems!
          : Math.floor((MAX_REQUEST_BYTES - 2) / (minSerializedSize(items) + 1)),
        bounded,
        origin,
        schema,
        element: () => fromSchema(items, `${origin}[*]`),
      };
    }
    case 'object': {
      const values = schema.additionalProperties;
      if (typeof values === 'object') {
        const bounded = schema.maxProperties !== undefined;
        return {
          kind: 'map',
          size: bounded
            ? schema.maxProperties!
            : Math.floor((MAX_REQUEST_BYTES - 2) / (minSerializedSize(values) + 6)),
          bounded,
          origin,
          schema,
          element: () => fromSchema(values, `${origin}{*}`),
          // A structural schema cannot bound map keys.
          key: () => ({
            kind: 'string',
            size: UNBOUNDED_STRING_BYTES,
            bounded: false,
            origin: `${origin} keys`,
          }),
        };
      }
      return { kind: 'object', size: 1, bounded: true, origin, schema };
    }
    default:
      return unknown(origin);
  }
}

function union(a: Value, b: Value, origin: string): Value {
  const ea = a.element;
  const eb = b.element;
  return {
    kind: a.kind === b.kind ? a.kind : 'dyn',
    size: Math.max(a.size, b.size),
    bounded: a.bounded && b.bounded,
    origin,
    element: ea && eb ? () => union(ea(), eb(), `${origin}[*]`) : undefined,
  };
}

/** Costs of `size` bytes at `factor` per byte, rounded up as cel-go does. */
const traverse = (size: number, factor = STRING_TRAVERSAL_COST) => Math.ceil(size * factor);
/** Multiplication where an empty range stays empty even when the other side is unknown. */
const times = (a: number, b: number) => (a === 0 || b === 0 ? 0 : a * b);

// ---- the walk over a rule's AST ----

interface Visited {
  readonly value: Value;
  readonly cost: number;
}

const COMPREHENSIONS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);
/** String functions that traverse their target once (twice for split and replace) and return a string no longer than it. */
const TRAVERSING = new Map([
  ['substring', 1],
  ['lowerAscii', 1],
  ['upperAscii', 1],
  ['trim', 1],
  ['indexOf', 1],
  ['lastIndexOf', 1],
  ['split', 2],
  ['replace', 2],
]);
const RETURNS_INTEGER = new Set(['indexOf', 'lastIndexOf']);
/** Conversions and accessors with a fixed-size result (everything else unknown is of unknown size). */
const FIXED_SIZE_RESULTS = new Set([
  // `type(x)` yields a type value (compared with `int` or `string` on an int-or-string field).
  'type',
  'int',
  'uint',
  'double',
  'bool',
  'duration',
  'timestamp',
  'getFullYear',
  'getMonth',
  'getDayOfMonth',
  'getDayOfWeek',
  'getDayOfYear',
  'getDate',
  'getHours',
  'getMinutes',
  'getSeconds',
  'getMilliseconds',
]);
const COMPARISONS = new Set(['==', '!=', '<', '<=', '>', '>=']);

const textOf = (node: ASTNode) => node.input.slice(node.range.start, node.range.end);

class RuleWalker {
  iterations = 0;
  readonly ranges: Range[] = [];
  readonly unbounded: Use[] = [];

  private flag(value: Value, use: string): void {
    if (value.bounded) return;
    const field = value.origin || '<root>';
    if (!this.unbounded.some((u) => u.field === field && u.use === use)) this.unbounded.push({ field, use });
  }

  private range(value: Value, use: string): void {
    const field = value.origin || '<root>';
    if (!this.ranges.some((r) => r.field === field && r.use === use)) {
      this.ranges.push({ field, use, size: value.size, bounded: value.bounded });
    }
  }

  visit(node: ASTNode, scope: ReadonlyMap<string, Value>, multiplier: number): Visited {
    switch (node.op) {
      case 'value': {
        const v = node.args;
        if (typeof v === 'string') {
          return {
            value: { kind: 'string', size: [...v].length, bounded: true, origin: textOf(node) },
            cost: 0,
          };
        }
        return { value: scalar(textOf(node)), cost: 0 };
      }
      case 'id':
        return { value: scope.get(node.args) ?? unknown(node.args), cost: 1 };
      case '.':
      case '.?': {
        const [base, field] = node.args;
        const b = this.visit(base, scope, multiplier);
        return { value: this.member(b.value, field, textOf(node)), cost: b.cost + 1 };
      }
      case '[]':
      case '[?]': {
        const [base, index] = node.args;
        const b = this.visit(base, scope, multiplier);
        const i = this.visit(index, scope, multiplier);
        let value: Value;
        if ((b.value.kind === 'list' || b.value.kind === 'map') && b.value.element) value = b.value.element();
        else if (b.value.kind === 'object' && index.op === 'value' && typeof index.args === 'string') {
          value = this.member(b.value, index.args, textOf(node));
        } else value = unknown(textOf(node));
        return { value, cost: b.cost + i.cost + 1 };
      }
      case 'call': {
        const [name, args] = node.args;
        return this.call(node, name, undefined, args, scope, multiplier);
      }
      case 'rcall': {
        const [name, target, args] = node.args;
        if (COMPREHENSIONS.has(name)) return this.comprehension(node, name, target, args, scope, multiplier);
        return this.call(node, name, target, args, scope, multiplier);
      }
      case 'list': {
        const items = node.args.map((a) => this.visit(a, scope, multiplier));
        const first = items[0]?.value;
        const element = items.slice(1).reduce((u, v) => union(u, v.value, textOf(node)), first);
        return {
          value: {
            kind: 'list',
            size: items.length,
            bounded: true,
            origin: textOf(node),
            element: element ? () => element : undefined,
          },
          cost: items.reduce((sum, v) => sum + v.cost, LIST_CREATE_COST),
        };
      }
      case 'map': {
        const cost = node.args.reduce(
          (sum, [k, v]) =>
            sum + this.visit(k, scope, multiplier).cost + this.visit(v, scope, multiplier).cost,
          MAP_CREATE_COST,
        );
        return { value: { kind: 'map', size: node.args.length, bounded: true, origin: textOf(node) }, cost };
      }
      case '?:': {
        const [condition, then, otherwise] = node.args;
        const c = this.visit(condition, scope, multiplier);
        const t = this.visit(then, scope, multiplier);
        const o = this.visit(otherwise, scope, multiplier);
        return { value: union(t.value, o.value, textOf(node)), cost: c.cost + Math.max(t.cost, o.cost) };
      }
      case '&&':
      case '||': {
        const [l, r] = node.args;
        return {
          value: scalar(textOf(node)),
          cost: this.visit(l, scope, multiplier).cost + this.visit(r, scope, multiplier).cost,
        };
      }
      case '!_':
      case '-_': {
        const a = this.visit(node.args, scope, multiplier);
        return { value: scalar(textOf(node)), cost: a.cost + 1 };
      }
      default:
        return this.binary(node, scope, multiplier);
    }
  }

  private member(base: Value, field: string, origin: string): Value {
    if (base.kind === 'object' && base.schema) {
      const prop = base.schema.properties?.[field];
      if (prop) return fromSchema(prop, base.origin ? `${base.origin}.${field}` : field);
    }
    if (base.kind === 'map' && base.element) return base.element();
    return unknown(origin);
  }

  private binary(node: ASTNode, scope: ReadonlyMap<string, Value>, multiplier: number): Visited {
    const [left, right] = node.args as [ASTNode, ASTNode];
    const l = this.visit(left, scope, multiplier);
    const r = this.visit(right, scope, multiplier);
    const operands = l.cost + r.cost;
    const origin = textOf(node);
    if (COMPARISONS.has(node.op)) {
      // cel-go charges the traversal of the shorter operand; one bounded side is enough.
      const shorter = l.value.size <= r.value.size ? l.value : r.value;
      if (shorter.kind !== 'scalar') this.flag(shorter, node.op);
      return { value: scalar(origin), cost: operands + Math.max(1, traverse(shorter.size)) };
    }
    if (node.op === 'in') {
      if (r.value.kind === 'map') return { value: scalar(origin), cost: operands + 1 };
      this.flag(r.value, 'in');
      // A literal list is scanned too, but it is not data the schema has to bound.
      if (right.op !== 'list') this.range(r.value, 'in');
      this.iterations += times(multiplier, r.value.size);
      return { value: scalar(origin), cost: operands + r.value.size };
    }
    if (node.op === '+' && l.value.kind === 'string' && r.value.kind === 'string') {
      const size = l.value.size + r.value.size;
      const bounded = l.value.bounded && r.value.bounded;
      return { value: { kind: 'string', size, bounded, origin }, cost: operands + traverse(size) };
    }
    if (node.op === '+' && l.value.kind === 'list' && r.value.kind === 'list') {
      const merged = union(l.value, r.value, origin);
      return { value: { ...merged, size: l.value.size + r.value.size }, cost: operands + 1 };
    }
    return { value: scalar(origin), cost: operands + 1 };
  }

  private comprehension(
    node: ASTNode,
    name: string,
    target: ASTNode,
    args: ASTNode[],
    scope: ReadonlyMap<string, Value>,
    multiplier: number,
  ): Visited {
    const range = this.visit(target, scope, multiplier);
    const r = range.value;
    const iterable = (r.kind === 'list' || r.kind === 'map') && r.element;
    const over: Value = iterable ? r : unknown(r.origin);
    this.flag(over, name);
    this.range(over, name);
    const count = over.size;
    this.iterations += times(multiplier, count);

    // Maps are iterated by key.
    const variable = args[0];
    const item = !iterable ? unknown(`${r.origin}[*]`) : r.kind === 'map' && r.key ? r.key() : r.element!();
    const inner = new Map(scope);
    if (variable?.op === 'id') inner.set(variable.args, item);
    const bodies = args.slice(1).map((a) => this.visit(a, inner, times(multiplier, count)));
    const body = bodies.reduce((sum, b) => sum + b.cost, 0);
    const collects = name === 'map' || name === 'filter';
    const cost = range.cost + times(count, body + (collects ? COLLECT_STEP_COST : TEST_STEP_COST)) + 1;

    const origin = textOf(node);
    if (!collects) return { value: scalar(origin), cost };
    const element = name === 'map' ? bodies[bodies.length - 1].value : item;
    return {
      value: { kind: 'list', size: count, bounded: over.bounded, origin, element: () => element },
      cost,
    };
  }

  private call(
    node: ASTNode,
    name: string,
    target: ASTNode | undefined,
    args: ASTNode[],
    scope: ReadonlyMap<string, Value>,
    multiplier: number,
  ): Visited {
    const origin = textOf(node);
    if (name === 'has' && !target) {
      // A presence test costs one plus its operand, without selecting the field.
      const field = args[0];
      const operand = field?.op === '.' || field?.op === '.?' ? field.args[0] : field;
      return { value: scalar(origin), cost: (operand ? this.visit(operand, scope, multiplier).cost : 0) + 1 };
    }
    // Global `f(x, ...)` and member `x.f(...)` forms of the string functions are the same to the estimate.
    const [self, ...rest] = target ? [target, ...args] : args;
    const t = self ? this.visit(self, scope, multiplier) : undefined;
    const a = rest.map((x) => this.visit(x, scope, multiplier));
    const operands = (t?.cost ?? 0) + a.reduce((sum, x) => sum + x.cost, 0);
    const tv = t?.value;

    if (name === 'size') {
      // Constant time in cel-go whatever the string's length (a map key or an annotation has none).
      return { value: scalar(origin), cost: operands + 1 };
    }
    if (FIXED_SIZE_RESULTS.has(name)) return { value: scalar(origin), cost: operands + 1 };
    if (!tv || (tv.kind !== 'string' && tv.kind !== 'dyn')) {
      return { value: unknown(origin), cost: operands + 1 };
    }
    const passes = TRAVERSING.get(name);
    if (passes !== undefined) {
      this.flag(tv, name);
      const cost = operands + traverse(tv.size, passes * STRING_TRAVERSAL_COST);
      if (RETURNS_INTEGER.has(name)) return { value: scalar(origin), cost };
      if (name === 'split') {
        // cel-go knows how many parts a split makes at most, but not how long each is.
        const part = unknown(`${origin}[*]`, 'string');
        return {
          value: { kind: 'list', size: tv.size, bounded: tv.bounded, origin, element: () => part },
          cost,
        };
      }
      if (name === 'replace') return { value: unknown(origin, 'string'), cost };
      return { value: { kind: 'string', size: tv.size, bounded: tv.bounded, origin }, cost };
    }
    switch (name) {
      case 'startsWith':
      case 'endsWith':
        this.flag(tv, name);
        // cel-go charges the traversal of the prefix or suffix.
        return { value: scalar(origin), cost: operands + traverse(a[0]?.value.size ?? Infinity) };
      case 'contains':
        this.flag(tv, name);
        return {
          value: scalar(origin),
          cost: operands + traverse(tv.size) * traverse(a[0]?.value.size ?? Infinity),
        };
      case 'matches':
        this.flag(tv, name);
        return {
          value: scalar(origin),
          cost: operands + traverse(tv.size + 1) * traverse(a[0]?.value.size ?? Infinity, REGEX_LENGTH_COST),
        };
      default:
        return { value: unknown(origin), cost: operands + 1 };
    }
  }
}

// ---- entry points ----

const parser = new Environment().registerVariable('self', 'dyn').registerVariable('oldSelf', 'dyn');

/** Estimates one rule placed on `schema` (at `location`, for the field names in the findings). */
export function estimateRule(
  rule: ValidationRule | string,
  schema: JSONSchemaProps,
  location = '',
  cardinality = 1,
): RuleEstimate {
  const { rule: text, message } = typeof rule === 'string' ? { rule, message: undefined } : rule;
  const self = fromSchema(schema, location);
  const walker = new RuleWalker();
  const scope = new Map([
    ['self', self],
    ['oldSelf', self],
  ]);
  const { cost } = walker.visit(parser.parse(text).ast, scope, 1);
  return {
    location,
    rule: text,
    ...(message !== undefined ? { message } : {}),
    cost,
    iterations: walker.iterations,
    cardinality,
    objectCost: times(cost, cardinality),
    ranges: walker.ranges,
    unbounded: walker.unbounded,
  };
}

function collect(schema: JSONSchemaProps, location: string, cardinality: number, out: RuleEstimate[]): void {
  for (const rule of schema['x-kubernetes-validations'] ?? []) {
    out.push(estimateRule(rule, schema, location, cardinality));
  }
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    collect(prop, location ? `${location}.${name}` : name, cardinality, out);
  }
  if (schema.items) {
    collect(schema.items, `${location}[*]`, times(cardinality, fromSchema(schema, location).size), out);
  }
  if (typeof schema.additionalProperties === 'object') {
    const size = fromSchema(schema, location).size;
    collect(schema.additionalProperties, `${location}{*}`, times(cardinality, size), out);
  }
}

/** Every rule of every version of `crd`, estimated. */
export function estimateCrd(crd: CustomResourceDefinition): RuleEstimate[] {
  const out: RuleEstimate[] = [];
  for (const version of crd.spec.versions) collect(version.schema.openAPIV3Schema, '', 1, out);
  return out;
}

/** What the API server compares with StaticEstimatedCRDCostLimit: the sum of the rules' object costs. */
export function totalCost(estimates: readonly RuleEstimate[]): number {
  return estimates.reduce((sum, e) => sum + e.objectCost, 0);
}
