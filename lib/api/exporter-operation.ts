/**
 * ExporterOperation: a one-off operation on one instance of an ExporterSet, or on the instances of a
 * set a selector picks (shaped like a Kubernetes Job, after Unbounded's MachineOperation). A selector
 * operation fans out to one child operation per instance, owned by it. No operation takes a leased
 * instance away: each waits for the lease to end, or fails at its deadline.
 */
import type { Condition, LabelSelector, ObjectMeta } from './meta';

/** The operations this project's controller carries out. */
export const OperationNames = ['Recycle', 'Disable', 'Enable', 'Drain'] as const;
export type OperationName = (typeof OperationNames)[number];

/**
 * A provisioner-specific operation: `<provisioner-domain>/<Name>` (e.g. `qemu.jumpstarter.dev/Reflash`).
 * Admission accepts the shape; a controller that does not know the operation fails it with
 * `UnsupportedOperation`.
 */
export const PROVISIONER_OPERATION_PATTERN =
  '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+/[A-Z][A-Za-z0-9]{0,62}$';

export interface ExporterOperationSpec {
  readonly operation: string;
  /** The one Exporter to operate on; it must be an instance of an ExporterSet. */
  readonly exporterName?: string;
  /**
   * The ExporterSet whose instances the selector picks; the operation creates one child operation per
   * instance.
   */
  readonly exporterSetName?: string;
  /** With `exporterSetName`: the labels of the instances to operate on. @default every instance of the set */
  readonly selector?: LabelSelector;
  /** Settings of the operation, for provisioner-specific operations. */
  readonly parameters?: Readonly<Record<string, string>>;
  /** @default no deadline */
  readonly activeDeadlineSeconds?: number;
  /** @default kept */
  readonly ttlSecondsAfterFinished?: number;
}

export const OperationStates = ['Pending', 'InProgress', 'Complete', 'Failed'] as const;
export type OperationState = (typeof OperationStates)[number];

/** The result of the operation on one instance. */
export interface OperationInstanceResult {
  readonly exporterName: string;
  /** The Exporter's uid when the operation first saw it: a later Exporter of the same name is another. */
  readonly uid?: string;
  /** The child operation that works on the instance (selector operations). */
  readonly operationName?: string;
  readonly state: OperationState;
  readonly reason?: string;
  readonly message?: string;
}

export interface ExporterOperationStatus {
  readonly observedGeneration?: number;
  readonly state: OperationState;
  /** Why the operation is in its state (one of {@link OperationReasons}). */
  readonly reason?: string;
  readonly message?: string;
  /** When the controller first worked on it; `activeDeadlineSeconds` counts from here. */
  readonly startTime?: string;
  /** When it became Complete or Failed; `ttlSecondsAfterFinished` counts from here. */
  readonly completionTime?: string;
  /** One entry per targeted instance, in name order; fixed once chosen. */
  readonly instances?: readonly OperationInstanceResult[];
  readonly conditions?: readonly Condition[];
}

export interface ExporterOperation {
  readonly apiVersion: string;
  readonly kind: 'ExporterOperation';
  readonly metadata: ObjectMeta;
  readonly spec: ExporterOperationSpec;
  readonly status?: ExporterOperationStatus;
}

/** On a child operation: the name of the selector operation it belongs to. */
export const OperationLabels = {
  parent: 'exporteroperation.jumpstarter.dev/parent',
} as const;

/** Condition types of an ExporterOperation (Job-like: `Complete` and `Failed` are True once finished). */
export const OperationConditionTypes = {
  /** True while a targeted instance is leased and the operation waits for its lease to end. */
  WaitingForLease: 'WaitingForLease',
  Complete: 'Complete',
  Failed: 'Failed',
  /**
   * True while the operation's last write failed (reason FailedPatch for the Exporter, FailedCreate for
   * a child, FailedDelete for the TTL delete; the message carries the API's answer); it is retried.
   */
  WriteFailure: 'WriteFailure',
} as const;

/** Reasons of the operation's state, of its per-instance results and of its conditions. */
export const OperationReasons = {
  /** Pending: an instance's child operation was just created and has not been worked on yet. */
  Created: 'Created',
  /** InProgress: a targeted instance is leased; the operation acts after the lease ends. */
  WaitingForLease: 'WaitingForLease',
  /** InProgress: the instance is marked, the set replaces it (Recycle) or removes it (Drain). */
  WaitingForSet: 'WaitingForSet',
  /** InProgress: the child operations are working. */
  InstancesInProgress: 'InstancesInProgress',
  /** Complete. */
  Succeeded: 'Succeeded',
  /** Failed: the operation is neither one of ours nor known to the provisioner. */
  UnsupportedOperation: 'UnsupportedOperation',
  /** Failed: `activeDeadlineSeconds` passed before it finished. */
  DeadlineExceeded: 'DeadlineExceeded',
  /** Failed: the named Exporter does not exist. */
  ExporterNotFound: 'ExporterNotFound',
  /** Failed: the named Exporter is not an instance of an ExporterSet. */
  NotAnInstance: 'NotAnInstance',
  /** Failed: the named ExporterSet does not exist. */
  ExporterSetNotFound: 'ExporterSetNotFound',
  /** Failed: the selector picks no instance of the set. */
  NoInstancesSelected: 'NoInstancesSelected',
  /** Failed: the instance is disabled by hand; a Recycle or Drain would never happen. */
  InstanceDisabled: 'InstanceDisabled',
  /** Failed: the set is removing the instance; it cannot be enabled. */
  InstanceRetiring: 'InstanceRetiring',
  /** Failed: the instance's ExporterSet is being deleted; it drains every instance itself. */
  ExporterSetDeleting: 'ExporterSetDeleting',
  /** Failed: some instances' operations failed. */
  InstancesFailed: 'InstancesFailed',
  /** WaitingForLease=False. */
  NotWaiting: 'NotWaiting',
  /**
   * Failed: the spec breaks a rule of the CRD that admission did not enforce (a CRD installed without
   * our rules); the message names the field and the rule.
   */
  InvalidSpec: 'InvalidSpec',
  /** WriteFailure=False: the writes of the last pass succeeded. */
  NoFailures: 'NoFailures',
} as const;

/** Event reasons on ExporterOperations. */
export const OperationEventReasons = {
  WaitingForLease: 'WaitingForLease',
  InstanceMarked: 'InstanceMarked',
  OperationComplete: 'OperationComplete',
  OperationFailed: 'OperationFailed',
  ChildCreated: 'ChildCreated',
} as const;

/** Admission messages of the ExporterOperation CRD; synth-time validation uses the same texts. */
export const OperationRuleMessages = {
  operationName:
    'operation must be Recycle, Disable, Enable or Drain, or a provisioner-specific operation written provisioner-domain/Name, such as qemu.jumpstarter.dev/Reflash',
  oneTarget: 'exactly one of exporterName or exporterSetName must be set',
  selectorNeedsSet: 'selector may only be set with exporterSetName',
  specImmutable: 'spec is immutable: create a new ExporterOperation instead',
} as const;
