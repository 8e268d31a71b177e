/**
 * Scale, the pipeline's fourth step (plan.ts): which standbys to promote, how many instances to create
 * and of which kind, which idle instances go, and the scale-down window — each step in its rule's file
 * (their shared types: types.ts):
 *
 * 1. cover the shortfall of §3.1–3.3 (floor-buffer-demand.ts), within §3.4–3.5 (ceiling-burst.ts);
 * 2. the surplus (scale-down.ts), then the §3.14 surge for outdated instances still needed (rollout.ts);
 * 3. the §3.7 window and its removals (scale-down.ts), outdated surplus at once and, where no surge
 *    fits, outdated instances first up to maxUnavailable (rollout.ts, under the update strategy);
 * 4. §3.6: never leave nothing enabled (standby.ts).
 */
import { CreateBudget } from './ceiling-burst';
import { coverDeficit } from './floor-buffer-demand';
import { outdatedFirst, surge } from './rollout';
import { findSurplus, scaleDown } from './scale-down';
import { standbyForEmptyPool } from './standby';
import type { ScaleDecision, ScaleInput } from './types';

export function decideScale(input: ScaleInput): ScaleDecision {
  const budget = new CreateBudget(input.members, input.ceilingRoom, input.burstRoom);
  const cover = coverDeficit(input, budget);
  const wanted = input.members.length + cover.toCreate + cover.standbyWanted;

  const surplus = findSurplus(budget.members, input.req, input.maxReplicas, input.leavingHeld);
  const replacements = surge(input, budget, surplus);
  const victims =
    replacements.created > 0
      ? findSurplus(budget.members, input.req, input.maxReplicas, input.leavingHeld)
      : surplus;
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
