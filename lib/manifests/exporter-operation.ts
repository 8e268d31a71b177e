import { API_VERSION, Kinds, type ExporterOperation, type LabelSelector, type OperationName } from '../api';
import { compact } from './compact';
import { wireMetadata, type ObjectMetaInput } from './object-meta-input';

/** One of our operations, or a provisioner-specific `<provisioner-domain>/<Name>`. */
export type OperationKind = OperationName | `${string}/${string}`;

/**
 * An ExporterOperation's settings besides its metadata, documented once: the cdk8s props and the
 * Pulumi args are these fields (cdk8s takes the two durations as `Duration`s).
 */
export interface ExporterOperationOptions {
  /**
   * `Recycle` (the set replaces the instance, warm buffer kept), `Disable`, `Enable`, `Drain` (the
   * instance leaves the set), or a provisioner-specific `<provisioner-domain>/<Name>`.
   */
  readonly operation: OperationKind;
  /** The one instance (Exporter) to operate on. Exactly one of this and `exporterSetName`. @default none */
  readonly exporterName?: string;
  /** The set whose instances `selector` picks (one child operation each). @default none */
  readonly exporterSetName?: string;
  /** With `exporterSetName`: the labels of the instances to operate on. @default every instance of the set */
  readonly selector?: LabelSelector;
  /** Settings of the operation, for provisioner-specific operations. @default none */
  readonly parameters?: Readonly<Record<string, string>>;
  /** Seconds from its start after which an unfinished operation fails. @default no deadline */
  readonly activeDeadlineSeconds?: number;
  /** Seconds after it finished after which the controller deletes it. @default kept */
  readonly ttlSecondsAfterFinished?: number;
}

/** Framework-neutral description of an ExporterOperation: what the builder takes. */
export interface ExporterOperationInput extends ObjectMetaInput, ExporterOperationOptions {}

/** Builds the wire object (no defaults to write out: every optional field means "none"). */
export function buildExporterOperation(input: ExporterOperationInput): ExporterOperation {
  return compact({
    apiVersion: API_VERSION,
    kind: Kinds.ExporterOperation,
    metadata: wireMetadata(input),
    spec: {
      operation: input.operation,
      exporterName: input.exporterName,
      exporterSetName: input.exporterSetName,
      selector: input.selector,
      parameters: input.parameters,
      activeDeadlineSeconds: input.activeDeadlineSeconds,
      ttlSecondsAfterFinished: input.ttlSecondsAfterFinished,
    },
  });
}
