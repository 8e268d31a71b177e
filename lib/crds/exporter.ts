/**
 * Jumpstarter's Exporter CRD (`jumpstarter.dev/v1alpha1`), written from upstream's
 * schema with our own descriptions and an Age column. Jumpstarter owns this kind: the installer
 * never applies it over Jumpstarter's own; it serves the test cluster and a standalone install.
 */
import { JUMPSTARTER_GROUP, Kinds, Plurals } from '../api/constants';
import {
  array,
  bool,
  conditionsSchema,
  dateTime,
  localObjectReferenceSchema,
  object,
  namespacedCrd,
  str,
  stringMap,
  type CustomResourceDefinition,
  type JSONSchemaProps,
} from './schema';

const specSchema: JSONSchemaProps = object('How the exporter is to be used.', {
  enabled: bool(
    'Whether leases may be assigned to this exporter. False takes it out of service (maintenance, graceful scale-down) without deleting it.',
    { default: true },
  ),
  username: str('Identity of the exporter for authentication and authorization.'),
});

const statusSchema: JSONSchemaProps = object('The exporter as Jumpstarter last observed it.', {
  conditions: conditionsSchema(
    'Latest observations, notably Registered (devices reported) and Online (reporting in).',
  ),
  credential: localObjectReferenceSchema(
    'The Secret holding the token the exporter authenticates with.',
    'Name of the Secret.',
  ),
  devices: array(
    'The driver instances the exporter currently reports.',
    object('One driver instance reported by the exporter.', {
      labels: stringMap('Labels of the device.'),
      parent_uuid: str('UUID of the parent device, for a child device.'),
      uuid: str('Identifier of the device within the exporter.'),
    }),
  ),
  endpoint: str('The gRPC endpoint of the Jumpstarter controller the exporter connects to.'),
  exporterStatus: str('The operational state the exporter reports.', {
    enum: [
      'Unspecified',
      'Offline',
      'Available',
      'BeforeLeaseHook',
      'LeaseReady',
      'AfterLeaseHook',
      'BeforeLeaseHookFailed',
      'AfterLeaseHookFailed',
    ],
  }),
  lastSeen: dateTime('When the exporter last reported in.'),
  leaseRef: localObjectReferenceSchema(
    'The lease the exporter currently serves, if any.',
    'Name of the Lease.',
  ),
  statusMessage: str('A human-readable note on the current state.'),
});

export const exporterCrd: CustomResourceDefinition = namespacedCrd({
  group: JUMPSTARTER_GROUP,
  kind: Kinds.Exporter,
  plural: Plurals.Exporter,
  description: 'A Jumpstarter exporter: a process exposing a target device that clients lease.',
  spec: specSchema,
  status: statusSchema,
  subresources: { status: {} },
  printerColumns: [
    { name: 'Enabled', type: 'boolean', jsonPath: '.spec.enabled' },
    { name: 'Status', type: 'string', jsonPath: '.status.exporterStatus' },
    { name: 'Message', type: 'string', jsonPath: '.status.statusMessage', priority: 1 },
  ],
});
