// Each spec field's meaning and default are written once, in the CRD (its descriptions, and the
// `Defaults` of lib/api/constants.ts it reads). The wire types (lib/api) and the builders' options
// (lib/manifests, which the cdk8s props, the Pulumi args and the QEMU pool reuse) are checked against
// it, field by field: see test/support/doc-agreement.ts for what agreeing means and why.
import { describe, expect, it } from '@jest/globals';
import {
  exporterOperationCrd,
  exporterSetCrd,
  virtualTargetClassCrd,
  type CustomResourceDefinition,
  type JSONSchemaProps,
} from '../../lib/crds';
import { crdDefault, docDisagreements, firstSentence, literalOf, normalised } from '../support/doc-agreement';
import { docProgram, documentedFields, type DocumentedInterface } from '../support/field-docs';

const root = process.cwd();
const specOf = (crd: CustomResourceDefinition): JSONSchemaProps =>
  crd.spec.versions[0].schema.openAPIV3Schema.properties!.spec;

const setSpec = specOf(exporterSetCrd);
const classSpec = specOf(virtualTargetClassCrd);
const operationSpec = specOf(exporterOperationCrd);

/** The options' template is flat; the CRD's nests labels and annotations under metadata. */
const TEMPLATE_RENAMES = {
  'template.labels': 'template.metadata.labels',
  'template.annotations': 'template.metadata.annotations',
  'template.drivers': 'template.spec.drivers',
};
const CLASS_RENAMES = {
  credentialsSecretName: 'credentialsSecretRef',
  caBundle: 'caBundleConfigMapRef',
};

const WIRE: readonly DocumentedInterface[] = [
  { file: 'lib/api/exporter-set.ts', name: 'ExporterSetSpec', schema: setSpec },
  { file: 'lib/api/virtual-target-class.ts', name: 'VirtualTargetClassSpec', schema: classSpec },
  { file: 'lib/api/exporter-operation.ts', name: 'ExporterOperationSpec', schema: operationSpec },
];

const OPTIONS: readonly DocumentedInterface[] = [
  {
    file: 'lib/manifests/exporter-set.ts',
    name: 'ExporterSetInput',
    schema: setSpec,
    renames: TEMPLATE_RENAMES,
  },
  {
    file: 'lib/manifests/virtual-target-class.ts',
    name: 'VirtualTargetClassInput',
    schema: classSpec,
    renames: CLASS_RENAMES,
  },
  { file: 'lib/manifests/exporter-operation.ts', name: 'ExporterOperationInput', schema: operationSpec },
  {
    // One class and one set: the class's fields where the pool takes them from the class.
    file: 'lib/manifests/qemu-pool.ts',
    name: 'QemuPoolInput',
    schema: { ...setSpec, properties: { ...setSpec.properties, ...classSpec.properties } },
    renames: {
      labels: 'template.metadata.labels',
      annotations: 'template.metadata.annotations',
      drivers: 'template.spec.drivers',
    },
  },
];

const program = docProgram(
  root,
  [...WIRE, ...OPTIONS].map((i) => i.file),
);

describe('field docs: the CRD is the source of each field’s meaning and default', () => {
  it.each(WIRE.map((i) => [i.name, i] as const))(
    'the wire type %s agrees with the CRD (its doc may be tags only)',
    (_name, target) => {
      const fields = documentedFields(program, root, target);
      expect(fields.length).toBeGreaterThan(3);
      expect([...new Set(fields.flatMap((f) => docDisagreements(f, false)))]).toEqual([]);
    },
  );

  it.each(OPTIONS.map((i) => [i.name, i] as const))(
    'the options %s agree with the CRD, and say @default wherever the CRD has one',
    (_name, target) => {
      const fields = documentedFields(program, root, target);
      expect(fields.length).toBeGreaterThan(3);
      const ownFields = fields.filter((f) => f.declaredAt.startsWith('lib/manifests/'));
      const found = [
        ...ownFields.flatMap((f) => docDisagreements(f, true)),
        ...fields.filter((f) => !ownFields.includes(f)).flatMap((f) => docDisagreements(f, false)),
      ];
      expect([...new Set(found)]).toEqual([]);
    },
  );

  it('reads the fields it checks, nested and renamed ones included', () => {
    const names = (target: DocumentedInterface) => documentedFields(program, root, target).map((f) => f.name);
    expect(names(OPTIONS[0])).toEqual(
      expect.arrayContaining([
        'ExporterSetInput.scaleDownCooldown',
        'ExporterSetInput.updateStrategy.maxSurge',
        'ExporterSetInput.schedules.timeZone',
        'ExporterSetInput.template.labels',
      ]),
    );
    expect(names(OPTIONS[1])).toContain('VirtualTargetClassInput.credentialsSecretName');
    expect(names(OPTIONS[3])).toEqual(
      expect.arrayContaining([
        'QemuPoolInput.bindingMode',
        'QemuPoolInput.maxReplicas',
        'QemuPoolInput.labels',
      ]),
    );
  });
});

describe('field docs › the checker', () => {
  const field = (text: string, defaultText: string | undefined, schema: JSONSchemaProps) => ({
    name: 'Planted.field',
    declaredAt: 'lib/planted.ts:1',
    text,
    ...(defaultText === undefined ? {} : { defaultText }),
    crdPath: 'spec.field',
    schema,
  });

  it('normalises defaults and sentences, and reads what absence means from a description', () => {
    expect([
      literalOf('5 minutes ("5m")'),
      literalOf('"Newest"'),
      literalOf('10'),
      literalOf('false'),
    ]).toEqual(['5m', 'Newest', 10, false]);
    expect([literalOf('none'), literalOf('the class images')]).toEqual([undefined, undefined]);
    expect(firstSentence('Names a revision, e.g. `abc`. More.')).toBe('Names a revision, e.g. `abc`.');
    expect(normalised('Ours (ignored upstream): The `off` switch.')).toBe('the off switch');
    expect(crdDefault({ description: 'Kept (absent means 10) for rollback.' })).toEqual({
      value: 10,
      words: '10',
    });
    expect(crdDefault({ description: 'Surge. Absent: the flag (25%), at least 1.' })?.words).toBe(
      'the flag (25%), at least 1',
    );
    expect(crdDefault({ description: 'Newest (the default: last first), Oldest.' })?.value).toBe('Newest');
    expect(crdDefault({ description: 'Cooldown.', default: '5m' })).toEqual({ value: '5m', words: '5m' });
  });

  it('fails on a planted disagreement in meaning or default, and passes docs that agree', () => {
    const schema: JSONSchemaProps = {
      description: 'Floor: the fewest instances kept. More here.',
      default: 0,
    };
    expect(
      docDisagreements(field('Floor: the fewest instances kept. For cdk8s.', '0', schema), true),
    ).toEqual([]);
    expect(docDisagreements(field('', undefined, schema), false)).toEqual([]);
    expect(docDisagreements(field('Floor: instances kept at all times.', '1', schema), true)).toEqual([
      'Planted.field (lib/planted.ts:1) against spec.field: the doc should start with the CRD\'s "Floor: the fewest instances kept."',
      "Planted.field (lib/planted.ts:1) against spec.field: @default 1, but the CRD's default is 0",
    ]);
    expect(docDisagreements(field('', undefined, schema), true)).toEqual([
      "Planted.field (lib/planted.ts:1) against spec.field: no @default, but the CRD's default is 0",
    ]);
    const prose: JSONSchemaProps = { description: 'Surge. Absent: the flag (25%), at least 1.' };
    expect(docDisagreements(field('', 'the flag (25%), at least 1', prose), true)).toEqual([]);
    expect(docDisagreements(field('', 'the flag (50%)', prose), true)).toEqual([
      "Planted.field (lib/planted.ts:1) against spec.field: @default the flag (50%) names 50%, which the CRD's default (the flag (25%), at least 1) does not",
    ]);
    expect(docDisagreements(field('', '"5m"', { description: 'No default here.' }), false)).toEqual([
      'Planted.field (lib/planted.ts:1) against spec.field: @default "5m", but the CRD names no default',
    ]);
    const object: JSONSchemaProps = {
      description: 'Strategy.',
      properties: {
        type: { description: 'Proactive (the default) or not.' },
        max: { description: 'Absent: 1.' },
      },
    };
    expect(docDisagreements(field('', 'type "Proactive", max 1', object), true)).toEqual([]);
    expect(docDisagreements(field('', 'type "Opportunistic", max 1', object), true)).toEqual([
      'Planted.field (lib/planted.ts:1) against spec.field: type: @default "Opportunistic", but the CRD\'s default is Proactive',
    ]);
  });
});
