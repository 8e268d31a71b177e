/**
 * The words of the controller's Kubernetes Events on ExporterSets: their reasons, and why an
 * instance was created, promoted, disabled, deleted or released (also a label of the scale metrics).
 */

/** Why an instance is created, promoted, disabled, deleted or released (events and metrics). */
export type ScaleReason =
  /** minReplicas. */
  | 'floor'
  /** minAvailableReplicas. */
  | 'warm-buffer'
  /** Pending leases. */
  | 'demand'
  /** The standby that keeps an empty pool's leases waiting. */
  | 'standby'
  /** Template revision rollout. */
  | 'rollout'
  /** ExitAndReplace after a lease. */
  | 'recycle'
  /** The instance's Pod failed. */
  | 'failed'
  /** Idle beyond the need after scaleDownCooldown. */
  | 'scale-down'
  /** The set is being deleted. */
  | 'drain';

/** Reasons of the Kubernetes Events the plan proposes. */
export const EventReasons = {
  ScaledUp: 'ScaledUp',
  ScaledDown: 'ScaledDown',
  StandbyPromoted: 'StandbyPromoted',
  InstanceRecycled: 'InstanceRecycled',
  /** An instance whose Pod failed is on its way out, to be replaced. */
  InstanceFailed: 'InstanceFailed',
  InstanceReleased: 'InstanceReleased',
  PodReplaced: 'PodReplaced',
  StartupFailure: 'StartupFailure',
  FinalizerRemoved: 'FinalizerRemoved',
  /** An instance name was taken by an Exporter the set does not own: the name is skipped. */
  InstanceNameTaken: 'InstanceNameTaken',
  /** A lifecycle provisioner's instance with no Exporter (a realise never recorded) was torn down. */
  LeftoverTornDown: 'LeftoverTornDown',
  /** A status field the controller reads back was out of range or in the future, and was recomputed. */
  StatusCorrected: 'StatusCorrected',
  /** The class names another provisioner now; this controller drains only the instances it made. */
  ProvisionerChanged: 'ProvisionerChanged',
  /** No instance created before spec.recycleRequestedAt is left: the requested recycle is complete. */
  RecycleCompleted: 'RecycleCompleted',
  /** A window of spec.schedules opened: the warm buffer is raised until it closes. */
  ScheduleWindowOpened: 'ScheduleWindowOpened',
  /** A window of spec.schedules closed: its raise ends; the surplus leaves after scaleDownCooldown. */
  ScheduleWindowClosed: 'ScheduleWindowClosed',
  /** A revision instances of the set run was recorded as a ControllerRevision. */
  RevisionRecorded: 'RevisionRecorded',
  /** A recorded revision beyond spec.revisionHistoryLimit that no instance runs was deleted. */
  RevisionPruned: 'RevisionPruned',
} as const;
