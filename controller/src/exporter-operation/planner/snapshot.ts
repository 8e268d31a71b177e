/**
 * What the operation planner is given: the operation and the part of its namespace it concerns, read
 * from the caches by the reconciler. `now` is the only clock the planner reads.
 */
import type { Exporter, ExporterOperation, ExporterSet } from 'virtual-exporters/internal';

/** One instance of the set as the operation sees it. */
export interface OperationTarget {
  readonly exporter: Exporter;
  /** The name of a non-ended Lease that names the instance in its status, if any. */
  readonly leasedBy?: string;
}

export interface OperationSnapshot {
  readonly now: number;
  /** The provisioner this controller runs. */
  readonly provisioner: string;
  readonly operation: ExporterOperation;
  /** `spec.exporterName`: the Exporter of that name, if cached. */
  readonly target?: OperationTarget;
  /** The set: the named one (`spec.exporterSetName`) or the one controlling the target. */
  readonly set?: ExporterSet;
  /** The provisioner of the set's class; undefined when the class is missing. */
  readonly setProvisioner?: string;
  /** `spec.exporterSetName`: the set's instances (Exporters it controls). */
  readonly instances?: readonly OperationTarget[];
  /** The operation's children (selector operations). */
  readonly children?: readonly ExporterOperation[];
  /** `spec.exporterName`: the other instances of the target's set. */
  readonly siblings?: readonly Exporter[];
  /**
   * Instances named by another unfinished Drain or Disable operation in the namespace: they are about
   * to be disabled, so they keep nothing enabled.
   */
  readonly disabling?: ReadonlySet<string>;
}
