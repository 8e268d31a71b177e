/**
 * Upstream Jumpstarter's ExporterSet and VirtualTargetClass CRDs, stated as facts: every field with
 * its type, format, default, enum, constraints, required children and CEL rules (with their
 * messages), plus names, subresources and printer columns. Written from reading upstream's CRDs (as
 * of late 2026, INTEROP §7: driver names required); descriptions are left out, they validate nothing.
 *
 * The tests use these facts wherever they need upstream's schema, so they pass on a clone with
 * nothing beside it; where upstream's CRDs are at hand (`../shared/upstream/crds`), a test checks
 * that the facts still say what they say (test/crds/upstream-strict.test.ts).
 */
import type { CustomResourceDefinition, JSONSchemaProps } from '../../lib/crds';

/** The validating keywords of one schema node (no description, no children). */
export type FieldFacts = Omit<
  JSONSchemaProps,
  'description' | 'properties' | 'items' | 'additionalProperties'
>;

export interface CrdFacts {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  readonly scope: 'Namespaced';
  readonly subresources: NonNullable<CustomResourceDefinition['spec']['versions'][0]['subresources']>;
  readonly printerColumns: { name: string; type: 'integer' | 'string'; jsonPath: string }[];
  /** Every schema node by path: properties by name, array items as `[*]`, map values as `{*}`. */
  readonly fields: Readonly<Record<string, FieldFacts>>;
}

const GROUP = 'virtualtarget.jumpstarter.dev';
const int32: FieldFacts = { type: 'integer', format: 'int32' };
const string: FieldFacts = { type: 'string' };
const object: FieldFacts = { type: 'object' };
const pullPolicy: FieldFacts = { type: 'string', enum: ['Always', 'Never', 'IfNotPresent'] };
/** Kubernetes' resource.Quantity: an integer or a string in quantity syntax. */
const quantity: FieldFacts = {
  anyOf: [{ type: 'integer' }, { type: 'string' }],
  pattern:
    '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$',
  'x-kubernetes-int-or-string': true,
};

/** `images {exporter, runtime}`, the same on both kinds. */
const images: Record<string, FieldFacts> = {
  'spec.images': object,
  'spec.images.exporter': object,
  'spec.images.exporter.image': string,
  'spec.images.exporter.imagePullPolicy': pullPolicy,
  'spec.images.runtime': object,
  'spec.images.runtime.image': string,
  'spec.images.runtime.imagePullPolicy': pullPolicy,
};

/** The root every kind has. */
const root: Record<string, FieldFacts> = {
  '': object,
  apiVersion: string,
  kind: string,
  metadata: object,
};

export const EXPORTER_SET_FACTS: CrdFacts = {
  group: GROUP,
  version: 'v1alpha1',
  kind: 'ExporterSet',
  plural: 'exportersets',
  scope: 'Namespaced',
  subresources: {
    status: {},
    scale: {
      specReplicasPath: '.spec.maxReplicas',
      statusReplicasPath: '.status.replicas',
      labelSelectorPath: '.status.selector',
    },
  },
  printerColumns: [
    { name: 'Replicas', type: 'integer', jsonPath: '.status.replicas' },
    { name: 'Ready', type: 'integer', jsonPath: '.status.readyReplicas' },
    { name: 'Available', type: 'integer', jsonPath: '.status.availableReplicas' },
    { name: 'Unavailable', type: 'integer', jsonPath: '.status.unavailableReplicas' },
    { name: 'Leased', type: 'integer', jsonPath: '.status.leasedReplicas' },
    { name: 'Class', type: 'string', jsonPath: '.spec.virtualTargetClassName' },
  ],
  fields: {
    ...root,
    spec: {
      type: 'object',
      required: ['selector', 'template', 'virtualTargetClassName'],
      'x-kubernetes-validations': [
        {
          rule: 'self.maxReplicas == 0 || self.minReplicas <= self.maxReplicas',
          message: 'minReplicas must be less than or equal to maxReplicas (when maxReplicas is not 0)',
        },
        {
          rule: 'self.maxReplicas == 0 || self.minAvailableReplicas <= self.maxReplicas',
          message:
            'minAvailableReplicas must be less than or equal to maxReplicas (when maxReplicas is not 0)',
        },
      ],
    },
    ...images,
    'spec.maxReplicas': { ...int32, default: 4, minimum: 0 },
    'spec.minAvailableReplicas': { ...int32, default: 0, minimum: 0 },
    'spec.minReplicas': { ...int32, default: 0, minimum: 0 },
    'spec.parameters': { 'x-kubernetes-preserve-unknown-fields': true },
    'spec.recycleStrategy': {
      type: 'string',
      default: 'ExitAndReplace',
      enum: ['ExitAndReplace', 'InPlaceReuse'],
    },
    'spec.scaleDownCooldown': { type: 'string', default: '5m' },
    'spec.selector': { type: 'object', 'x-kubernetes-map-type': 'atomic' },
    'spec.selector.matchExpressions': { type: 'array', 'x-kubernetes-list-type': 'atomic' },
    'spec.selector.matchExpressions[*]': { type: 'object', required: ['key', 'operator'] },
    'spec.selector.matchExpressions[*].key': string,
    'spec.selector.matchExpressions[*].operator': string,
    'spec.selector.matchExpressions[*].values': { type: 'array', 'x-kubernetes-list-type': 'atomic' },
    'spec.selector.matchExpressions[*].values[*]': string,
    'spec.selector.matchLabels': object,
    'spec.selector.matchLabels{*}': string,
    'spec.template': object,
    'spec.template.metadata': object,
    'spec.template.metadata.annotations': object,
    'spec.template.metadata.annotations{*}': string,
    'spec.template.metadata.labels': object,
    'spec.template.metadata.labels{*}': string,
    'spec.template.spec': object,
    'spec.template.spec.drivers': { type: 'array' },
    'spec.template.spec.drivers[*]': {
      type: 'object',
      required: ['name'],
      'x-kubernetes-validations': [
        { rule: 'has(self.type) || has(self.ref)', message: 'either type or ref must be set' },
        { rule: '!(has(self.type) && has(self.ref))', message: 'type and ref are mutually exclusive' },
        { rule: '!has(self.ref) || !has(self.config)', message: 'ref entries must not have config' },
        { rule: 'has(self.name) && size(self.name) > 0', message: 'name is required' },
      ],
    },
    'spec.template.spec.drivers[*].config': { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    'spec.template.spec.drivers[*].name': string,
    'spec.template.spec.drivers[*].ref': { type: 'string', pattern: '^[^.]+([.][^.]+)*$' },
    'spec.template.spec.drivers[*].type': { type: 'string', minLength: 1 },
    'spec.virtualTargetClassName': { type: 'string', minLength: 1 },
    status: {
      type: 'object',
      required: [
        'availableReplicas',
        'exportersActive',
        'exportersDisabled',
        'exportersIdle',
        'exportersOffline',
        'leasedReplicas',
        'podsFailed',
        'podsPending',
        'podsRunning',
        'podsUnknown',
        'readyReplicas',
        'replicas',
        'unavailableReplicas',
      ],
    },
    'status.availableReplicas': int32,
    // metav1.Condition, as Kubernetes publishes it.
    'status.conditions': { type: 'array' },
    'status.conditions[*]': {
      type: 'object',
      required: ['lastTransitionTime', 'message', 'reason', 'status', 'type'],
    },
    'status.conditions[*].lastTransitionTime': { type: 'string', format: 'date-time' },
    'status.conditions[*].message': { type: 'string', maxLength: 32768 },
    'status.conditions[*].observedGeneration': { type: 'integer', format: 'int64', minimum: 0 },
    'status.conditions[*].reason': {
      type: 'string',
      minLength: 1,
      maxLength: 1024,
      pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$',
    },
    'status.conditions[*].status': { type: 'string', enum: ['True', 'False', 'Unknown'] },
    'status.conditions[*].type': {
      type: 'string',
      maxLength: 316,
      pattern:
        '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$',
    },
    'status.exportersActive': int32,
    'status.exportersDisabled': int32,
    'status.exportersIdle': int32,
    'status.exportersOffline': int32,
    'status.leasedReplicas': int32,
    'status.podsFailed': int32,
    'status.podsPending': int32,
    'status.podsRunning': int32,
    'status.podsUnknown': int32,
    'status.readyReplicas': int32,
    'status.replicas': int32,
    'status.selector': string,
    'status.unavailableReplicas': int32,
  },
};

export const VIRTUAL_TARGET_CLASS_FACTS: CrdFacts = {
  group: GROUP,
  version: 'v1alpha1',
  kind: 'VirtualTargetClass',
  plural: 'virtualtargetclasses',
  scope: 'Namespaced',
  subresources: {},
  printerColumns: [
    { name: 'Provisioner', type: 'string', jsonPath: '.spec.provisioner' },
    { name: 'Binding', type: 'string', jsonPath: '.spec.bindingMode' },
  ],
  fields: {
    ...root,
    spec: { type: 'object', required: ['provisioner'] },
    'spec.bindingMode': { type: 'string', default: 'Immediate', enum: ['Immediate', 'WaitForFirstConsumer'] },
    'spec.caBundleConfigMapRef': { type: 'object', required: ['name'] },
    'spec.caBundleConfigMapRef.key': { type: 'string', default: 'ca-bundle.crt' },
    'spec.caBundleConfigMapRef.name': { type: 'string', minLength: 1 },
    // corev1.LocalObjectReference.
    'spec.credentialsSecretRef': { type: 'object', 'x-kubernetes-map-type': 'atomic' },
    'spec.credentialsSecretRef.name': { type: 'string', default: '' },
    ...images,
    'spec.parameters': { 'x-kubernetes-preserve-unknown-fields': true },
    'spec.provisioner': { type: 'string', minLength: 1 },
    'spec.reclaimPolicy': { type: 'string', default: 'Delete', enum: ['Delete', 'Retain'] },
    'spec.scheduling': object,
    'spec.scheduling.nodeSelector': object,
    'spec.scheduling.nodeSelector{*}': string,
    // corev1.ResourceRequirements.
    'spec.scheduling.resources': object,
    'spec.scheduling.resources.claims': {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    },
    'spec.scheduling.resources.claims[*]': { type: 'object', required: ['name'] },
    'spec.scheduling.resources.claims[*].name': string,
    'spec.scheduling.resources.claims[*].request': string,
    'spec.scheduling.resources.limits': object,
    'spec.scheduling.resources.limits{*}': quantity,
    'spec.scheduling.resources.requests': object,
    'spec.scheduling.resources.requests{*}': quantity,
    // corev1.Toleration.
    'spec.scheduling.tolerations': { type: 'array' },
    'spec.scheduling.tolerations[*]': object,
    'spec.scheduling.tolerations[*].effect': string,
    'spec.scheduling.tolerations[*].key': string,
    'spec.scheduling.tolerations[*].operator': string,
    'spec.scheduling.tolerations[*].tolerationSeconds': { type: 'integer', format: 'int64' },
    'spec.scheduling.tolerations[*].value': string,
  },
};

export const UPSTREAM_FACTS: readonly CrdFacts[] = [VIRTUAL_TARGET_CLASS_FACTS, EXPORTER_SET_FACTS];

/** Every schema node of a CRD by path, in the notation of {@link CrdFacts.fields}. */
export function schemaNodes(schema: JSONSchemaProps, at = ''): [string, JSONSchemaProps][] {
  const out: [string, JSONSchemaProps][] = [[at, schema]];
  for (const [k, v] of Object.entries(schema.properties ?? {}))
    out.push(...schemaNodes(v, at ? `${at}.${k}` : k));
  if (schema.items) out.push(...schemaNodes(schema.items, `${at}[*]`));
  if (typeof schema.additionalProperties === 'object') {
    out.push(...schemaNodes(schema.additionalProperties, `${at}{*}`));
  }
  return out;
}

/** The validating keywords of a schema node: what {@link FieldFacts} states. */
export function factsOf(schema: JSONSchemaProps): FieldFacts {
  const { description: _d, properties: _p, items: _i, additionalProperties: _a, ...facts } = schema;
  return facts;
}

/** The facts of a CRD, in the shape of {@link CrdFacts}, to compare with a fact table. */
export function crdFacts(crd: CustomResourceDefinition): CrdFacts {
  const version = crd.spec.versions[0];
  return {
    group: crd.spec.group,
    version: version.name,
    kind: crd.spec.names.kind,
    plural: crd.spec.names.plural,
    scope: crd.spec.scope as 'Namespaced',
    subresources: version.subresources ?? {},
    printerColumns: (version.additionalPrinterColumns ?? []) as CrdFacts['printerColumns'],
    fields: Object.fromEntries(schemaNodes(version.schema.openAPIV3Schema).map(([p, s]) => [p, factsOf(s)])),
  };
}

/**
 * A CRD made from the facts alone: upstream's CRD as far as admission can tell (the validator needs
 * no descriptions). Map values are typed by their `{*}` entry, array items by their `[*]` entry.
 */
export function crdFromFacts(facts: CrdFacts): CustomResourceDefinition {
  const node = (path: string): JSONSchemaProps => {
    const schema: JSONSchemaProps = structuredClone(facts.fields[path]) as JSONSchemaProps;
    const prefix = path ? `${path}.` : '';
    const children = Object.keys(facts.fields).filter(
      (p) => p.startsWith(prefix) && p !== path && !/[.[{]/.test(p.slice(prefix.length)),
    );
    if (children.length > 0)
      schema.properties = Object.fromEntries(children.map((p) => [p.slice(prefix.length), node(p)]));
    if (facts.fields[`${path}[*]`]) schema.items = node(`${path}[*]`);
    if (facts.fields[`${path}{*}`]) schema.additionalProperties = node(`${path}{*}`);
    return schema;
  };
  const singular = facts.kind.toLowerCase();
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${facts.plural}.${facts.group}` },
    spec: {
      group: facts.group,
      names: { kind: facts.kind, listKind: `${facts.kind}List`, plural: facts.plural, singular },
      scope: facts.scope,
      versions: [
        {
          name: facts.version,
          served: true,
          storage: true,
          schema: { openAPIV3Schema: node('') },
          subresources: facts.subresources,
          additionalPrinterColumns: facts.printerColumns,
        },
      ],
    },
  };
}
