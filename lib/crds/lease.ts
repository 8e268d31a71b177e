/**
 * Jumpstarter's Lease CRD (`jumpstarter.dev/v1alpha1`), written from upstream's schema
 * (with its CEL rules, including the `oldSelf` immutability rules) plus our descriptions and an Age
 * column. Like the Exporter CRD it is never installed over Jumpstarter's own.
 */
import { JUMPSTARTER_GROUP, Kinds, Plurals } from '../api/constants';
import {
  bool,
  conditionsSchema,
  dateTime,
  labelSelectorSchema,
  localObjectReferenceSchema,
  object,
  namespacedCrd,
  str,
  stringMap,
  type CustomResourceDefinition,
  type JSONSchemaProps,
} from './schema';

/** Upstream's rule texts and messages, verbatim. */
export const LeaseRuleMessages = {
  selectorOrExporterRef: 'one of selector or exporterRef.name is required',
  tagsImmutable: 'tags are immutable after creation',
  contextImmutable: 'context is immutable after creation',
  contextSizes: 'context keys max 32 chars, values max 64 chars',
} as const;

const specSchema: JSONSchemaProps = object(
  'What the client asks for: which exporter (by selector or by name), and for how long.',
  {
    allowDisabled: bool(
      'With exporterRef: allow leasing the named exporter even when it is disabled (to investigate it). Ignored for selector leases.',
    ),
    beginTime: dateTime('Requested start; when omitted the lease starts once an exporter is assigned.'),
    clientRef: localObjectReferenceSchema('The client that requests the lease.', 'Name of the Client.'),
    context: stringMap(
      'Free-form context of the lease (build id, image digest, VCS ref); set once at creation. At most 8 entries, keys up to 32 and values up to 64 characters.',
      { maxProperties: 8 },
    ),
    duration: str(
      'How long the lease lasts, as a positive Go duration; may be omitted when both beginTime and endTime are given.',
    ),
    endTime: dateTime('Requested end; may be changed to extend or shorten an active lease.'),
    exporterRef: localObjectReferenceSchema(
      'Pins the lease to one exporter by name.',
      'Name of the Exporter.',
    ),
    release: bool('Set to true to end the lease now.'),
    selector: labelSelectorSchema('Labels the leased exporter must match.', { extra: { default: {} } }),
    tags: stringMap(
      'Free-form tags of the lease; set once at creation. At most 10 entries with label-like keys (no slashes).',
      { maxProperties: 10 },
    ),
  },
  {
    required: ['clientRef', 'selector'],
    'x-kubernetes-validations': [
      {
        rule:
          '((has(self.selector.matchLabels) && size(self.selector.matchLabels) > 0)' +
          ' || (has(self.selector.matchExpressions) && size(self.selector.matchExpressions) > 0))' +
          ' || (has(self.exporterRef) && has(self.exporterRef.name) && size(self.exporterRef.name) > 0)',
        message: LeaseRuleMessages.selectorOrExporterRef,
      },
      { rule: '!has(oldSelf.tags) || self.tags == oldSelf.tags', message: LeaseRuleMessages.tagsImmutable },
      {
        rule: '!has(oldSelf.context) || self.context == oldSelf.context',
        message: LeaseRuleMessages.contextImmutable,
      },
      {
        rule: '!has(self.context) || self.context.all(k, size(k) <= 32 && size(self.context[k]) <= 64)',
        message: LeaseRuleMessages.contextSizes,
      },
    ],
  },
);

const statusSchema: JSONSchemaProps = object(
  'The lease as Jumpstarter last observed it.',
  {
    beginTime: dateTime('When the lease actually started.'),
    conditions: conditionsSchema('Latest observations: Pending, Ready, Unsatisfiable and Invalid.'),
    endTime: dateTime('When the lease actually ended.'),
    ended: bool('Whether the lease is over (released, expired or impossible to satisfy).'),
    exporterRef: localObjectReferenceSchema('The exporter assigned to the lease.', 'Name of the Exporter.'),
    priority: { type: 'integer', description: 'Effective priority of the lease, from the access policy.' },
    spotAccess: bool('Whether the lease was granted as spot (preemptible) access.'),
  },
  { required: ['ended'] },
);

export const leaseCrd: CustomResourceDefinition = namespacedCrd({
  group: JUMPSTARTER_GROUP,
  kind: Kinds.Lease,
  plural: Plurals.Lease,
  description: "A Jumpstarter lease: a client's claim on one exporter for a time.",
  spec: specSchema,
  status: statusSchema,
  subresources: { status: {} },
  printerColumns: [
    { name: 'Ended', type: 'boolean', jsonPath: '.status.ended' },
    { name: 'Client', type: 'string', jsonPath: '.spec.clientRef.name' },
    { name: 'Exporter', type: 'string', jsonPath: '.status.exporterRef.name' },
  ],
});
