import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { runInNewContext } from 'node:vm';
import type { JsonObject, JsonValue } from '../../lib/api';
import { deepCopy, deepMerge, mergeParameters } from '../../lib/core/merge';
import { isPlainObject } from '../../lib/core/plain-object';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

/** Every object and list reachable from `value`. */
function containers(value: unknown, into = new Set<unknown>()): Set<unknown> {
  if (typeof value === 'object' && value !== null) {
    into.add(value);
    for (const item of Object.values(value)) containers(item, into);
  }
  return into;
}

const UNSAFE = new Set(['__proto__', 'constructor', 'prototype']);

/** JSON values without the keys the merge drops, so identity-style properties can hold exactly. */
const json: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.string(),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc
        .oneof(fc.constantFrom('a', 'b', 'c', 'cpu', 'memory', 'toString', 'valueOf'), fc.string())
        .filter((k) => !UNSAFE.has(k)),
      tie('value'),
      { maxKeys: 5, noNullPrototype: true },
    ),
  ),
})).value;

const jsonObject = fc.dictionary(
  fc.oneof(fc.constantFrom('a', 'b', 'c', 'toString'), fc.string()).filter((k) => !UNSAFE.has(k)),
  json,
  { maxKeys: 5, noNullPrototype: true },
) as fc.Arbitrary<JsonObject>;

type Path = string[];

/** Paths to the override's leaves: every value that is not a plain object (scalars, lists, null). */
function leaves(value: unknown, prefix: Path = []): [Path, unknown][] {
  if (!isPlainObject(value)) return [[prefix, value]];
  return Object.entries(value).flatMap(([key, item]) => leaves(item, [...prefix, key]));
}

function at(value: unknown, path: Path): unknown {
  let node = value;
  for (const key of path) {
    if (!isPlainObject(node) || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

describe('deep merge', () => {
  it('merges the JEP example: the set overrides memory, cpu, storage and firmware are inherited', () => {
    const classParameters: JsonObject = {
      resources: { cpu: 4, memory: '4Gi', storage: '16Gi' },
      firmware: { url: 'registry.example.com/firmware/rpi4:v1', digest: 'sha256:abc' },
    };
    const setParameters: JsonObject = { resources: { memory: '8Gi' } };
    expect(deepMerge(classParameters, setParameters)).toEqual({
      resources: { cpu: 4, memory: '8Gi', storage: '16Gi' },
      firmware: { url: 'registry.example.com/firmware/rpi4:v1', digest: 'sha256:abc' },
    });
  });

  it('replaces lists instead of concatenating or merging them index by index', () => {
    expect(deepMerge({ hosts: ['a', 'b', 'c'] }, { hosts: ['x'] })).toEqual({ hosts: ['x'] });
    expect(deepMerge({ hosts: [{ name: 'a', slots: 2 }] }, { hosts: [{ name: 'b' }] })).toEqual({
      hosts: [{ name: 'b' }],
    });
    expect(deepMerge({ hosts: ['a'] }, { hosts: [] })).toEqual({ hosts: [] });
  });

  it('replaces scalars', () => {
    expect(deepMerge({ a: 1, b: 'x', c: true }, { a: 2, b: 'y', c: false })).toEqual({
      a: 2,
      b: 'y',
      c: false,
    });
  });

  it('replaces the base value with null', () => {
    expect(deepMerge({ firmware: { url: 'u' }, kvm: true }, { firmware: null, kvm: null })).toEqual({
      firmware: null,
      kvm: null,
    });
  });

  it('merges nested objects at every depth', () => {
    expect(deepMerge({ a: { b: { c: 1, d: 2 }, e: 3 } }, { a: { b: { d: 20, f: 4 } } })).toEqual({
      a: { b: { c: 1, d: 20, f: 4 }, e: 3 },
    });
  });

  it('lets an object replace a scalar and a scalar replace an object', () => {
    expect(deepMerge({ a: 1, b: { c: 1 } }, { a: { x: 1 }, b: 'flat' })).toEqual({ a: { x: 1 }, b: 'flat' });
    expect(deepMerge({ a: [1] }, { a: { x: 1 } })).toEqual({ a: { x: 1 } });
  });

  it('keeps base keys the override lacks and adds override keys the base lacks', () => {
    expect(deepMerge({ a: 1 }, { b: 2 })).toEqual({ a: 1, b: 2 });
  });

  it('keeps the base value where the override holds undefined', () => {
    expect(
      deepMerge({ a: 1, b: { c: 2 } }, { a: undefined, b: { c: undefined } } as unknown as JsonObject),
    ).toEqual({
      a: 1,
      b: { c: 2 },
    });
  });

  it('reads only own keys, never members inherited from Object.prototype', () => {
    expect(deepMerge({ toString: null, valueOf: 1 }, {})).toEqual({ toString: null, valueOf: 1 });
    expect(deepMerge({}, { hasOwnProperty: 'x' })).toEqual({ hasOwnProperty: 'x' });
    expect(typeof (deepMerge({ a: 1 }, { b: 2 }) as Record<string, unknown>).toString).toBe('function');
  });

  it('returns a deep copy of the base for an undefined override', () => {
    const base = { a: { b: [1, { c: 2 }] } };
    const merged = deepMerge(base, undefined);
    expect(merged).toEqual(base);
    expect(merged).not.toBe(base);
    expect(merged.a).not.toBe(base.a);
  });

  it('never mutates deep-frozen inputs and leaves them unchanged', () => {
    const base = deepFreeze({ a: { b: [1, 2], c: { d: 1 } }, e: 'x' });
    const override = deepFreeze({ a: { b: [3], c: { f: 2 } }, g: null });
    const baseBefore = structuredClone(base);
    const overrideBefore = structuredClone(override);
    expect(deepMerge(base, override)).toEqual({ a: { b: [3], c: { d: 1, f: 2 } }, e: 'x', g: null });
    expect(base).toEqual(baseBefore);
    expect(override).toEqual(overrideBefore);
  });

  it('shares no object or list with its inputs', () => {
    const base = { a: { b: [1, { c: 2 }] }, keep: { deep: { list: [[1]] } } };
    const override = { a: { x: { y: [1] } }, add: [{ z: 1 }] };
    const merged = deepMerge(base, override);
    const inputs = new Set([...containers(base), ...containers(override)]);
    for (const node of containers(merged)) expect(inputs.has(node)).toBe(false);
    // Changing the result changes neither input.
    (merged.keep as { deep: { list: number[][] } }).deep.list[0].push(2);
    expect(base.keep.deep.list).toEqual([[1]]);
  });

  it('ignores __proto__ keys from JSON.parse and does not pollute Object.prototype', () => {
    const override = JSON.parse(
      '{"__proto__": {"polluted": "yes"}, "a": {"__proto__": {"polluted": "yes"}, "b": 1}}',
    );
    const merged = deepMerge({ a: { c: 2 } }, override) as Record<string, unknown>;
    expect(merged).toEqual({ a: { b: 1, c: 2 } });
    expect(Object.prototype.hasOwnProperty.call(merged, '__proto__')).toBe(false);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(merged.a)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((merged as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('ignores constructor and prototype keys at every depth', () => {
    const override = JSON.parse(
      '{"constructor": {"prototype": {"polluted": "yes"}}, "prototype": {"x": 1}, "a": {"constructor": 1, "ok": 1}}',
    );
    const base = JSON.parse('{"prototype": {"y": 1}, "a": {"prototype": 2}}');
    const merged = deepMerge(base, override) as Record<string, unknown>;
    expect(Object.keys(merged)).toEqual(['a']);
    expect(merged.a).toEqual({ ok: 1 });
    expect(Object.keys(merged.a as object)).toEqual(['ok']);
    expect(merged.constructor).toBe(Object);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('drops unsafe keys when copying a base without an override', () => {
    const base = JSON.parse('{"__proto__": {"polluted": "yes"}, "list": [{"constructor": 1, "k": 2}]}');
    expect(deepMerge(base, undefined)).toEqual({ list: [{ k: 2 }] });
    expect(deepCopy(base)).toEqual({ list: [{ k: 2 }] });
  });

  it('is the identity (a deep copy) for an empty or undefined override', () => {
    fc.assert(
      fc.property(jsonObject, (base) => {
        expect(deepMerge(base, {})).toEqual(base);
        expect(deepMerge(base, undefined)).toEqual(base);
      }),
    );
  });

  it('lets the override win at every one of its leaves', () => {
    fc.assert(
      fc.property(jsonObject, jsonObject, (base, override) => {
        const merged = deepMerge(base, override);
        for (const [path, leaf] of leaves(override)) {
          if (path.length === 0) continue;
          expect(at(merged, path)).toEqual(leaf);
        }
      }),
    );
  });

  it('keeps every base leaf the override does not reach', () => {
    fc.assert(
      fc.property(jsonObject, jsonObject, (base, override) => {
        const merged = deepMerge(base, override);
        for (const [path, leaf] of leaves(base)) {
          // Walk the override along the path: a non-object on the way replaces the base leaf.
          let node: unknown = override;
          let reached = true;
          for (const key of path) {
            if (!isPlainObject(node)) break;
            node = node[key];
            if (node === undefined) {
              reached = false;
              break;
            }
          }
          if (!reached) expect(at(merged, path)).toEqual(leaf);
        }
      }),
    );
  });

  it('never returns structure shared with its inputs', () => {
    fc.assert(
      fc.property(jsonObject, jsonObject, (base, override) => {
        const inputs = new Set([...containers(base), ...containers(override)]);
        for (const node of containers(deepMerge(base, override))) expect(inputs.has(node)).toBe(false);
      }),
    );
  });
});

describe('isPlainObject', () => {
  it.each([
    [{}, true],
    [{ a: 1 }, true],
    [Object.create(null), true],
    [[], false],
    [null, false],
    [undefined, false],
    ['x', false],
    [1, false],
    [new Date(0), false],
    [new Map(), false],
  ])('classifies %p as %p', (value, expected) => {
    expect(isPlainObject(value)).toBe(expected);
  });
});

describe('isPlainObject across realms', () => {
  it('accepts plain objects from another realm (vm contexts, structuredClone under jest)', () => {
    const foreign = runInNewContext('({ a: { b: [1] } })') as Record<string, unknown>;
    expect(Object.getPrototypeOf(foreign)).not.toBe(Object.prototype);
    expect(isPlainObject(foreign)).toBe(true);
    expect(isPlainObject(structuredClone({ a: 1 }))).toBe(true);
    expect(isPlainObject(runInNewContext('new (class A {})()'))).toBe(false);
    expect(isPlainObject(runInNewContext('[]'))).toBe(false);
    expect(deepMerge(foreign, { a: { c: 2 } })).toEqual({ a: { b: [1], c: 2 } });
  });

  it('copies lists from another realm into lists of this realm', () => {
    const foreign = runInNewContext('({ list: [1, [2]] })') as { list: unknown[] };
    expect(foreign.list).not.toBeInstanceOf(Array);
    const copy = deepCopy(foreign) as { list: unknown[] };
    expect(copy.list).toBeInstanceOf(Array);
    expect(copy.list[1]).toBeInstanceOf(Array);
    expect(copy).toEqual({ list: [1, [2]] });
  });
});

describe('mergeParameters', () => {
  it('merges the set parameters over the class parameters', () => {
    expect(mergeParameters({ a: 1, b: { c: 1 } }, { b: { d: 2 } })).toEqual({ a: 1, b: { c: 1, d: 2 } });
  });

  it('treats absent parameters on either side as {}', () => {
    expect(mergeParameters(undefined, { a: 1 })).toEqual({ a: 1 });
    expect(mergeParameters({ a: 1 }, undefined)).toEqual({ a: 1 });
    expect(mergeParameters(undefined, undefined)).toEqual({});
    expect(mergeParameters(null, null)).toEqual({});
  });

  it('treats a non-object top level as {} (the validators report it)', () => {
    expect(mergeParameters(['x'], { a: 1 })).toEqual({ a: 1 });
    expect(mergeParameters({ a: 1 }, 'text')).toEqual({ a: 1 });
  });
});
