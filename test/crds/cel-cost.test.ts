/**
 * The static CEL cost estimate (test/support/cel-cost.ts) on small schemas, where the expected
 * numbers can be worked out by hand from the cost factors it shares with the API server.
 */
import { describe, expect, it } from '@jest/globals';
import type { CustomResourceDefinition, JSONSchemaProps } from '../../lib/crds';
import { MAX_REQUEST_BYTES, estimateCrd, estimateRule, totalCost } from '../support/cel-cost';

const string = (extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'string', ...extra });
const list = (items: JSONSchemaProps, extra: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: 'array',
  items,
  ...extra,
});
const map = (values: JSONSchemaProps, extra: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: 'object',
  additionalProperties: values,
  ...extra,
});
const object = (properties: Record<string, JSONSchemaProps>): JSONSchemaProps => ({
  type: 'object',
  properties,
});

/** What an unbounded string is assumed to hold: a whole request, less its quotes. */
const UNBOUNDED_STRING = MAX_REQUEST_BYTES - 2;

describe('CEL cost estimate', () => {
  describe('string sizes', () => {
    it('counts 4 bytes per character of a maxLength, as the API server does', () => {
      // self (1) + ceil(0.1 × (4 × 10 + 1)) × ceil(0.25 × 4 regex characters) = 1 + 5 × 1
      const estimate = estimateRule("self.matches('^a+$')", string({ maxLength: 10 }), 'spec.s');
      expect(estimate.cost).toBe(6);
      expect(estimate.unbounded).toEqual([]);
    });

    it('assumes an unbounded string fills the request, and reports it', () => {
      const estimate = estimateRule("self.matches('^a+$')", string(), 'spec.s');
      expect(estimate.cost).toBe(1 + Math.ceil(0.1 * (UNBOUNDED_STRING + 1)));
      expect(estimate.unbounded).toEqual([{ field: 'spec.s', use: 'matches' }]);
    });

    it('sizes an enum by its longest value', () => {
      // self (1) + lowerAscii: ceil(0.1 × 5) for "large" + self (1) + the comparison: ceil(0.1 × 5)
      const estimate = estimateRule(
        'self.lowerAscii() == self',
        string({ enum: ['small', 'large'] }),
        'spec.e',
      );
      expect(estimate.unbounded).toEqual([]);
      expect(estimate.cost).toBe(1 + 1 + 1 + 1);
    });

    it('does not report size() of an unbounded string: it is constant time in cel-go', () => {
      const estimate = estimateRule('size(self.s) > 0', object({ s: string() }), 'spec');
      expect(estimate.unbounded).toEqual([]);
    });

    it.each(['split', 'substring', 'indexOf', 'lastIndexOf', 'startsWith', 'matches'])(
      'reports an unbounded string passed to %s',
      (fn) => {
        const call = `self.s.${fn}(${fn === 'substring' ? '1' : "'.'"}) != ''`;
        const schema = object({ s: string() });
        expect(estimateRule(call, schema, 'spec').unbounded).toContainEqual({ field: 'spec.s', use: fn });
        const bounded = object({ s: string({ maxLength: 8 }) });
        expect(estimateRule(call, bounded, 'spec').unbounded).toEqual([]);
      },
    );

    it('keeps the bound through substring and a conditional', () => {
      const schema = object({ a: string({ maxLength: 10 }), b: string({ maxLength: 20 }) });
      const estimate = estimateRule(
        "(self.a.startsWith('x') ? self.a.substring(1) : self.b).matches('^y$')",
        schema,
        'spec',
      );
      expect(estimate.unbounded).toEqual([]);
      // The conditional has the size of its longer branch (b: 80 bytes) and costs its dearer one.
      const matches = Math.ceil(0.1 * 81) * Math.ceil(0.25 * 3);
      const condition = 2 + 1; // self.a + ceil(0.1 × 1) for the prefix
      const substring = 2 + Math.ceil(0.1 * 40);
      expect(estimate.cost).toBe(condition + substring + matches);
    });

    it('loses the size of the parts of a split, as cel-go does, so using them is unbounded', () => {
      const schema = object({ type: string({ maxLength: 128 }) });
      const estimate = estimateRule("self.type.split('.')[0].substring(1) == 'x'", schema, 'spec');
      expect(estimate.unbounded).toEqual([{ field: "self.type.split('.')[*]", use: 'substring' }]);
      expect(estimate.cost).toBe(Infinity);
    });

    it('needs one bounded side of a comparison, the shorter one being traversed', () => {
      const schema = object({ free: string(), short: string({ maxLength: 5 }) });
      expect(estimateRule('self.free == self.short', schema, 'spec')).toMatchObject({
        unbounded: [],
        cost: 2 + 2 + Math.ceil(0.1 * 20),
      });
      expect(estimateRule("self.free == 'abc'", schema, 'spec').unbounded).toEqual([]);
      expect(estimateRule('self.free == self.free', schema, 'spec').unbounded).toEqual([
        { field: 'spec.free', use: '==' },
      ]);
    });
  });

  describe('iterations', () => {
    const nested = list(object({ inner: list(string({ maxLength: 3 }), { maxItems: 5 }) }), { maxItems: 10 });

    it('multiplies nested comprehensions and sums their steps', () => {
      const estimate = estimateRule("self.all(x, x.inner.all(y, y == 'ab'))", nested, 'spec.l');
      expect(estimate.iterations).toBe(10 + 10 * 5);
      expect(estimate.ranges).toEqual([
        { field: 'spec.l', use: 'all', size: 10, bounded: true },
        { field: 'spec.l[*].inner', use: 'all', size: 5, bounded: true },
      ]);
      // inner body 2 (y, comparison); inner all: x.inner 2 + 5 × (2 + 3 per step) + 1 = 28;
      // outer all: self 1 + 10 × (28 + 3) + 1 = 312
      expect(estimate.cost).toBe(312);
    });

    it('reports an unbounded list a comprehension ranges over, sized by what fits in a request', () => {
      const estimate = estimateRule("self.exists(x, x == 'a')", list(string({ maxLength: 3 })), 'spec.l');
      const fits = Math.floor((MAX_REQUEST_BYTES - 2) / 3); // each item at least "" plus a comma
      expect(estimate.ranges).toEqual([{ field: 'spec.l', use: 'exists', size: fits, bounded: false }]);
      expect(estimate.unbounded).toEqual([{ field: 'spec.l', use: 'exists' }]);
    });

    it('iterates a map by key; the keys cannot be bounded, so string functions on them are reported', () => {
      const labels = map(string({ maxLength: 63 }), { maxProperties: 4 });
      expect(estimateRule("self.all(k, self[k] != '')", labels, 'spec.m')).toMatchObject({
        iterations: 4,
        unbounded: [],
      });
      expect(estimateRule("self.all(k, k.startsWith('x'))", labels, 'spec.m').unbounded).toEqual([
        { field: 'spec.m keys', use: 'startsWith' },
      ]);
      expect(estimateRule('self.all(k, true)', map(string()), 'spec.m').unbounded).toEqual([
        { field: 'spec.m', use: 'all' },
      ]);
    });

    it('counts a list membership test as a scan, but a map lookup as one step', () => {
      const schema = object({
        values: list(string({ maxLength: 4 }), { maxItems: 7 }),
        labels: map(string(), { maxProperties: 3 }),
      });
      expect(estimateRule("'a' in self.values", schema, 'spec')).toMatchObject({
        iterations: 7,
        ranges: [{ field: 'spec.values', use: 'in', size: 7, bounded: true }],
        cost: 2 + 7,
      });
      expect(estimateRule("'a' in self.labels", schema, 'spec')).toMatchObject({
        iterations: 0,
        cost: 2 + 1,
      });
    });

    it('charges the dearer branch of a conditional', () => {
      const schema = object({ s: string({ maxLength: 100 }) });
      const cheap = estimateRule('true ? 1 : 2', schema, 'spec').cost;
      const dear = estimateRule("true ? self.s.indexOf('.') : 2", schema, 'spec').cost;
      expect(cheap).toBe(0);
      expect(dear).toBe(2 + Math.ceil(0.1 * 400));
    });
  });

  describe('a whole CRD', () => {
    const rule = { rule: "self.name != ''", message: 'named' };
    const crd: CustomResourceDefinition = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'toys.example.com' },
      spec: {
        group: 'example.com',
        names: { kind: 'Toy', listKind: 'ToyList', plural: 'toys', singular: 'toy' },
        scope: 'Namespaced',
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: object({
                spec: object({
                  groups: list(
                    object({
                      members: list(
                        {
                          ...object({ name: string({ maxLength: 10 }) }),
                          'x-kubernetes-validations': [rule],
                        },
                        { maxItems: 4 },
                      ),
                    }),
                    { maxItems: 3 },
                  ),
                }),
              }),
            },
          },
        ],
      },
    };

    it('multiplies a rule by how often it runs: once per item of every list around it', () => {
      const [estimate] = estimateCrd(crd);
      // self.name (2) + ceil(0.1 × min(40, 0)) = 1 for the comparison with ''
      expect(estimate).toMatchObject({
        location: 'spec.groups[*].members[*]',
        message: 'named',
        cost: 3,
        cardinality: 12,
        objectCost: 36,
      });
      expect(totalCost([estimate, estimate])).toBe(72);
    });
  });
});
