import { describe, expect, it } from '@jest/globals';
import type { ExporterConfig, JsonObject } from '../../lib/api';
import {
  MAX_USER_DATA_DEPTH,
  MAX_WALK_DEPTH,
  NestingTooDeepError,
  canonicalJson,
  deepCopy,
  deepMerge,
  formatIssue,
  mergeParameters,
  nestingDepth,
  templateRevision,
  validateExporterSet,
  validateExporterSetReferences,
  validateVirtualTargetClass,
} from '../../lib/core';
import { buildExporterConfig, qemuProvisioner, renderExporterConfigYaml } from '../../lib/provisioners';
import { jepClass, jepSet, loose } from './fixtures';

/** `{a: {a: … {leaf: 1}}}` with `levels` objects. */
function nested(levels: number): JsonObject {
  let value: JsonObject = { leaf: 1 };
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}

/** Lists within lists, `levels` of them. */
function nestedLists(levels: number): unknown[] {
  let value: unknown[] = [1];
  for (let i = 1; i < levels; i++) value = [value];
  return value;
}

const TOO_DEEP = `is nested more than ${MAX_USER_DATA_DEPTH} levels deep`;
const lookup = () => qemuProvisioner;

describe('depth › nestingDepth', () => {
  it('counts objects and lists, scalars are 0', () => {
    expect(nestingDepth(1, 10)).toBe(0);
    expect(nestingDepth({}, 10)).toBe(1);
    expect(nestingDepth({ a: [] }, 10)).toBe(2);
    expect(nestingDepth(nested(7), 10)).toBe(7);
    expect(nestingDepth(nestedLists(7), 10)).toBe(7);
  });

  it.each([1_000, 5_000, 10_000, 100_000])('stops at the limit for data %i levels deep', (levels) => {
    expect(nestingDepth(nested(levels), 100)).toBe(101);
  });

  it('treats a cycle as deeper than any limit and shared objects without blowing up', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(nestingDepth(cycle, 50)).toBe(51);
    // 2^60 paths through 60 shared levels: each object is visited once per deeper level only.
    let shared: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 60; i++) shared = { x: shared, y: shared };
    expect(nestingDepth(shared, 100)).toBe(61);
  });
});

describe('depth › the walkers', () => {
  it('merge, copy, hash and render data at the user-data limit', () => {
    const deep = nested(MAX_USER_DATA_DEPTH);
    expect(deepMerge(deep, { b: 1 })).toEqual({ ...deep, b: 1 });
    expect(deepCopy(deep)).toEqual(deep);
    expect(canonicalJson(deep)).toBe(JSON.stringify(deep));
    expect(templateRevision({ parameters: deep })).toMatch(/^[0-9a-f]{10}$/);
    const { config, issues } = buildExporterConfig({
      name: 'x-0',
      namespace: 'lab',
      endpoint: 'grpc.example:443',
      token: 't',
      drivers: [{ name: 'deep', type: 'example.Driver', config: deep }],
    });
    expect(issues).toEqual([]);
    expect(renderExporterConfigYaml(config)).toContain('leaf: 1');
  });

  it.each([1_000, 5_000, 10_000])(
    'refuse data %i levels deep with a NestingTooDeepError, never a stack overflow',
    (levels) => {
      const deep = nested(levels);
      const refused = (walk: () => unknown) => {
        let thrown: unknown;
        try {
          walk();
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toBeInstanceOf(NestingTooDeepError);
        expect((thrown as Error).message).toContain(`is nested more than ${MAX_WALK_DEPTH} levels deep`);
      };
      refused(() => deepMerge({}, deep));
      refused(() => deepMerge(deep, {}));
      refused(() => mergeParameters(deep, {}));
      refused(() => deepCopy(nestedLists(levels)));
      refused(() => canonicalJson(deep));
      refused(() => templateRevision({ parameters: deep }));
      const config = {
        metadata: { name: 'x-0' },
        export: { deep: { type: 'example.Driver', config: deep } },
      } as unknown as ExporterConfig;
      expect(() => renderExporterConfigYaml(config)).toThrow('ExporterConfig "x-0" is nested more than');
    },
  );

  it.each([1_000, 5_000, 10_000])(
    'the exporter config skips a driver config %i levels deep and says why',
    (levels) => {
      const { config, issues } = buildExporterConfig({
        name: 'x-0',
        namespace: 'lab',
        endpoint: 'grpc.example:443',
        token: 't',
        drivers: [{ name: 'deep', type: 'example.Driver', config: nested(levels) }],
      });
      expect(issues.map(formatIssue)).toEqual([
        `spec.template.spec.drivers[0].config: ${TOO_DEEP} (objects and lists within each other); at most ${MAX_USER_DATA_DEPTH} levels are supported, so flatten it`,
      ]);
      expect(Object.keys(config.export)).toEqual(['tcp']);
      expect(() => renderExporterConfigYaml(config)).not.toThrow();
    },
  );
});

describe('depth › validation reports deep user data', () => {
  it.each([MAX_USER_DATA_DEPTH + 1, 1_000, 5_000, 10_000])(
    'set parameters %i levels deep: the set validator and the reference check name spec.parameters',
    (levels) => {
      const set = loose(jepSet());
      set.spec.parameters = nested(levels);
      expect(validateExporterSet(set).map((i) => `${i.path}: ${i.message}`)).toEqual([
        expect.stringMatching(new RegExp(`^spec\\.parameters: ${TOO_DEEP}`)),
      ]);
      const found = validateExporterSetReferences(set as never, jepClass(), lookup);
      expect(found.map(formatIssue)).toEqual([expect.stringMatching(/^spec\.parameters: is nested more/)]);
    },
  );

  it.each([1_000, 10_000])(
    'class parameters %i levels deep: the class validator and the reference check say so',
    (levels) => {
      const cls = loose(jepClass());
      cls.spec.parameters = nested(levels);
      expect(validateVirtualTargetClass(cls).map((i) => i.path)).toEqual(['spec.parameters']);
      const found = validateExporterSetReferences(jepSet(), cls as never, lookup);
      expect(found.map(formatIssue)).toEqual([
        expect.stringMatching(/^VirtualTargetClass "qemu-rpi4" spec\.parameters: is nested more/),
      ]);
    },
  );

  it('a driver config or a class affinity past the limit is reported at its path', () => {
    const set = loose(jepSet());
    set.spec.template.spec.drivers[1].config = nested(5_000);
    expect(validateExporterSet(set).map((i) => i.path)).toEqual(['spec.template.spec.drivers[1].config']);
    const cls = loose(jepClass());
    cls.spec.scheduling.affinity = nested(5_000);
    expect(validateVirtualTargetClass(cls).map((i) => i.path)).toEqual(['spec.scheduling.affinity']);
  });

  it('data exactly at the limit is valid', () => {
    const set = loose(jepSet());
    set.spec.parameters = { extra: nested(MAX_USER_DATA_DEPTH - 1) };
    set.spec.template.spec.drivers[1].config = nested(MAX_USER_DATA_DEPTH);
    expect(validateExporterSet(set)).toEqual([]);
    expect(validateExporterSetReferences(set as never, jepClass(), lookup)).toEqual([]);
  });
});
