/**
 * Our CRDs as plain `apiextensions.k8s.io/v1` objects: the single source of the schema for the
 * installer, `cdk8s import`, the test cluster and the docs (`kubectl explain`).
 */
import { exporterCrd } from './exporter';
import { exporterOperationCrd } from './exporter-operation';
import { exporterSetCrd } from './exporter-set';
import { leaseCrd } from './lease';
import type { CustomResourceDefinition } from './schema';
import { virtualTargetClassCrd } from './virtual-target-class';

export { exporterCrd } from './exporter';
export { exporterSetCrd } from './exporter-set';
export { exporterOperationCrd } from './exporter-operation';
export { leaseCrd, LeaseRuleMessages } from './lease';
export { virtualTargetClassCrd } from './virtual-target-class';
export { derivedDriverNameCel } from './cel';
export {
  UPSTREAM_DRIVER_NAME_RULE,
  upstreamStrictCrds,
  upstreamStrictExporterSetCrd,
  upstreamStrictVirtualTargetClassCrd,
} from './upstream-strict';
export type {
  CustomResourceDefinition,
  CustomResourceDefinitionVersion,
  CustomResourceSubresources,
  JSONSchemaProps,
  PrinterColumn,
  ValidationRule,
} from './schema';

/** What the installer applies by default: the kinds this project owns. */
export const ourCrds: readonly CustomResourceDefinition[] = [
  virtualTargetClassCrd,
  exporterSetCrd,
  exporterOperationCrd,
];

/**
 * Jumpstarter's own kinds, for the test cluster and an optional standalone install; never applied
 * by default over a Jumpstarter installation's CRDs.
 */
export const jumpstarterCrds: readonly CustomResourceDefinition[] = [exporterCrd, leaseCrd];
