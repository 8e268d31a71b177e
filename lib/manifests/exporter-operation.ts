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
   * `Recycle` (the set replaces the instance, warm buffer kept), `Disable` (spec.enabled=false, kept in
   * the set), `Enable` (undoes Disable), `Drain` (the instance leaves the set, which refills by its
   * rules), or a provisioner-specific `<provisioner-domain>/<Name>`, which fails as UnsupportedOperation
   * when the controller does not know it.
   */
  readonly operation: OperationKind;
  /**
   * The one Exporter to operate on; it must be an instance of an ExporterSet. Exactly one of this and
   * `exporterSetName`. @default none
   */
  readonly exporterName?: string;
  /**
   * The ExporterSet whose instances the selector picks; the operation creates one child operation per
   * instance. @default none
   */
  readonly exporterSetName?: string;
  /** With `exporterSetName`: the labels of the instances to operate on. @default every instance of the set */
  readonly selector?: LabelSelector;
  /** Settings of the operation, for provisioner-specific operations. @default none */
  readonly parameters?: Readonly<Record<string, string>>;
  /**
   * Seconds from the start of the operation after which it fails (DeadlineExceeded) if it has not
   * finished, for example because an instance stayed leased. @default no deadline
   */
  readonly activeDeadlineSeconds?: number;
  /**
   * Seconds after the operation finished (Complete or Failed) after which the controller deletes it,
   * with its child operations. @default kept
   */
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
