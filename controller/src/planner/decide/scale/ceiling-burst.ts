/**
 * §3.4 ceiling and §3.5 burst: never more than maxReplicas instances (unless 0), counting every one
 * not being deleted and every create in flight; creates in flight plus this pass's never exceed
 * maxBurst (the executor sends them in slow-start batches). A standby is promoted only when the
 * instances with a Pod leave it room (a standby may sit beyond the ceiling: it took the place of
 * leaving instances, or maxReplicas was lowered after it was made). Above the ceiling, idle instances
 * are surplus until the pool fits (the ceiling caps the buffer); a set standing still comes down to
 * it too (ceiling-hold.ts). `ScalingLimited` and `Scaling=False/MaxReplicasReached` say when the rules
 * want more than the ceiling allows.
 */
import type { ScaleReason } from 'virtual-exporters/internal';
import { hasEnded, isAbsent } from '../../observe/runtime';
import type { World } from '../../observe/world';
import { plannedMember, type Leaving, type Member } from '../members';
import type { PlannedCreate } from './types';
import { compareVictims } from './victim-order';

/** The room under the ceiling and the burst cap as a pass plans, and the members its creates add. */
export class CreateBudget {
  readonly creates: PlannedCreate[] = [];
  private kept: Member[];

  constructor(
    members: readonly Member[],
    private ceilingRoom: number,
    private burstRoom: number,
  ) {
    this.kept = [...members];
  }

  /** The kept instances with this pass's promotions and creates. */
  get members(): readonly Member[] {
    return this.kept;
  }

  /** Creates both caps still allow. */
  room(): number {
    return Math.max(0, Math.min(this.ceilingRoom, this.burstRoom));
  }

  /** Room under the ceiling after this pass's creates (negative when the pool is above it). */
  get ceiling(): number {
    return this.ceilingRoom;
  }

  get burst(): number {
    return this.burstRoom;
  }

  add(standby: boolean, reason: ScaleReason): void {
    this.creates.push({ standby, reason });
    this.kept.push(plannedMember(`\u0000planned-${this.creates.length}`, standby));
    this.ceilingRoom -= 1;
    this.burstRoom -= 1;
  }

  /** Promoted standbys count as starting from here on. */
  promote(names: ReadonlySet<string>): void {
    this.kept = this.kept.map((m) => (names.has(m.name) ? { ...m, kind: 'starting' as const } : m));
  }
}

/** Creates the ceiling leaves room for: every instance not being deleted and every create in flight count. */
export function ceilingRoom(world: World): number {
  const { maxReplicas } = world.spec;
  return maxReplicas === 0
    ? Number.POSITIVE_INFINITY
    : maxReplicas - (world.owned.length + world.virtualCreates.length);
}

/**
 * Promotions the ceiling leaves room for: a promoted standby gets a Pod, so it needs a place among the
 * instances with a Pod now or soon — every one but standbys and leaving ones without a live Pod (ended,
 * or already gone), plus creates in flight that are not standbys. Leaving instances whose Pod still
 * runs count until they are deleted, as they do for creates.
 */
export function promotionRoom(world: World, leaving: readonly Leaving[]): number {
  if (world.spec.maxReplicas === 0) return Number.POSITIVE_INFINITY;
  const gone = new Set(
    leaving
      .filter(({ view }) => isAbsent(view.runtime) || hasEnded(view.runtime))
      .map(({ view }) => view.name),
  );
  const withPods = world.owned.filter((v) => !v.standby && !gone.has(v.name)).length;
  return world.spec.maxReplicas - (withPods + world.virtualCreates.filter((c) => !c.standby).length);
}

/**
 * Instances disabled on their way out that a lease still holds (a scale-down victim leased at the
 * instant it was disabled): §3.7 keeps them until the lease ends. They run, so they fill their place
 * for creates and promotions; but like any instance leaving, a Pod-less standby may stand in for them
 * beyond the ceiling (SPEC §2, the QEMU choices), so §3.6 keeps no running instance for them while a
 * standby can be made.
 */
export function heldLeaving(world: World): number {
  return world.owned.filter((v) => v.leased && v.retiringReason !== undefined).length;
}

/** Creates the burst cap leaves room for. */
export function burstRoom(world: World): number {
  return world.options.maxBurst - world.inFlightCreates;
}

/**
 * Above the ceiling (maxReplicas lowered below the pool): removable members beyond the `victims`
 * already chosen, in victim order, until the pool fits. Sorts `victims` into victim order.
 *
 * `heldLeaving` members (leased, on their way out: `heldLeaving`) vacate their places when their leases
 * end, and a Pod-less standby may stand in one beyond the ceiling (§3.6, SPEC §2): the last enabled
 * standby is not taken while the pool without it fits within the ceiling plus those places — §3.6
 * would create it again at once (standby.ts `standbyForEmptyPool`), a delete and a create every pass.
 */
export function overCeiling(
  members: readonly Member[],
  victims: Member[],
  maxReplicas: number,
  heldLeaving = 0,
): void {
  if (maxReplicas <= 0) return;
  const chosen = new Set(victims);
  const over = members.length - victims.length - maxReplicas;
  const more = members
    .filter((m) => m.removable && !chosen.has(m))
    .sort(compareVictims)
    .slice(0, Math.max(0, over));
  const taken = new Set([...victims, ...more]);
  if (heldLeaving > 0 && !members.some((m) => m.enabled && !taken.has(m))) {
    const standby = more.filter((m) => m.kind === 'standby' && m.enabled).pop();
    const keptWithIt = members.length - taken.size + 1;
    if (standby !== undefined && keptWithIt <= maxReplicas + heldLeaving)
      more.splice(more.indexOf(standby), 1);
  }
  victims.push(...more);
  victims.sort(compareVictims);
}
