/**
 * The upstream-strict CRD variants are exactly upstream's schema and CEL rules, as the fact table
 * states them; the fact table is checked against upstream's own CRDs where those are at hand.
 */
import { describe, expect, it } from '@jest/globals';
import {
  exporterSetCrd,
  upstreamStrictExporterSetCrd,
  upstreamStrictVirtualTargetClassCrd,
  virtualTargetClassCrd,
  type CustomResourceDefinition,
} from '../../lib/crds';
import { CEL_SKIPPED_MESSAGE, admit } from '../support/crd-validator';
import {
  EXPORTER_SET_FACTS,
  VIRTUAL_TARGET_CLASS_FACTS,
  crdFacts,
  crdFromFacts,
  schemaNodes,
  type CrdFacts,
} from '../support/upstream-facts';
import {
  describeWithUpstream,
  upstreamCrd,
  upstreamMode,
  upstreamRequired,
} from '../support/upstream-reference';

const variants: ['ExporterSet' | 'VirtualTargetClass', CustomResourceDefinition, CrdFacts][] = [
  ['ExporterSet', upstreamStrictExporterSetCrd, EXPORTER_SET_FACTS],
  ['VirtualTargetClass', upstreamStrictVirtualTargetClassCrd, VIRTUAL_TARGET_CLASS_FACTS],
];

/** JSON with object keys sorted, so key order does not count as a difference. */
function canonical(value: unknown): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
          )
        : v;
  return JSON.stringify(sorted(value));
}

/** Differences between two fact sets, one line per field or property: empty when they agree. */
function differences(actual: CrdFacts, expected: CrdFacts): string[] {
  const out: string[] = [];
  const { fields: a, ...restA } = actual;
  const { fields: e, ...restE } = expected;
  for (const key of Object.keys(restE) as (keyof typeof restE)[]) {
    if (canonical(restA[key]) !== canonical(restE[key])) {
      out.push(`${key}: ${JSON.stringify(restA[key])}, expected ${JSON.stringify(restE[key])}`);
    }
  }
  for (const path of new Set([...Object.keys(a), ...Object.keys(e)])) {
    const label = path || '<root>';
    if (!(path in a)) out.push(`${label}: missing`);
    else if (!(path in e)) out.push(`${label}: not upstream's`);
    else {
      for (const keyword of new Set([...Object.keys(a[path]), ...Object.keys(e[path])])) {
        const [x, y] = [a[path], e[path]].map((f) => canonical((f as Record<string, unknown>)[keyword]));
        if (x !== y) out.push(`${label}: ${keyword} is ${x}, expected ${y}`);
      }
    }
  }
  return out;
}

describe.each(variants)('upstream-strict %s CRD', (kind, strict, facts) => {
  it("has exactly upstream's fields, types, defaults, enums, constraints and CEL rules", () => {
    expect(differences(crdFacts(strict), facts)).toEqual([]);
  });

  it('keeps our CRD name, group and version, and so replaces ours when applied', () => {
    const ours = kind === 'ExporterSet' ? exporterSetCrd : virtualTargetClassCrd;
    expect(strict.metadata.name).toBe(ours.metadata.name);
    expect(strict.spec.names.shortNames).toBeUndefined();
    expect(strict.spec.names.categories).toBeUndefined();
  });

  it('describes every field it keeps (kubectl explain), the driver name as required', () => {
    const root = strict.spec.versions[0].schema.openAPIV3Schema;
    const undocumented = schemaNodes(root)
      .filter(([p]) => p !== 'metadata' && !p.endsWith('[*]') && !p.endsWith('{*}'))
      .filter(([, schema]) => !schema.description)
      .map(([p]) => p || '<root>');
    expect(undocumented).toEqual([]);
    if (kind === 'ExporterSet') {
      const driver = root.properties!.spec.properties!.template.properties!.spec.properties!.drivers.items!;
      expect(driver.properties!.name.description).toContain('required');
    }
  });
});

describe("the strict variant's one difference in what it admits: driver names", () => {
  const set = (drivers: unknown[]) => ({
    apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
    kind: 'ExporterSet',
    metadata: { name: 'pool', namespace: 'lab' },
    spec: {
      virtualTargetClassName: 'qemu',
      selector: { matchLabels: { board: 'x' } },
      template: { metadata: { labels: { board: 'x' } }, spec: { drivers } },
    },
  });

  it('refuses an unnamed driver that our CRD accepts', () => {
    const unnamed = set([{ type: 'jumpstarter_driver_power.driver.QemuPower' }]);
    expect(admit(exporterSetCrd, unnamed).errors).toEqual([]);
    expect(admit(upstreamStrictExporterSetCrd, unnamed).errors).toEqual([
      { path: 'spec.template.spec.drivers[0].name', message: 'Required value' },
      { path: '', message: CEL_SKIPPED_MESSAGE },
    ]);
  });

  it('refuses an empty name with upstream\'s message "name is required"', () => {
    const empty = set([{ name: '', type: 'jumpstarter_driver_power.driver.QemuPower' }]);
    expect(admit(upstreamStrictExporterSetCrd, empty).errors).toEqual([
      { path: 'spec.template.spec.drivers[0]', message: 'name is required' },
    ]);
  });

  it('admits a named driver, as the fact-table CRD does', () => {
    const named = set([{ name: 'power', type: 'jumpstarter_driver_power.driver.QemuPower' }]);
    expect(admit(upstreamStrictExporterSetCrd, named).errors).toEqual([]);
    expect(admit(crdFromFacts(EXPORTER_SET_FACTS), named).errors).toEqual([]);
  });

  it("accepts a long template label value that our bounds refuse (the bounds are ours, not upstream's)", () => {
    const labels = { board: 'x', note: 'x'.repeat(100) };
    const obj = set([{ name: 'power', type: 'jumpstarter_driver_power.driver.QemuPower' }]);
    obj.spec.template.metadata.labels = labels;
    expect(admit(upstreamStrictExporterSetCrd, obj).errors).toEqual([]);
    expect(admit(exporterSetCrd, obj).errors).not.toEqual([]);
  });
});

describe('the fact-table CRD', () => {
  it.each([EXPORTER_SET_FACTS, VIRTUAL_TARGET_CLASS_FACTS])('round-trips the facts of $kind', (facts) => {
    expect(differences(crdFacts(crdFromFacts(facts)), facts)).toEqual([]);
  });
});

describe('reference data beside the repository', () => {
  it.each([
    [true, false, 'run'],
    [true, true, 'run'],
    [false, false, 'skip'],
    [false, true, 'fail'],
  ] as [boolean, boolean, 'run' | 'skip' | 'fail'][])(
    'available=%s, required=%s: %s',
    (available, required, mode) => {
      expect(upstreamMode(available, required)).toBe(mode);
    },
  );

  it('is required exactly when VIRTUAL_EXPORTERS_REQUIRE_UPSTREAM is 1', () => {
    expect(upstreamRequired({ VIRTUAL_EXPORTERS_REQUIRE_UPSTREAM: '1' })).toBe(true);
    expect(upstreamRequired({ VIRTUAL_EXPORTERS_REQUIRE_UPSTREAM: '0' })).toBe(false);
    expect(upstreamRequired({})).toBe(false);
  });
});

describeWithUpstream("upstream's CRDs", () => {
  it.each(variants)('say what the %s fact table says', (kind, _strict, facts) => {
    expect(differences(crdFacts(upstreamCrd(kind)), facts)).toEqual([]);
  });
});
