/**
 * The facts the reconciler's demand recorder keeps of a set's recent leases and startups
 * (demand/demand-record.ts) and hands to the planner (`PlannerSnapshot.servedLeases`,
 * `startupP95Ms`): what the lease-wait objectives are made of (demand/lease-objectives.ts).
 */

/** One lease of the set that was assigned an instance. */
export interface ServedLease {
  readonly uid: string;
  readonly name: string;
  /** Lease created, epoch ms. */
  readonly created: number;
  /** Assigned (`status.beginTime`), epoch ms. */
  readonly begin: number;
  readonly warm: boolean;
}

/** One instance's startup: Exporter created → first Online. */
export interface StartupSample {
  /** The Exporter's uid (each instance counts once). */
  readonly uid: string;
  /** When it came Online, epoch ms. */
  readonly at: number;
  readonly ms: number;
}
