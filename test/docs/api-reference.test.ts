import { describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as prettier from 'prettier';
import { Defaults } from '../../lib/api/constants';
import { RuleMessages } from '../../lib/api/rules';
import {
  exporterCrd,
  exporterOperationCrd,
  exporterSetCrd,
  jumpstarterCrds,
  leaseCrd,
  LeaseRuleMessages,
  ourCrds,
  virtualTargetClassCrd,
  type CustomResourceDefinition,
  type JSONSchemaProps,
  type ValidationRule,
} from '../../lib/crds';
import { API_REFERENCE_FILE, renderApiReference } from '../../scripts/generate-api-docs';

const file = path.resolve(process.cwd(), API_REFERENCE_FILE);
const doc = renderApiReference();
const allCrds = [virtualTargetClassCrd, exporterSetCrd, exporterOperationCrd, exporterCrd, leaseCrd];

/** A copy of a CRD, to change without touching the shared object. */
const clone = (crd: CustomResourceDefinition): CustomResourceDefinition => JSON.parse(JSON.stringify(crd));
const schemaOf = (crd: CustomResourceDefinition): JSONSchemaProps =>
  crd.spec.versions[0].schema.openAPIV3Schema;

/** Every field path under spec and status: properties joined by dots, list items as `[]`. */
function fieldPaths(schema: JSONSchemaProps, at: string): string[] {
  const out: string[] = [];
  for (const [key, child] of Object.entries(schema.properties ?? {})) {
    const childPath = `${at}.${key}`;
    out.push(childPath, ...fieldPaths(child, childPath));
    if (child.items?.properties) out.push(`${childPath}[]`, ...fieldPaths(child.items, `${childPath}[]`));
  }
  return out;
}

function specAndStatusPaths(crd: CustomResourceDefinition): string[] {
  const root = schemaOf(crd).properties ?? {};
  return ['spec', 'status'].filter((key) => root[key]).flatMap((key) => [key, ...fieldPaths(root[key], key)]);
}

/** Every CEL rule with the path of the schema node that carries it (items as `[]`). */
function rulesOf(schema: JSONSchemaProps, at: string): { path: string; rule: ValidationRule }[] {
  const own = (schema['x-kubernetes-validations'] ?? []).map((rule) => ({ path: at, rule }));
  const children = Object.entries(schema.properties ?? {}).flatMap(([key, child]) =>
    rulesOf(child, at ? `${at}.${key}` : key),
  );
  return [...own, ...children, ...(schema.items ? rulesOf(schema.items, `${at}[]`) : [])];
}

/** The lines of the section under `heading` (up to the next heading). */
function section(markdown: string, heading: string): string[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => /^#+ /.test(line) && line.replace(/^#+ /, '') === heading);
  if (start < 0) throw new Error(`no heading "${heading}"`);
  const end = lines.findIndex((line, i) => i > start && /^#+ /.test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** The cells of a table row, split at unescaped pipes and trimmed. */
const cells = (row: string): string[] =>
  row
    .split(/(?<!\\)\|/)
    .slice(1, -1)
    .map((cell) => cell.trim());

/** The row of `field` in a kind's field table, as header → cell. */
function fieldRow(markdown: string, kind: string, field: string): Record<string, string> {
  const rows = section(markdown, `${kind} fields`).filter((line) => line.startsWith('|'));
  const header = cells(rows[0]);
  const row = rows.find((line) => cells(line)[0] === `\`${field}\``);
  if (!row) throw new Error(`no row for ${field} in the ${kind} fields`);
  return Object.fromEntries(cells(row).map((cell, i) => [header[i], cell]));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

describe('docs/api-reference.md', () => {
  it('is exactly what `npm run docs` generates from lib/crds', () => {
    const committed = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    const got = committed?.split('\n') ?? [];
    const line = doc.split('\n').findIndex((text, i) => got[i] !== text) + 1;
    const verdict =
      committed === undefined
        ? `${API_REFERENCE_FILE} is missing: run \`npm run docs\` and commit it.`
        : committed !== doc
          ? `${API_REFERENCE_FILE} is out of date with lib/crds (first difference at line ${line}): ` +
            'run `npm run docs` and commit the result.'
          : 'up to date';
    expect(verdict).toBe('up to date');
  });

  it('is formatted exactly as prettier formats it, so `prettier --check` passes', async () => {
    const options = (await prettier.resolveConfig(file)) ?? {};
    expect(await prettier.format(doc, { ...options, filepath: file })).toBe(doc);
  });

  it('starts with a note that it is generated from lib/crds and not edited by hand', () => {
    const first = doc.split('\n')[0];
    expect(first).toMatch(/^<!--.*-->$/);
    expect(first).toContain('npm run docs');
    expect(first).toContain('lib/crds');
    expect(first).toContain('do not edit by hand');
  });
});

describe('API reference', () => {
  it('lists every spec field of the ExporterSet by its full dotted path', () => {
    const paths = fieldPaths(schemaOf(exporterSetCrd).properties!.spec, 'spec');
    expect(paths).toContain('spec.template.spec.drivers[].name');
    for (const field of paths) expect(fieldRow(doc, 'ExporterSet', field).Field).toBe(`\`${field}\``);
  });

  it('lists every spec and status field of every kind, and nothing outside them', () => {
    for (const crd of allCrds) {
      const kind = crd.spec.names.kind;
      const listed = section(doc, `${kind} fields`)
        .filter((line) => line.startsWith('|'))
        .slice(2)
        .map((line) => cells(line)[0].replace(/^`|`$/g, ''));
      // Scalar list items and map values are described on their list's or map's row.
      expect([...listed].sort()).toEqual(specAndStatusPaths(crd).sort());
    }
  });

  it('shows each default on its field, strings without quotes', () => {
    expect(fieldRow(doc, 'ExporterSet', 'spec.maxReplicas').Default).toBe('`4`');
    expect(fieldRow(doc, 'ExporterSet', 'spec.scaleDownCooldown').Default).toBe('`5m`');
    expect(fieldRow(doc, 'ExporterSet', 'spec.recycleStrategy').Default).toBe(
      `\`${Defaults.recycleStrategy}\``,
    );
    expect(fieldRow(doc, 'VirtualTargetClass', 'spec.credentialsSecretRef.name').Default).toBe('`""`');
    expect(fieldRow(doc, 'Lease', 'spec.selector').Default).toBe('`{}`');
    expect(fieldRow(doc, 'ExporterSet', 'spec.minReplicas').Default).toBe(`\`${Defaults.minReplicas}\``);
    expect(fieldRow(doc, 'ExporterSet', 'spec.virtualTargetClassName').Default).toBe('');
  });

  it('shows types with their format, maps, lists, int-or-string and free-form objects', () => {
    expect(fieldRow(doc, 'ExporterSet', 'spec.maxReplicas').Type).toBe('`integer` (int32)');
    expect(fieldRow(doc, 'ExporterSet', 'status.scaleDownWindowStart').Type).toBe('`string` (date-time)');
    expect(fieldRow(doc, 'ExporterSet', 'spec.template.metadata.labels').Type).toBe('`map[string]string`');
    expect(fieldRow(doc, 'ExporterSet', 'spec.template.spec.drivers').Type).toBe('`[]object`');
    expect(fieldRow(doc, 'ExporterSet', 'spec.parameters').Type).toBe('`object` (free-form)');
    expect(fieldRow(doc, 'VirtualTargetClass', 'spec.scheduling.resources.limits').Type).toBe(
      '`map[string]int-or-string`',
    );
  });

  it('shows constraints, required-ness and the description on each field', () => {
    const drivers = fieldRow(doc, 'ExporterSet', 'spec.template.spec.drivers');
    const maxItems =
      schemaOf(exporterSetCrd).properties!.spec.properties!.template.properties!.spec.properties!.drivers
        .maxItems;
    expect(drivers.Constraints).toContain(`maxItems: ${maxItems}`);
    expect(fieldRow(doc, 'ExporterSet', 'spec.recycleStrategy').Constraints).toBe(
      'enum: `ExitAndReplace`, `InPlaceReuse`',
    );
    expect(fieldRow(doc, 'ExporterSet', 'spec.maxReplicas').Constraints).toContain('minimum: 0');
    expect(fieldRow(doc, 'ExporterSet', 'spec.template.spec.drivers[].ref').Constraints).toContain(
      'pattern: `^[^.]+([.][^.]+)*$`',
    );
    expect(fieldRow(doc, 'ExporterSet', 'spec.template.metadata.labels').Constraints).toMatch(
      /maxProperties: \d+; each value: maxLength: \d+/,
    );
    expect(fieldRow(doc, 'ExporterSet', 'spec.virtualTargetClassName').Required).toBe('yes');
    expect(fieldRow(doc, 'ExporterSet', 'spec.maxReplicas').Required).toBe('');
    expect(fieldRow(doc, 'ExporterSet', 'spec.maxReplicas').Description).toBe(
      schemaOf(exporterSetCrd).properties!.spec.properties!.maxReplicas.description,
    );
  });

  it("quotes upstream's CEL messages verbatim, each with its path and rule text", () => {
    const upstream = [
      RuleMessages.minReplicasLeMax,
      RuleMessages.minAvailableLeMax,
      RuleMessages.driverTypeOrRef,
      RuleMessages.driverTypeRefExclusive,
      RuleMessages.driverRefNoConfig,
      ...Object.values(LeaseRuleMessages),
    ];
    for (const message of upstream) expect(doc).toContain(`: ${message}\n  - rule: \``);
  });

  it('lists every admission rule of every kind under the path where it applies', () => {
    for (const crd of allCrds) {
      const rules = section(doc, `${crd.spec.names.kind} admission rules`).join('\n');
      for (const { path: at, rule } of rulesOf(schemaOf(crd), '')) {
        // Rules on the whole object are listed as `(object)`.
        expect(rules).toContain(`- \`${at || '(object)'}\`: ${rule.message}\n  - rule: \`${rule.rule}\``);
        if (rule.fieldPath) expect(rules).toContain(`reported on: \`${at}${rule.fieldPath}\``);
      }
    }
    expect(section(doc, 'Lease admission rules').join('\n')).toContain('checked on update only');
  });

  it('describes each kind: group/version, scope, names, subresources and printer columns', () => {
    const facts = section(doc, 'ExporterSet').join('\n');
    expect(facts).toContain(schemaOf(exporterSetCrd).description);
    expect(facts).toContain('**API version:** `virtualtarget.jumpstarter.dev/v1alpha1`');
    expect(facts).toContain('**Scope:** Namespaced');
    expect(facts).toContain('**Short names:** `es`');
    expect(facts).toContain('**Categories:** `jumpstarter`');
    expect(facts).toContain(
      '**Subresources:** `status`; `scale` (spec replicas `.spec.maxReplicas`, status replicas ' +
        '`.status.replicas`, label selector `.status.selector`)',
    );
    expect(section(doc, 'VirtualTargetClass').join('\n')).toContain('**Subresources:** none');
    const columns = section(doc, 'ExporterSet printer columns').filter((line) => line.startsWith('|'));
    expect(columns.slice(2).map((row) => cells(row)[0])).toEqual(
      exporterSetCrd.spec.versions[0].additionalPrinterColumns!.map((c) => c.name),
    );
    const message = section(doc, 'Exporter printer columns').find((row) => row.startsWith('| Message '));
    expect(message && cells(message)[3]).toBe('with `-o wide`');
  });

  it("puts Jumpstarter's kinds in their own section, marked as not installed by default", () => {
    const headings = doc.split('\n').filter((line) => /^#+ /.test(line));
    const mirrored = headings.indexOf('## Mirrored Jumpstarter kinds');
    expect(mirrored).toBeGreaterThan(headings.indexOf('## ExporterSet'));
    for (const crd of jumpstarterCrds) {
      expect(headings.indexOf(`### ${crd.spec.names.kind}`)).toBeGreaterThan(mirrored);
      expect(section(doc, crd.spec.names.kind).join('\n')).toContain('**Installed by default:** no');
    }
    for (const crd of ourCrds) {
      expect(section(doc, crd.spec.names.kind).join('\n')).toContain('**Installed by default:** yes');
    }
  });

  it('links every table-of-contents entry to a heading of the page', () => {
    const anchors = new Set(
      doc
        .split('\n')
        .filter((line) => /^#+ /.test(line))
        .map((line) => anchor(line.replace(/^#+ /, ''))),
    );
    const links = [
      ...section(doc, 'Contents')
        .join('\n')
        .matchAll(/\]\(#([^)]+)\)/g),
    ].map((m) => m[1]);
    expect(links.length).toBe(allCrds.length * 4 + 1);
    for (const link of links) expect(anchors).toContain(link);
  });

  it('keeps each field on one table row: pipes escaped, newlines collapsed', async () => {
    const crd = clone(exporterSetCrd);
    schemaOf(crd).properties!.spec.properties!.odd = {
      type: 'string',
      description: 'Either a | b,\nor <c> with *stars*\n\nacross lines.',
      pattern: '^(a|b)$',
      enum: ['a|b'],
    };
    const markdown = renderApiReference({ ours: [crd], mirrored: [] });
    const rows = section(markdown, 'ExporterSet fields').filter((line) => line.startsWith('|'));
    for (const row of rows) expect(cells(row)).toHaveLength(6);
    const odd = fieldRow(markdown, 'ExporterSet', 'spec.odd');
    expect(odd.Description).toBe('Either a \\| b, or \\<c> with \\*stars\\* across lines.');
    expect(odd.Constraints).toBe('enum: `a\\|b`; pattern: `^(a\\|b)$`');
    const options = (await prettier.resolveConfig(file)) ?? {};
    expect(await prettier.format(markdown, { ...options, filepath: file })).toBe(markdown);
  });

  it('renders the same text every time', () => {
    expect(renderApiReference()).toBe(doc);
  });
});
