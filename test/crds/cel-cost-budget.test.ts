/**
 * Our CEL rules fit Kubernetes' cost budgets. A real API server estimates every rule's worst-case
 * cost when the CRD is created and refuses the CRD when a rule is too expensive; there is no API
 * server here, so test/support/cel-cost.ts estimates the same way (approximately) and these tests
 * keep a fourfold margin to the real limits.
 */
import { describe, expect, it } from '@jest/globals';
import { RuleMessages } from '../../lib/api/rules';
import { ExporterSetBounds } from '../../lib/core/bounds';
import {
  exporterSetCrd,
  jumpstarterCrds,
  ourCrds,
  type CustomResourceDefinition,
  type JSONSchemaProps,
} from '../../lib/crds';
import {
  STATIC_ESTIMATED_COST_LIMIT,
  STATIC_ESTIMATED_CRD_COST_LIMIT,
  estimateCrd,
  estimateRule,
  totalCost,
  type RuleEstimate,
} from '../support/cel-cost';

/** Our share of each limit: the estimate is close to the API server's, not equal to it. */
const MARGIN = 4;
/** Most comprehension steps one rule may take (nested ones multiplied). */
const MAX_ITERATIONS = 100_000;

const label = (e: RuleEstimate) => `${e.location || '<root>'}: ${e.message ?? e.rule}`;
const rootOf = (crd: CustomResourceDefinition) => crd.spec.versions[0].schema.openAPIV3Schema;

/** The schema node at a path of property names. */
function at(schema: JSONSchemaProps, ...names: string[]): JSONSchemaProps {
  return names.reduce((s, n) => s.properties![n], schema);
}

const DRIVERS = ['spec', 'template', 'spec', 'drivers'];

describe.each(ourCrds.map((crd) => [crd.spec.names.kind, crd] as const))('%s CRD rules', (_kind, crd) => {
  const estimates = estimateCrd(crd);

  it('iterate, search, compare and pass to string functions only bounded lists, maps and strings', () => {
    const unbounded = estimates.flatMap((e) => e.unbounded.map((u) => `${label(e)}: ${u.field} (${u.use})`));
    expect(unbounded).toEqual([]);
  });

  it(`take fewer than ${MAX_ITERATIONS} comprehension steps each`, () => {
    const over = estimates.filter((e) => !(e.iterations < MAX_ITERATIONS)).map(label);
    expect(over).toEqual([]);
  });

  it(`cost at most 1/${MARGIN} of the API server's per-rule limit each, times how often they run`, () => {
    const over = estimates
      .filter((e) => !(e.objectCost <= STATIC_ESTIMATED_COST_LIMIT / MARGIN))
      .map((e) => `${label(e)}: ${e.objectCost}`);
    expect(over).toEqual([]);
  });

  it(`cost at most 1/${MARGIN} of the API server's limit for the whole CRD together`, () => {
    expect(totalCost(estimates)).toBeLessThanOrEqual(STATIC_ESTIMATED_CRD_COST_LIMIT / MARGIN);
  });
});

describe('ExporterSet rules', () => {
  const estimates = estimateCrd(exporterSetCrd);
  const byMessage = (message: string) => {
    const found = estimates.filter((e) => e.message === message);
    expect(found).toHaveLength(1);
    return found[0];
  };

  it('range over exactly these fields, read from the rule texts', () => {
    const table = Object.fromEntries(
      estimates
        .filter((e) => e.ranges.length > 0)
        .map((e) => [e.message, e.ranges.map((r) => [r.field, r.use, r.size])]),
    );
    expect(table).toEqual({
      [RuleMessages.driverNamesUnique]: [
        ['spec.template.spec.drivers', 'all', ExporterSetBounds.drivers],
        ['spec.template.spec.drivers', 'exists_one', ExporterSetBounds.drivers],
      ],
      [RuleMessages.selectorMatchesTemplate]: [
        ['spec.selector.matchLabels', 'all', ExporterSetBounds.selectorMatchLabels],
        ['spec.selector.matchExpressions', 'all', ExporterSetBounds.selectorMatchExpressions],
        ['spec.selector.matchExpressions[*].values', 'in', ExporterSetBounds.selectorValues],
      ],
      [RuleMessages.templateAnnotationsSize]: [
        ['spec.template.metadata.annotations', 'map', ExporterSetBounds.templateAnnotations],
      ],
      [RuleMessages.scheduleNamesUnique]: [
        ['spec.schedules', 'all', ExporterSetBounds.schedules],
        ['spec.schedules', 'exists_one', ExporterSetBounds.schedules],
      ],
      [RuleMessages.scheduleMinAvailableLeMax]: [['spec.schedules', 'all', ExporterSetBounds.schedules]],
      [RuleMessages.scheduleMinReplicasLeMax]: [['spec.schedules', 'all', ExporterSetBounds.schedules]],
    });
  });

  it('compare every driver with every other one: drivers² steps', () => {
    const { iterations } = byMessage(RuleMessages.driverNamesUnique);
    expect(iterations).toBe(ExporterSetBounds.drivers + ExporterSetBounds.drivers ** 2);
  });

  it('would be refused without the drivers bound', () => {
    const drivers = structuredClone(at(rootOf(exporterSetCrd), ...DRIVERS));
    delete drivers.maxItems;
    const estimate = estimateRule(
      drivers['x-kubernetes-validations']![0],
      drivers,
      'spec.template.spec.drivers',
    );
    expect(estimate.unbounded).toEqual(
      expect.arrayContaining([
        { field: 'spec.template.spec.drivers', use: 'all' },
        { field: 'spec.template.spec.drivers', use: 'exists_one' },
      ]),
    );
    expect(estimate.cost).toBeGreaterThan(STATIC_ESTIMATED_COST_LIMIT);
  });

  it('would be refused without the driver string bounds', () => {
    const drivers = structuredClone(at(rootOf(exporterSetCrd), ...DRIVERS));
    for (const field of ['name', 'type', 'ref']) delete drivers.items!.properties![field].maxLength;
    const estimate = estimateRule(
      drivers['x-kubernetes-validations']![0],
      drivers,
      'spec.template.spec.drivers',
    );
    expect(estimate.unbounded.map((u) => u.field)).toEqual(
      expect.arrayContaining(['spec.template.spec.drivers[*].type', 'spec.template.spec.drivers[*].ref']),
    );
    expect(estimate.cost).toBeGreaterThan(STATIC_ESTIMATED_COST_LIMIT);
  });

  it('would be refused without the selector bounds', () => {
    const spec = structuredClone(at(rootOf(exporterSetCrd), 'spec'));
    const selector = spec.properties!.selector;
    delete selector.properties!.matchLabels.maxProperties;
    delete selector.properties!.matchExpressions.maxItems;
    delete selector.properties!.matchExpressions.items!.properties!.values.maxItems;
    const rule = spec['x-kubernetes-validations']!.find(
      (r) => r.message === RuleMessages.selectorMatchesTemplate,
    )!;
    expect(estimateRule(rule, spec, 'spec').cost).toBeGreaterThan(STATIC_ESTIMATED_COST_LIMIT);
  });

  it('derive driver names without split, whose parts have a size the API server cannot estimate', () => {
    const drivers = at(rootOf(exporterSetCrd), ...DRIVERS);
    const viaSplit =
      "self.all(a, self.exists_one(b, b.type.split('.')[0].substring(19) == a.type.split('.')[0].substring(19)))";
    expect(estimateRule(viaSplit, drivers, 'spec.template.spec.drivers').cost).toBe(Infinity);
    expect(byMessage(RuleMessages.driverNamesUnique).cost).toBeLessThan(STATIC_ESTIMATED_COST_LIMIT / MARGIN);
  });
});

describe("Jumpstarter's own CRDs (kept as upstream has them)", () => {
  const estimates = jumpstarterCrds.flatMap((crd) => estimateCrd(crd));

  it('iterate only bounded data; their unbounded strings only go to size(), which costs the same for any length', () => {
    const unbounded = estimates.flatMap((e) =>
      e.unbounded.filter((u) => u.use !== 'size').map((u) => `${label(e)}: ${u.field} (${u.use})`),
    );
    expect(unbounded).toEqual([]);
  });

  it("fit the API server's limits with the same margin", () => {
    for (const e of estimates) expect(e.objectCost).toBeLessThanOrEqual(STATIC_ESTIMATED_COST_LIMIT / MARGIN);
    for (const crd of jumpstarterCrds) {
      expect(totalCost(estimateCrd(crd))).toBeLessThanOrEqual(STATIC_ESTIMATED_CRD_COST_LIMIT / MARGIN);
    }
  });
});
