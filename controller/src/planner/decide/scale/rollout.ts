/**
 * §3.14 template changes: instances carry the template revision; outdated ones (also those created
 * before a requested recycle) are replaced without breaking the warm buffer — under the Proactive update
 * strategy; Opportunistic and Unmanaged replace none here (update-strategy.ts).
 *
 * - Surge: outdated instances the rules still need get current replacements first, up to `maxSurge`
 *   (default `rolloutSurgePercent` of the pool, at least one), fewer by the current instances already
 *   starting.
 * - Outdated surplus leaves at once when the ready supply holds without it (a rollout replaces, it
 *   does not shrink; keeping outdated instances warm through a cooldown would only delay their
 *   replacement).
 * - Where no surge fits (at the ceiling, or maxSurge 0), outdated instances leave first, up to
 *   `maxUnavailable` (default one) counting those leaving and the current ones starting.
 * - A replacement is a standby for a standby; with WaitForFirstConsumer for one with a Pod too,
 *   unless a waiting lease needs the instance with a Pod.
 * - Leased instances are replaced after their lease (members.ts keeps them fixed). Rollout removals
 *   carry `afterCreates` (leaving.ts): the executor skips them when this pass's creates failed.
 */
import type { InstanceView } from '../../observe/instance-view';
import {
  DEFAULT_UPDATE_POLICY,
  surgeAllowance,
  unavailableAllowance,
  type UpdatePolicy,
} from '../../spec/update-strategy';
import type { Member } from '../members';
import type { CreateBudget } from './ceiling-burst';
import type { Removals } from './removals';
import { canRemoveReady, tallyOf, type Tally } from './tally';
import type { PlannedRemoval, Requirements, ScaleInput } from './types';
import { compareVictims } from './victim-order';

/** Whether the replacement of `outdated` is a standby (see the module doc). */
function replacementIsStandby(outdated: Member, tally: Tally, req: Requirements): boolean {
  if (outdated.kind === 'standby') return true;
  if (!req.waitForFirstConsumer) return false;
  const withPod = outdated.kind === 'available' || outdated.kind === 'starting';
  return !(withPod && tally.supply - 1 < req.pending);
}

/** A gate lets the replacement of `outdated` be made now. */
function replacementAllowed(input: ScaleInput, outdated: Member, members: readonly Member[]): boolean {
  const standby = replacementIsStandby(outdated, tallyOf(members, input.req.waitForFirstConsumer), input.req);
  return standby ? input.canCreate : input.canStartPods;
}

export interface Surge {
  /** Outdated members the rules still need, in victim order. */
  readonly outdatedKept: readonly Member[];
  /** Replacements the surge budget asks for. */
  readonly wanted: number;
  /** Replacements created this pass. */
  readonly created: number;
  /** Current instances already starting. */
  readonly updatedStarting: number;
  /** Replacements the strategy lets start ahead (maxSurge as a count). */
  readonly allowance: number;
}

/** Creates current replacements for outdated instances the rules still need (`victims`: the surplus). */
export function surge(input: ScaleInput, budget: CreateBudget, victims: readonly Member[]): Surge {
  const surplus = new Set(victims.map((m) => m.name));
  const policy = input.update ?? DEFAULT_UPDATE_POLICY;
  const outdatedKept =
    policy.type === 'Proactive'
      ? budget.members.filter((m) => m.removable && !m.current && !surplus.has(m.name)).sort(compareVictims)
      : [];
  const allowance = surgeAllowance(policy, budget.members.length, input.surgePercent);
  const updatedStarting = budget.members.filter((m) => m.current && m.kind === 'starting').length;
  const wanted = Math.max(0, Math.min(allowance, outdatedKept.length) - updatedStarting);
  let created = 0;
  for (const outdated of outdatedKept.slice(0, wanted)) {
    const standby = replacementIsStandby(
      outdated,
      tallyOf(budget.members, input.req.waitForFirstConsumer),
      input.req,
    );
    if (budget.room() === 0 || !(standby ? input.canCreate : input.canStartPods)) continue;
    budget.add(standby, 'rollout');
    created += 1;
  }
  return { outdatedKept, wanted, created, updatedStarting, allowance };
}

/** Outdated surplus the window did not take leaves at once while the ready supply holds without it. */
export function removeOutdatedSurplus(
  victims: readonly Member[],
  removals: Removals,
  target: number,
  req: Requirements,
): void {
  const byWindow = new Set(removals.list.map((r) => r.name));
  for (const m of victims) {
    if (m.current || byWindow.has(m.name) || removals.kept - 1 < target) continue;
    if (canRemoveReady(removals.tally, m, req)) removals.remove(m, 'rollout');
  }
}

/**
 * Where a rollout cannot surge (at the ceiling, or maxSurge 0), outdated instances the rules still
 * need leave first, up to maxUnavailable less what is leaving, removed this pass or starting (by
 * default one at a time: a second would cut further into the warm buffer). None while a replacement
 * could not be made.
 */
export function outdatedFirst(
  input: ScaleInput,
  budget: CreateBudget,
  step: Surge,
  removals: readonly PlannedRemoval[],
): PlannedRemoval[] {
  if (step.outdatedKept.length === 0 || step.created > 0) return [];
  if (budget.ceiling > 0 && step.allowance > 0) return [];
  const policy = input.update ?? DEFAULT_UPDATE_POLICY;
  const room =
    unavailableAllowance(policy, budget.members.length, input.surgePercent) -
    input.leaving -
    removals.length -
    step.updatedStarting;
  const removed = new Set(removals.map((r) => r.name));
  const first: PlannedRemoval[] = [];
  for (const m of step.outdatedKept) {
    if (first.length >= room) break;
    if (removed.has(m.name)) continue;
    if (!replacementAllowed(input, m, budget.members)) break;
    first.push({ name: m.name, reason: 'rollout' });
  }
  return first;
}

/**
 * Outdated instances a rollout still has to replace (none while replacements cannot be made, and none
 * under a strategy that does not replace them proactively).
 */
export function outdatedCount(
  owned: readonly InstanceView[],
  removed: ReadonlySet<string>,
  canCreate: boolean,
  policy: UpdatePolicy = DEFAULT_UPDATE_POLICY,
): number {
  if (!canCreate || policy.type !== 'Proactive') return 0;
  return owned.filter(
    (v) => !v.current && v.state !== 'disabledByHand' && v.state !== 'retiring' && !removed.has(v.name),
  ).length;
}
