/**
 * Wire names the planner adds to those of lib/api (`ConditionReasons`, `Annotations`): condition
 * reasons, the annotations it writes on instances, event reasons and the reasons of scale actions.
 * They are candidates to move into lib/api once the controller settles.
 */

/** Condition reasons beyond lib/api's `ConditionReasons`. */
export const PlannerConditionReasons = {
  /** Available=True: at least minAvailableReplicas instances are available. */
  MinimumAvailable: 'MinimumAvailable',
  /** Available=False: fewer than minAvailableReplicas instances are available. */
  BelowMinimumAvailable: 'BelowMinimumAvailable',
  /** Progressing=True while the set is being deleted and drains its instances. */
  Draining: 'Draining',
  ScalingUp: 'ScalingUp',
  ScalingDown: 'ScalingDown',
  RollingOut: 'RollingOut',
  /** Progressing=False: idle instances beyond the need wait for scaleDownCooldown. */
  ScaleDownPending: 'ScaleDownPending',
  /** Progressing=False: nothing to do. */
  Stable: 'Stable',
  /** Degraded=True: the selector does not select the template labels; nothing is created. */
  SelectorDoesNotMatchTemplate: 'SelectorDoesNotMatchTemplate',
  /** Degraded=True: instances that were ready went offline while their Pod runs. */
  InstancesOffline: 'InstancesOffline',
  /** Degraded=False. */
  AsExpected: 'AsExpected',
  /** ScalingLimited=False. */
  WithinLimits: 'WithinLimits',
  /** ReplicaFailure=False (the executor sets True with FailedCreate/FailedDelete). */
  NoFailures: 'NoFailures',
} as const;

/** Annotations the controller writes on instances, beyond lib/api's `Annotations`. */
export const PlannerAnnotations = {
  /**
   * Written with `spec.enabled: false` when the controller disables an instance on its way out; the
   * value says why (a {@link ScaleReason}). An Exporter disabled without it was disabled by hand.
   */
  retiring: 'exporterset.jumpstarter.dev/retiring',
  /** Written when reclaimPolicy Retain releases an instance from the set instead of deleting it. */
  retained: 'exporterset.jumpstarter.dev/retained',
} as const;

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
export const PlannerEventReasons = {
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
} as const;
