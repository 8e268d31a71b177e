import { describe, expect, it } from '@jest/globals';
import { RuleMessages } from '../../lib/api/rules';
import {
  exporterCrd,
  exporterSetCrd,
  leaseCrd,
  virtualTargetClassCrd,
  type CustomResourceDefinition,
  type JSONSchemaProps,
} from '../../lib/crds';
import { FACT_TABLE_CRDS } from '../support/upstream-admission';
import { describeWithUpstream, upstreamCrd } from '../support/upstream-reference';

type Kind = 'ExporterSet' | 'VirtualTargetClass' | 'Exporter' | 'Lease';
const OURS: Record<Kind, CustomResourceDefinition> = {
  ExporterSet: exporterSetCrd,
  VirtualTargetClass: virtualTargetClassCrd,
  Exporter: exporterCrd,
  Lease: leaseCrd,
};

/** Upstream rules we deliberately relax (SPEC §1): a driver may omit its name. */
const RELAXED_RULE_MESSAGES = new Set(['name is required']);
const RELAXED_REQUIRED = new Set(['spec.template.spec.drivers[*]:name']);

/**
 * The constraints we add to fields upstream defines: the one deliberate exception to "accepts all
 * that upstream accepts". A Kubernetes API server estimates the cost of every CEL rule from the
 * bounds of the data it reads and refuses a CRD whose rule is too expensive; our driver-name rule
 * compares every driver with every other one and our selector rule walks the selector, so without
 * these bounds the API server would refuse the ExporterSet CRD. Each is far above real use, or
 * Kubernetes' own limit for labels (reasons in lib/crds/bounds.ts, budgets in
 * test/crds/cel-cost-budget.test.ts). The numbers are written out so that changing one is a visible
 * change of the API.
 */
const ADDED_CONSTRAINTS: Record<string, Record<string, Partial<JSONSchemaProps>>> = {
  ExporterSet: {
    'spec.scaleDownCooldown': { maxLength: 64 },
    'spec.selector.matchExpressions': { maxItems: 32 },
    'spec.selector.matchExpressions[*].key': { maxLength: 317 },
    'spec.selector.matchExpressions[*].values': { maxItems: 64 },
    'spec.selector.matchExpressions[*].values[*]': { maxLength: 63 },
    'spec.selector.matchLabels': { maxProperties: 64 },
    'spec.selector.matchLabels{*}': { maxLength: 63 },
    'spec.template.metadata.annotations': { maxProperties: 256 },
    'spec.template.metadata.labels': { maxProperties: 64 },
    'spec.template.metadata.labels{*}': { maxLength: 63 },
    'spec.template.spec.drivers': { maxItems: 64 },
    'spec.template.spec.drivers[*].name': { maxLength: 128 },
    'spec.template.spec.drivers[*].ref': { maxLength: 128 },
    'spec.template.spec.drivers[*].type': { maxLength: 128 },
  },
  VirtualTargetClass: {},
  Exporter: {},
  Lease: {},
};

/** Keywords that narrow what a field accepts. */
const CONSTRAINT_KEYWORDS = [
  'enum',
  'format',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
] as const;

/** The keywords whose upstream value must be kept exactly. */
const KEPT_KEYWORDS = [
  'type',
  'format',
  'default',
  'enum',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'maxProperties',
  'anyOf',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-int-or-string',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
] as const;

interface Node {
  path: string;
  schema: JSONSchemaProps;
}

/** Every schema node with a readable path: properties by name, array items as `[*]`, map values as `{*}`. */
function nodes(schema: JSONSchemaProps, at = ''): Node[] {
  const out: Node[] = [{ path: at, schema }];
  for (const [k, v] of Object.entries(schema.properties ?? {})) out.push(...nodes(v, at ? `${at}.${k}` : k));
  if (schema.items) out.push(...nodes(schema.items, `${at}[*]`));
  if (typeof schema.additionalProperties === 'object')
    out.push(...nodes(schema.additionalProperties, `${at}{*}`));
  return out;
}

const rootOf = (crd: CustomResourceDefinition) => crd.spec.versions[0].schema.openAPIV3Schema;
const byPath = (crd: CustomResourceDefinition) => new Map(nodes(rootOf(crd)).map((n) => [n.path, n.schema]));

/**
 * The superset checks of our CRD of `kind` against upstream's, which `upstream` gives (read lazily:
 * a skipped describe still lists its tests).
 */
function supersetTests(kind: Kind, upstream: () => CustomResourceDefinition): void {
  const ours = OURS[kind];
  const mine = byPath(ours);
  let loaded: CustomResourceDefinition | undefined;
  const theirs = () => (loaded ??= upstream());
  const theirNodes = () => nodes(rootOf(theirs()));

  it('keeps the group, names, scope and version', () => {
    expect(ours.metadata.name).toBe(theirs().metadata.name);
    expect(ours.spec.group).toBe(theirs().spec.group);
    expect(ours.spec.scope).toBe(theirs().spec.scope);
    const { kind, listKind, plural, singular } = theirs().spec.names;
    expect(ours.spec.names).toMatchObject({ kind, listKind, plural, singular });
    expect(ours.spec.versions.map((v) => [v.name, v.served, v.storage])).toEqual(
      theirs().spec.versions.map((v) => [v.name, v.served, v.storage]),
    );
  });

  it('has every upstream field, with the same type, format, default and validation', () => {
    const problems: string[] = [];
    for (const { path: p, schema } of theirNodes()) {
      const own = mine.get(p);
      if (!own) {
        problems.push(`${p || '<root>'}: missing`);
        continue;
      }
      for (const keyword of KEPT_KEYWORDS) {
        if (schema[keyword] === undefined) continue;
        if (JSON.stringify(own[keyword]) !== JSON.stringify(schema[keyword])) {
          problems.push(
            `${p}: ${keyword} is ${JSON.stringify(own[keyword])}, upstream ${JSON.stringify(schema[keyword])}`,
          );
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('adds exactly the documented bounds to upstream fields, and no other constraint', () => {
    const added: Record<string, Partial<JSONSchemaProps>> = {};
    for (const { path: p, schema } of theirNodes()) {
      const own = mine.get(p);
      if (!own) continue;
      for (const keyword of CONSTRAINT_KEYWORDS) {
        if (own[keyword] !== undefined && JSON.stringify(own[keyword]) !== JSON.stringify(schema[keyword])) {
          added[p] = { ...added[p], [keyword]: own[keyword] };
        }
      }
    }
    expect(added).toEqual(ADDED_CONSTRAINTS[kind]);
  });

  it('requires exactly what upstream requires (except the relaxed driver name), so it accepts all upstream accepts', () => {
    const problems: string[] = [];
    for (const { path: p, schema } of nodes(rootOf(ours))) {
      const theirsAt = theirNodes().find((n) => n.path === p)?.schema;
      // A node upstream lacks holds fields upstream's CRD prunes: its requirements reject nothing upstream stores.
      if (theirsAt === undefined) continue;
      const required = new Set(theirsAt?.required ?? []);
      for (const r of schema.required ?? [])
        if (!required.has(r)) problems.push(`${p}: ${r} required, upstream not`);
      for (const r of required) {
        if (!(schema.required ?? []).includes(r) && !RELAXED_REQUIRED.has(`${p}:${r}`)) {
          problems.push(`${p}: ${r} not required any more`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('keeps every upstream CEL rule, with its message, at the same place (except the relaxed driver name rule)', () => {
    const missing: string[] = [];
    for (const { path: p, schema } of theirNodes()) {
      for (const rule of schema['x-kubernetes-validations'] ?? []) {
        if (RELAXED_RULE_MESSAGES.has(rule.message ?? '')) continue;
        const own = mine.get(p)?.['x-kubernetes-validations'] ?? [];
        if (!own.some((r) => r.rule === rule.rule && r.message === rule.message)) {
          missing.push(`${p}: ${rule.message}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("keeps upstream's printer columns in order, then appends ours and Age", () => {
    const columns = ours.spec.versions[0].additionalPrinterColumns ?? [];
    const upstreamColumns = theirs().spec.versions[0].additionalPrinterColumns ?? [];
    expect(columns.slice(0, upstreamColumns.length)).toEqual(upstreamColumns);
    expect(columns.slice(upstreamColumns.length).map((c) => c.name)).toEqual([
      ...(OUR_COLUMNS[kind] ?? []),
      'Age',
    ]);
    expect(columns.at(-1)).toEqual({ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' });
  });

  it("keeps upstream's subresources", () => {
    expect(ours.spec.versions[0].subresources).toEqual(theirs().spec.versions[0].subresources);
  });

  it('documents every field (kubectl explain), except root metadata where the API server allows only a type', () => {
    const undocumented = nodes(rootOf(ours))
      .filter((n) => !n.path.endsWith('[*]') && !n.path.endsWith('{*}') && n.path !== 'metadata')
      .filter((n) => typeof n.schema.description !== 'string' || n.schema.description.trim() === '')
      .map((n) => n.path || '<root>');
    expect(undocumented).toEqual([]);
    expect(rootOf(ours).properties?.metadata).toEqual({ type: 'object' });
  });
}

// Upstream's ExporterSet and VirtualTargetClass as the fact table states them: on every clone.
/** The printer columns we add after upstream's (issue 17: the lease-wait objectives). */
const OUR_COLUMNS: Readonly<Record<string, readonly string[]>> = { ExporterSet: ['Warm-Hit', 'Wait-P95'] };

describe.each(['ExporterSet', 'VirtualTargetClass'] as const)(
  "%s CRD superset of upstream's (fact table)",
  (kind) => supersetTests(kind, () => FACT_TABLE_CRDS[kind]),
);

// All four against upstream's own CRDs, where they are at hand.
describeWithUpstream("our CRDs are supersets of upstream's own", () => {
  describe.each(['ExporterSet', 'VirtualTargetClass', 'Exporter', 'Lease'] as const)('%s', (kind) =>
    supersetTests(kind, () => upstreamCrd(kind)),
  );
});

describe('our additions', () => {
  it('gives ExporterSet and VirtualTargetClass short names and the jumpstarter category', () => {
    expect(exporterSetCrd.spec.names.shortNames).toEqual(['es']);
    expect(virtualTargetClassCrd.spec.names.shortNames).toEqual(['vtc']);
    expect(exporterSetCrd.spec.names.categories).toEqual(['jumpstarter']);
    expect(virtualTargetClassCrd.spec.names.categories).toEqual(['jumpstarter']);
  });

  it('scales ExporterSets through maxReplicas, status.replicas and status.selector', () => {
    expect(exporterSetCrd.spec.versions[0].subresources).toEqual({
      status: {},
      scale: {
        specReplicasPath: '.spec.maxReplicas',
        statusReplicasPath: '.status.replicas',
        labelSelectorPath: '.status.selector',
      },
    });
  });

  it('adds the restart-safe status fields to ExporterSet, all optional', () => {
    const status = byPath(exporterSetCrd);
    const expected: Record<string, Pick<JSONSchemaProps, 'type' | 'format'>> = {
      observedGeneration: { type: 'integer', format: 'int64' },
      startingReplicas: { type: 'integer', format: 'int32' },
      standbyReplicas: { type: 'integer', format: 'int32' },
      pendingLeases: { type: 'integer', format: 'int32' },
      updatedReplicas: { type: 'integer', format: 'int32' },
      templateRevision: { type: 'string' },
      nextOrdinal: { type: 'integer', format: 'int64' },
      scaleDownWindowStart: { type: 'string', format: 'date-time' },
      scaleDownTarget: { type: 'integer', format: 'int32' },
      startupFailures: { type: 'integer', format: 'int32' },
      lastStartupFailureTime: { type: 'string', format: 'date-time' },
    };
    for (const [field, shape] of Object.entries(expected)) {
      expect(status.get(`status.${field}`)).toMatchObject(shape);
      expect(status.get('status')?.required).not.toContain(field);
    }
  });

  it('types parameters as objects on both kinds while keeping their contents schemaless', () => {
    for (const crd of [exporterSetCrd, virtualTargetClassCrd]) {
      expect(byPath(crd).get('spec.parameters')).toMatchObject({
        type: 'object',
        'x-kubernetes-preserve-unknown-fields': true,
      });
    }
  });

  it('adds affinity, priorityClassName and runtimeClassName to the class scheduling', () => {
    const vtc = byPath(virtualTargetClassCrd);
    expect(vtc.get('spec.scheduling.affinity')).toMatchObject({
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
    });
    expect(vtc.get('spec.scheduling.priorityClassName')).toMatchObject({ type: 'string' });
    expect(vtc.get('spec.scheduling.runtimeClassName')).toMatchObject({ type: 'string' });
  });

  it('uses the shared rule messages for every ExporterSet rule', () => {
    const messages = nodes(rootOf(exporterSetCrd)).flatMap((n) =>
      (n.schema['x-kubernetes-validations'] ?? []).map((r) => r.message),
    );
    const known = new Set<string>(Object.values(RuleMessages));
    expect(messages.filter((m) => !known.has(m ?? ''))).toEqual([]);
    for (const m of [
      RuleMessages.driverNameNotEmpty,
      RuleMessages.driverNamesUnique,
      RuleMessages.selectorMatchesTemplate,
      RuleMessages.selectorOperator,
      RuleMessages.selectorValues,
      RuleMessages.scaleDownCooldownDuration,
    ]) {
      expect(messages).toContain(m);
    }
  });
});
