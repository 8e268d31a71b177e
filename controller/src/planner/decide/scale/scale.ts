/**
 * Scale, the pipeline's fourth step (plan.ts): which standbys to promote, how many instances to create
 * and of which kind, which idle instances go, and the scale-down window — each step in its rule's file:
 *
 * 1. cover the shortfall of §3.1–3.3 (floor-buffer-demand.ts), within §3.4–3.5 (ceiling-burst.ts);
 * 2. the surplus (scale-down.ts), then the §3.14 surge for outdated instances still needed (rollout.ts);
 * 3. the §3.7 window and its removals (scale-down.ts), outdated surplus at once and, where no surge
 *    fits, outdated instances first up to maxUnavailable (rollout.ts, under the update strategy);
 * 4. §3.6: never leave nothing enabled (standby.ts).
 */
import type { ScaleReason } from 'virtual-exporters/internal';
import { CreateBudget } from './ceiling-burst';
import { coverDeficit, type Requirements } from './floor-buffer-demand';
import type { Member } from './members';
import { outdatedFirst, surge } from './rollout';
import { findSurplus, scaleDown, type ScaleDownWindow } from './scale-down';
import { standbyForEmptyPool } from './standby';
import type { UpdatePolicy } from './update-strategy';

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
  readonly surgePercent: number;
  /** How outdated instances are replaced (update-strategy.ts). @default Proactive, today's pacing */
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

export function decideScale(input: ScaleInput): ScaleDecision {
  const budget = new CreateBudget(input.members, input.ceilingRoom, input.burstRoom);
  const cover = coverDeficit(input, budget);
  const wanted = input.members.length + cover.toCreate + cover.standbyWanted;

  const surplus = findSurplus(budget.members, input.req, input.maxReplicas);
  const replacements = surge(input, budget, surplus);
  const victims =
    replacements.created > 0 ? findSurplus(budget.members, input.req, input.maxReplicas) : surplus;
  const down = scaleDown(input, budget.members, victims);
  const removals = down.removals.list;
  removals.push(...outdatedFirst(input, budget, replacements, removals));
  standbyForEmptyPool(input, budget, removals);

  return {
    promote: cover.promote,
    creates: budget.creates,
    removals,
    ...(down.window ? { window: down.window } : {}),
    surplus: victims.length,
    limited: input.maxReplicas > 0 && wanted > input.maxReplicas,
    wanted,
    deferred: Math.max(0, cover.toCreate - cover.createdNow),
  };
}
