/**
 * A loose typing of `apiextensions.k8s.io/v1` CustomResourceDefinitions and small builders for the
 * schema pieces our four CRDs share. The CRDs are plain JSON so every front end (cdk8s, Pulumi, the
 * test cluster, `cdk8s import`) can use them as they are; treat the exported objects as read-only
 * and clone before changing them.
 */

/** One CEL admission rule (`x-kubernetes-validations` entry). */
import { VERSION } from '../api';

export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  /** JSONPath (relative to the rule's location) of the field the error is reported on. */
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

/** The subset of OpenAPI v3 (plus Kubernetes extensions) a structural CRD schema uses. */
export interface JSONSchemaProps {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  description?: string;
  format?: string;
  default?: unknown;
  enum?: (string | number | boolean)[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
  nullable?: boolean;
  required?: string[];
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  items?: JSONSchemaProps;
  anyOf?: JSONSchemaProps[];
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-validations'?: ValidationRule[];
}

export interface PrinterColumn {
  name: string;
  type: 'integer' | 'number' | 'string' | 'boolean' | 'date';
  jsonPath: string;
  description?: string;
  format?: string;
  priority?: number;
}

export interface CustomResourceSubresources {
  status?: Record<string, never>;
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
}

export interface CustomResourceDefinitionVersion {
  name: string;
  served: boolean;
  storage: boolean;
  schema: { openAPIV3Schema: JSONSchemaProps };
  subresources?: CustomResourceSubresources;
  additionalPrinterColumns?: PrinterColumn[];
}

export interface CustomResourceDefinition {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: {
    group: string;
    names: {
      kind: string;
      listKind: string;
      plural: string;
      singular: string;
      shortNames?: string[];
      categories?: string[];
    };
    scope: 'Namespaced' | 'Cluster';
    versions: CustomResourceDefinitionVersion[];
  };
}

// ---- scalar builders: the description comes first because every field must have one ----

type Extra = Omit<JSONSchemaProps, 'type' | 'description'>;

export function str(description: string, extra: Extra = {}): JSONSchemaProps {
  return { type: 'string', description, ...extra };
}

export function bool(description: string, extra: Extra = {}): JSONSchemaProps {
  return { type: 'boolean', description, ...extra };
}

/** A 32-bit integer, the Go `int32` of upstream's counters and replica fields. */
export function int32(description: string, extra: Extra = {}): JSONSchemaProps {
  return { type: 'integer', format: 'int32', description, ...extra };
}

export function int64(description: string, extra: Extra = {}): JSONSchemaProps {
  return { type: 'integer', format: 'int64', description, ...extra };
}

/** An RFC 3339 timestamp (metav1.Time). */
export function dateTime(description: string): JSONSchemaProps {
  return { type: 'string', format: 'date-time', description };
}

export function object(
  description: string,
  properties: Record<string, JSONSchemaProps>,
  extra: Extra = {},
): JSONSchemaProps {
  return { type: 'object', description, properties, ...extra };
}

export function array(description: string, items: JSONSchemaProps, extra: Extra = {}): JSONSchemaProps {
  return { type: 'array', description, items, ...extra };
}

/** A `map[string]string` such as labels, annotations or a node selector; `values` constrains each value. */
export function stringMap(description: string, extra: Extra = {}, values: Extra = {}): JSONSchemaProps {
  return { type: 'object', description, additionalProperties: { type: 'string', ...values }, ...extra };
}

/** A schemaless nested object kept as written (`parameters`, driver `config`, an Affinity). */
export function freeformObject(description: string): JSONSchemaProps {
  return { type: 'object', description, 'x-kubernetes-preserve-unknown-fields': true };
}

// ---- shared compound schemas ----

/** corev1.LocalObjectReference, exactly as Kubernetes publishes it (name defaults to ""). */
export function localObjectReferenceSchema(description: string, nameDescription: string): JSONSchemaProps {
  return object(
    description,
    { name: str(nameDescription, { default: '' }) },
    { 'x-kubernetes-map-type': 'atomic' },
  );
}

/** metav1.Condition list (the standard condition shape with its own validation). */
export function conditionsSchema(description: string): JSONSchemaProps {
  return array(
    description,
    object(
      'One observation of an aspect of the object, in the standard Kubernetes condition shape.',
      {
        lastTransitionTime: dateTime(
          'When the condition last changed status (or, if that is unknown, when the field last changed).',
        ),
        message: str('A human-readable explanation of the transition; may be empty.', { maxLength: 32768 }),
        observedGeneration: int64(
          'The metadata.generation the condition was computed from; older than the current generation means stale.',
          { minimum: 0 },
        ),
        reason: str('A CamelCase, machine-readable reason for the last transition; never empty.', {
          maxLength: 1024,
          minLength: 1,
          pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$',
        }),
        status: str('Whether the condition holds: True, False or Unknown.', {
          enum: ['True', 'False', 'Unknown'],
        }),
        type: str('The condition type, in CamelCase or as example.com/CamelCase.', {
          maxLength: 316,
          pattern:
            '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$',
        }),
      },
      { required: ['lastTransitionTime', 'message', 'reason', 'status', 'type'] },
    ),
  );
}

function imageSpecSchema(description: string): JSONSchemaProps {
  return object(description, {
    image: str('Container image reference, for example "quay.io/org/repo:tag".'),
    imagePullPolicy: str('When the kubelet pulls the image: Always, Never or IfNotPresent.', {
      enum: ['Always', 'Never', 'IfNotPresent'],
    }),
  });
}

/** `images {exporter, runtime}` on a class or a set. */
export function imagesSchema(description: string): JSONSchemaProps {
  return object(description, {
    exporter: imageSpecSchema('Image of the exporter container that runs `jmp run` in every instance.'),
    runtime: imageSpecSchema(
      'Image of the provisioner-specific runtime beside the exporter (for qemu.jumpstarter.dev, the QEMU runtime).',
    ),
  });
}

/** Messages for the per-expression rules of {@link labelSelectorSchema}; without them no rules are added. */
export interface SelectorExpressionMessages {
  /** When the operator is not In, NotIn, Exists or DoesNotExist. */
  readonly operator: string;
  /** When In/NotIn have no values, or Exists/DoesNotExist have some. */
  readonly values: string;
}

/** Size bounds of a label selector, for CEL rules that iterate it (see bounds.ts). */
export interface LabelSelectorBounds {
  /** Most entries of matchLabels. */
  readonly matchLabels: number;
  /** Most requirements in matchExpressions. */
  readonly matchExpressions: number;
  /** Longest requirement key. */
  readonly key: number;
  /** Most values of one requirement. */
  readonly values: number;
  /** Longest value, in matchLabels and in a requirement's values. */
  readonly value: number;
}

export interface LabelSelectorOptions {
  /** Adds the per-requirement checks Kubernetes applies to its own selectors. */
  readonly expressionMessages?: SelectorExpressionMessages;
  /** Bounds the selector; without them it is as unbounded as metav1.LabelSelector. */
  readonly bounds?: LabelSelectorBounds;
  /** More keywords on the selector object itself, such as a default. */
  readonly extra?: Extra;
}

/** `description`, with the bound in a short sentence when there is one. */
function bounded(description: string, sentence: string | undefined): string {
  return sentence ? `${description} ${sentence}` : description;
}

/**
 * metav1.LabelSelector. With `expressionMessages`, each match expression also gets the checks that
 * Kubernetes applies to its own selectors (a CRD schema does not get them for free).
 */
export function labelSelectorSchema(
  description: string,
  options: LabelSelectorOptions = {},
): JSONSchemaProps {
  const { expressionMessages, bounds, extra = {} } = options;
  const expression = object(
    'One requirement: a label key, an operator and (for In and NotIn) the values it relates the key to.',
    {
      key: str(
        bounded('The label key the requirement applies to.', bounds && `At most ${bounds.key} characters.`),
        bounds ? { maxLength: bounds.key } : {},
      ),
      operator: str('How the key relates to the values: In, NotIn, Exists or DoesNotExist.'),
      values: array(
        bounded(
          'The values for In and NotIn (must be non-empty); must be empty for Exists and DoesNotExist.',
          bounds && `At most ${bounds.values} values of up to ${bounds.value} characters.`,
        ),
        { type: 'string', ...(bounds ? { maxLength: bounds.value } : {}) },
        { 'x-kubernetes-list-type': 'atomic', ...(bounds ? { maxItems: bounds.values } : {}) },
      ),
    },
    { required: ['key', 'operator'] },
  );
  if (expressionMessages) {
    expression['x-kubernetes-validations'] = [
      {
        rule: "self.operator in ['In', 'NotIn', 'Exists', 'DoesNotExist']",
        message: expressionMessages.operator,
      },
      {
        // An unknown operator is reported by the rule above only.
        rule:
          "self.operator in ['In', 'NotIn'] ? (has(self.values) && size(self.values) > 0)" +
          " : self.operator in ['Exists', 'DoesNotExist'] ? (!has(self.values) || size(self.values) == 0)" +
          ' : true',
        message: expressionMessages.values,
      },
    ];
  }
  return object(
    description,
    {
      matchExpressions: array(
        bounded(
          'Label requirements that must all hold.',
          bounds && `At most ${bounds.matchExpressions} requirements.`,
        ),
        expression,
        { 'x-kubernetes-list-type': 'atomic', ...(bounds ? { maxItems: bounds.matchExpressions } : {}) },
      ),
      matchLabels: stringMap(
        bounded(
          'Labels that must all be present with exactly these values; each entry is short for an In requirement with one value.',
          bounds && `At most ${bounds.matchLabels} entries, values of up to ${bounds.value} characters.`,
        ),
        bounds ? { maxProperties: bounds.matchLabels } : {},
        bounds ? { maxLength: bounds.value } : {},
      ),
    },
    { 'x-kubernetes-map-type': 'atomic', ...extra },
  );
}

// ---- object-level pieces ----

/** The root of a kind's schema: apiVersion, kind, metadata, spec and (optionally) status. */
export function rootSchema(
  description: string,
  spec: JSONSchemaProps,
  status?: JSONSchemaProps,
  rules?: readonly ValidationRule[],
): JSONSchemaProps {
  const extra: Extra = rules && rules.length > 0 ? { 'x-kubernetes-validations': [...rules] } : {};
  return object(
    description,
    {
      apiVersion: str('The versioned schema of this object, as group/version.'),
      kind: str('The REST resource kind of this object, in CamelCase.'),
      // A real API server forbids anything but `type: object` here (metadata is ObjectMeta, implied),
      // so this is the one property without a description.
      metadata: { type: 'object' },
      spec,
      ...(status ? { status } : {}),
    },
    extra,
  );
}

/** The `Age` column every kubectl table ends with. */
export const ageColumn: PrinterColumn = {
  name: 'Age',
  type: 'date',
  jsonPath: '.metadata.creationTimestamp',
};

export interface NamespacedCrdOptions {
  readonly group: string;
  readonly kind: string;
  readonly plural: string;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  /** The kind's description: what `kubectl explain <kind>` prints first. */
  readonly description: string;
  readonly spec: JSONSchemaProps;
  readonly status?: JSONSchemaProps;
  /** Rules on the whole object; of ObjectMeta they may read only metadata.name and generateName. */
  readonly rules?: readonly ValidationRule[];
  readonly subresources: CustomResourceSubresources;
  /** The kind's own columns; the `Age` column is appended. */
  readonly printerColumns: readonly PrinterColumn[];
}

/** A namespaced CRD with the single served and stored version `v1alpha1`, as all four of ours are. */
export function namespacedCrd(o: NamespacedCrdOptions): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${o.plural}.${o.group}` },
    spec: {
      group: o.group,
      names: {
        kind: o.kind,
        listKind: `${o.kind}List`,
        plural: o.plural,
        singular: o.kind.toLowerCase(),
        ...(o.shortNames ? { shortNames: [...o.shortNames] } : {}),
        ...(o.categories ? { categories: [...o.categories] } : {}),
      },
      scope: 'Namespaced',
      versions: [
        {
          name: VERSION,
          served: true,
          storage: true,
          schema: { openAPIV3Schema: rootSchema(o.description, o.spec, o.status, o.rules) },
          subresources: o.subresources,
          additionalPrinterColumns: [...o.printerColumns, ageColumn],
        },
      ],
    },
  };
}
