/**
 * What the scale step (scale.ts) and its rule files share: the input of a pass's scale decision, the
 * creates and removals it plans, and the decision itself.
 */
import type { ScaleReason } from 'virtual-exporters/internal';
import type { UpdatePolicy } from '../../spec/update-strategy';
import type { Member } from '../members';

/** What §3.1–3.3 ask of the pool. */
export interface Requirements {
  readonly minReplicas: number;
  readonly minAvailable: number;
  /** Leases waiting for capacity (see `pendingDemand`). */
  readonly pending: number;
  readonly waitForFirstConsumer: boolean;
}

/** An open scale-down window: when the surplus began, and the largest need seen since. */
export interface ScaleDownWindow {
  readonly start: number;
  readonly target: number;
}

export interface ScaleInput {
  /** Kept instances: fixed, idle and replacing ones, and creates in flight (not removable). */
  readonly members: readonly Member[];
  readonly req: Requirements;
  /** New Exporters may be created (parameters valid, selector matches the template). */
  readonly canCreate: boolean;
  /** New Pods may start: creating instances with a Pod and promoting standbys (also no startup backoff). */
  readonly canStartPods: boolean;
  /** Creates the ceiling leaves room for (Infinity when maxReplicas is 0). */
  readonly ceilingRoom: number;
  /** Promotions the ceiling leaves room for (see ceiling-burst.ts `promotionRoom`). */
  readonly promotionRoom: number;
  /** Creates the burst cap leaves room for. */
  readonly burstRoom: number;
  readonly maxReplicas: number;
  /** Instances on their way out (retiring, recycled, failed): they free room under the ceiling soon. */
  readonly leaving: number;
  /** Instances disabled on their way out that a lease still holds (see ceiling-burst.ts `heldLeaving`). */
  readonly leavingHeld: number;
  readonly surgePercent: number;
  /** How outdated instances are replaced (spec/update-strategy.ts). @default Proactive */
  readonly update?: UpdatePolicy;
  /** The persisted window, if one is open. */
  readonly window: Partial<ScaleDownWindow>;
  readonly cooldownMs: number;
  readonly now: number;
}

export interface PlannedCreate {
  readonly standby: boolean;
  readonly reason: ScaleReason;
}

export interface PlannedRemoval {
  readonly name: string;
  readonly reason: ScaleReason;
}

export interface ScaleDecision {
  readonly promote: readonly { readonly name: string; readonly reason: ScaleReason }[];
  readonly creates: readonly PlannedCreate[];
  readonly removals: readonly PlannedRemoval[];
  /** The window to persist; undefined closes it. */
  readonly window?: ScaleDownWindow;
  /** Idle instances beyond the need (before removals). */
  readonly surplus: number;
  /** The ceiling keeps the rules from being met. */
  readonly limited: boolean;
  /** Instances the rules want in all (for messages). */
  readonly wanted: number;
  /** Instances with a Pod wanted but not created or promoted this pass (ceiling, burst or a gate). */
  readonly deferred: number;
}
