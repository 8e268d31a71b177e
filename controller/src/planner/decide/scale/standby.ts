/**
 * §3.6 standby: upstream's lease controller ends a lease at once when no enabled Exporter matches it,
 * so a pool keeps something enabled at all times — a standby Exporter (the CR only, no Pod) when
 * nothing else is — and a lease waits Pending while the controller provisions. With
 * WaitForFirstConsumer every instance starts as a standby and is promoted (gets its Pod) when a lease
 * waits for it.
 *
 * One rule, "never leave nothing enabled", applied at each step of a pass that could break it:
 *
 * - scale-down (`holdBackStandby`): the surplus never takes the last enabled standby, so an idle pool
 *   shrinks back to its standby;
 * - scale (`standbyForEmptyPool`): when nothing enabled would remain, a standby is created — also at a
 *   full ceiling when the instances filling it are all leaving, those a lease still holds disabled
 *   included (the standby takes the place they vacate: SPEC §2 lets a Pod-less standby stand beyond
 *   the ceiling then), or in place of an outdated standby a rollout removes (both are Pod-less, so the
 *   Pods under the ceiling are untouched);
 * - removals (`enabledToKeep`): when no standby can be made (a gate, the ceiling or the burst cap stops
 *   it), one of the last enabled instances stays until the pass that can create the standby;
 * - promotions (`promotableStandbys`, `finishPromotions`): current standbys, oldest first, are promoted
 *   before anything is created, and one whose Pod exists but still carries the standby label has its
 *   promotion finished.
 */
import { Labels } from 'virtual-exporters/internal';
import type { PromoteStandbyAction } from '../../model/actions';
import { promotePatch } from '../../model/exporter';
import type { InstanceView } from '../../observe/instance-view';
import type { World } from '../../observe/world';
import type { Leaving, Member } from '../members';
import type { CreateBudget } from './ceiling-burst';
import type { Tally } from './tally';
import type { PlannedRemoval, ScaleInput } from './types';

/** Which standby goes first to a promotion, or stays in an empty pool: current revision, then the oldest. */
function compareStandbys(a: Member, b: Member): number {
  if (a.current !== b.current) return a.current ? -1 : 1;
  if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt;
  return (a.ordinal ?? -1) - (b.ordinal ?? -1);
}

/** Standbys a shortfall may promote: current, enabled, real ones, oldest first. */
export function promotableStandbys(members: readonly Member[]): Member[] {
  return members
    .filter((m) => m.kind === 'standby' && m.removable && m.enabled && m.current)
    .sort(compareStandbys);
}

/** Takes one enabled standby back out of `victims` when the surplus would leave nothing enabled. */
export function holdBackStandby(victims: Member[], after: Tally): void {
  if (after.enabled !== 0) return;
  const kept = victims.filter((m) => m.kind === 'standby' && m.enabled).sort(compareStandbys)[0];
  if (kept !== undefined) victims.splice(victims.indexOf(kept), 1);
}

/** Creates a standby when this pass's removals would leave nothing enabled and one may be made. */
export function standbyForEmptyPool(
  input: ScaleInput,
  budget: CreateBudget,
  removals: readonly PlannedRemoval[],
): void {
  const removed = new Set(removals.map((r) => r.name));
  const enabledLeft = budget.members.filter((m) => m.enabled && !removed.has(m.name)).length;
  if (enabledLeft > 0 || !input.canCreate) return;
  // The standby carries no Pod: when only instances on their way out fill the ceiling (those a lease
  // still holds included), it may take the place they vacate, so a waiting lease never finds the pool
  // empty and no running instance has to stay enabled for it.
  const room = Math.min(budget.burst, budget.ceiling + input.leaving + input.leavingHeld + removals.length);
  // An outdated standby that leaves (a rollout) is replaced by a current one even where a full ceiling
  // leaves no room: a standby of an older template may no longer match what leases select.
  const outdatedStandbyLeaves = input.members.some(
    (m) => m.kind === 'standby' && m.enabled && !m.current && removed.has(m.name),
  );
  if (room > 0 || (outdatedStandbyLeaves && budget.burst > 0)) budget.add(true, 'standby');
}

/**
 * The instance kept back from leaving when this pass would leave nothing enabled and creates no
 * standby: an idle scale-down victim before a failed or exited instance (the newest); undefined when
 * something enabled remains or a create takes its place.
 */
export function enabledToKeep(
  members: readonly Member[],
  creates: number,
  removals: readonly PlannedRemoval[],
  leaving: readonly Leaving[],
  byName: ReadonlyMap<string, InstanceView>,
): string | undefined {
  if (creates > 0) return undefined;
  const removed = new Set(removals.map((r) => r.name));
  if (members.some((m) => m.enabled && !removed.has(m.name))) return undefined;
  const victim = removals.find((r) => byName.get(r.name)?.enabled === true);
  if (victim !== undefined) return victim.name;
  const gone = leaving
    .map((l) => l.view)
    .filter((v) => v.enabled && !v.leased)
    .sort((a, b) => b.createdAt - a.createdAt || (a.name < b.name ? -1 : 1));
  return gone[0]?.name;
}

/** An instance with a Pod, or about to get one. */
export function hasPodRole(view: InstanceView): boolean {
  return (
    view.state === 'available' ||
    view.state === 'starting' ||
    view.state === 'offline' ||
    view.state === 'leased'
  );
}

/** Promotions to finish: instances rendered while their label still says standby. */
export function finishPromotions(
  world: World,
  removed: ReadonlySet<string>,
  promoted: ReadonlySet<string>,
): PromoteStandbyAction[] {
  return world.owned
    .filter(
      (view) =>
        !removed.has(view.name) &&
        hasPodRole(view) &&
        view.source.exporter.metadata?.labels?.[Labels.standby] === 'true' &&
        !view.standby &&
        !world.inFlight.promoting.has(view.name) &&
        !promoted.has(view.name),
    )
    .map((view) => ({ type: 'PromoteStandby', name: view.name, reason: 'demand', patch: promotePatch() }));
}
