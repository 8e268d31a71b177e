/**
 * Checks that stand in for a real API server's CRD validation (there is none on this machine): the
 * schemas are structural, defaults fit their fields, CEL rules compile and sit where types are
 * known, and printer columns and scale paths point at real fields.
 */
import { describe, expect, it } from '@jest/globals';
import { Environment } from '@marcbachmann/cel-js';
import {
  jumpstarterCrds,
  ourCrds,
  type CustomResourceDefinition,
  type JSONSchemaProps,
} from '../../lib/crds';

const allCrds: [string, CustomResourceDefinition][] = [...ourCrds, ...jumpstarterCrds].map((c) => [
  c.spec.names.kind,
  c,
]);

interface Node {
  path: string;
  schema: JSONSchemaProps;
}

function nodes(schema: JSONSchemaProps, at = ''): Node[] {
  const out: Node[] = [{ path: at, schema }];
  for (const [k, v] of Object.entries(schema.properties ?? {})) out.push(...nodes(v, at ? `${at}.${k}` : k));
  if (schema.items) out.push(...nodes(schema.items, `${at}[*]`));
  if (typeof schema.additionalProperties === 'object')
    out.push(...nodes(schema.additionalProperties, `${at}{*}`));
  return out;
}

/** The schema node at a dotted JSONPath such as `.spec.maxReplicas`. */
function at(root: JSONSchemaProps, jsonPath: string): JSONSchemaProps | undefined {
  return jsonPath
    .replace(/^\./, '')
    .split('.')
    .reduce<JSONSchemaProps | undefined>((s, k) => s?.properties?.[k], root);
}

function fitsType(value: unknown, schema: JSONSchemaProps): boolean {
  switch (schema.type) {
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    default:
      return typeof value === schema.type;
  }
}

const env = new Environment().registerVariable('self', 'dyn').registerVariable('oldSelf', 'dyn');

describe.each(allCrds)('%s CRD', (_kind, crd) => {
  const version = crd.spec.versions[0];
  const root = version.schema.openAPIV3Schema;
  const all = nodes(root);

  it('has one served storage version', () => {
    expect(crd.spec.versions.filter((v) => v.storage)).toHaveLength(1);
    expect(crd.metadata.name).toBe(`${crd.spec.names.plural}.${crd.spec.group}`);
  });

  it('is structural: every field has a type unless it is int-or-string or preserves unknown fields', () => {
    const untyped = all
      .filter(({ schema }) => !schema.type)
      .filter(
        ({ schema }) =>
          !schema['x-kubernetes-int-or-string'] && !schema['x-kubernetes-preserve-unknown-fields'],
      )
      .map((n) => n.path);
    expect(untyped).toEqual([]);
    const both = all
      .filter(({ schema }) => schema.properties && schema.additionalProperties)
      .map((n) => n.path);
    expect(both).toEqual([]);
  });

  it('leaves root metadata as a bare object, as the API server requires', () => {
    expect(root.properties?.metadata).toEqual({ type: 'object' });
  });

  it('has defaults that fit their fields', () => {
    const bad = all
      .filter(({ schema }) => schema.default !== undefined)
      .filter(
        ({ schema }) =>
          !fitsType(schema.default, schema) ||
          (schema.enum && !schema.enum.includes(schema.default as string)),
      )
      .map((n) => n.path);
    expect(bad).toEqual([]);
  });

  it('requires only properties that exist, and list-map keys that are required', () => {
    const problems: string[] = [];
    for (const { path, schema } of all) {
      const declared = Object.keys(schema.properties ?? {});
      for (const r of schema.required ?? [])
        if (!declared.includes(r)) problems.push(`${path}: ${r} is not a property`);
      for (const k of schema['x-kubernetes-list-map-keys'] ?? []) {
        if (!schema.items?.required?.includes(k)) problems.push(`${path}: list-map key ${k} is not required`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('has CEL rules that compile, on typed objects, strings or lists, with fieldPaths that exist', () => {
    for (const { path, schema } of all) {
      for (const rule of schema['x-kubernetes-validations'] ?? []) {
        expect(() => env.parse(rule.rule)).not.toThrow();
        expect(typeof rule.message === 'string' && rule.message.length > 0).toBe(true);
        expect([`${path}:object`, `${path}:string`, `${path}:array`]).toContain(`${path}:${schema.type}`);
        // An object with fields, or a map (a rule may range over its keys).
        if (schema.type === 'object') expect(schema.properties ?? schema.additionalProperties).toBeDefined();
        if (rule.fieldPath) expect(at(schema, rule.fieldPath)).toBeDefined();
      }
    }
  });

  it('has printer columns that point at fields of their type', () => {
    for (const column of version.additionalPrinterColumns ?? []) {
      if (column.jsonPath === '.metadata.creationTimestamp') continue;
      const field = at(root, column.jsonPath);
      expect(field).toBeDefined();
      expect(field?.type).toBe(column.type);
    }
  });

  it('has scale paths that point at an integer spec field, an integer status field and a string selector', () => {
    const scale = version.subresources?.scale;
    if (!scale) return;
    expect(at(root, scale.specReplicasPath)?.type).toBe('integer');
    expect(at(root, scale.statusReplicasPath)?.type).toBe('integer');
    expect(at(root, scale.labelSelectorPath ?? '')?.type).toBe('string');
  });
});
