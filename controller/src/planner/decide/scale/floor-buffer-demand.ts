/**
 * §3.1 floor, §3.2 warm buffer, §3.3 demand: what the kept instances supply, whether that meets the
 * need, and the step that covers a shortfall (current standbys promoted first, then instances created).
 *
 * Supply: instances with a Pod (or about to get one) that are available or starting, instances still
 * booting included (§3.2). With WaitForFirstConsumer the warm buffer is made of standbys (§3.6), so
 * standbys count towards the buffer there, while a waiting lease needs an instance with a Pod. The
 * buffer is counted after the pending leases take their instances, so the need does not jump when
 * Jumpstarter assigns a lease: need = minAvailableReplicas + pending leases.
 */
import type { ScaleReason } from 'virtual-exporters/internal';
import type { CreateBudget } from './ceiling-burst';
import type { Member } from './members';
import type { ScaleInput } from './scale';
import { promotableStandbys } from './standby';

/** What §3.1–3.3 ask of the pool. */
export interface Requirements {
  readonly minReplicas: number;
  readonly minAvailable: number;
  /** Leases waiting for capacity (see `pendingDemand`). */
  readonly pending: number;
  readonly waitForFirstConsumer: boolean;
}

export interface Tally {
  /** Supply: available + starting (instances with a Pod, or about to get one). */
  readonly supply: number;
  /** Ready supply: available. */
  readonly available: number;
  readonly standby: number;
  /** What the floor counts: every kept instance, standbys only with WaitForFirstConsumer. */
  readonly floor: number;
  /** Kept instances that are enabled: a lease that matches one of them waits instead of ending. */
  readonly enabled: number;
}

const EMPTY_TALLY: Tally = { supply: 0, available: 0, standby: 0, floor: 0, enabled: 0 };

function contribution(member: Member, waitForFirstConsumer: boolean): Tally {
  const supply = member.kind === 'available' || member.kind === 'starting' ? 1 : 0;
  const standby = member.kind === 'standby' ? 1 : 0;
  return {
    supply,
    available: member.kind === 'available' ? 1 : 0,
    standby,
    floor: standby === 1 && !waitForFirstConsumer ? 0 : 1,
    enabled: member.enabled ? 1 : 0,
  };
}

export function addMember(
  tally: Tally,
  member: Member,
  waitForFirstConsumer: boolean,
  sign: 1 | -1 = 1,
): Tally {
  const c = contribution(member, waitForFirstConsumer);
  return {
    supply: tally.supply + sign * c.supply,
    available: tally.available + sign * c.available,
    standby: tally.standby + sign * c.standby,
    floor: tally.floor + sign * c.floor,
    enabled: tally.enabled + sign * c.enabled,
  };
}

export function tallyOf(members: readonly Member[], waitForFirstConsumer: boolean): Tally {
  return members.reduce((t, m) => addMember(t, m, waitForFirstConsumer), EMPTY_TALLY);
}

/** Supply the rules ask for, counted as `Tally.supply` (+ standbys with WaitForFirstConsumer). */
export function supplyNeed(req: Requirements): number {
  return req.minAvailable + req.pending;
}

/**
 * Whether removing `member` keeps every rule it counts for satisfied. Rules it does not count for are
 * not its concern: an offline instance is surplus even while supply is short, as removing it does not
 * shorten supply (and frees its place under the ceiling).
 */
export function canRemove(t: Tally, member: Member, req: Requirements): boolean {
  const c = contribution(member, req.waitForFirstConsumer);
  if (c.floor > 0 && t.floor - 1 < req.minReplicas) return false;
  if (req.waitForFirstConsumer) {
    if (c.supply > 0 && t.supply - 1 < req.pending) return false;
    if (c.supply + c.standby > 0 && t.supply + t.standby - 1 < supplyNeed(req)) return false;
    return true;
  }
  return c.supply === 0 || t.supply - 1 >= supplyNeed(req);
}

/**
 * Whether removing `member` keeps the *ready* supply at the need: what a rollout checks before an
 * outdated instance leaves, so replacements are ready before the instances they replace go.
 */
export function canRemoveReady(t: Tally, member: Member, req: Requirements): boolean {
  const c = contribution(member, req.waitForFirstConsumer);
  if (req.waitForFirstConsumer) {
    if (c.available > 0 && t.available - 1 < req.pending) return false;
    if (c.available + c.standby > 0 && t.available + t.standby - 1 < supplyNeed(req)) return false;
    return true;
  }
  return c.available === 0 || t.available - 1 >= supplyNeed(req);
}

/**
 * Instances with a Pod missing (to promote from standbys or create): the buffer and demand, and with
 * Immediate binding the floor too (with WaitForFirstConsumer the floor is made of standbys).
 */
function supplyDeficit(t: Tally, req: Requirements): number {
  if (req.waitForFirstConsumer) return Math.max(0, req.pending - t.supply);
  return Math.max(0, supplyNeed(req) - t.supply, req.minReplicas - t.floor);
}

/** Standbys missing with WaitForFirstConsumer, once the supply deficit is covered. */
function standbyDeficit(t: Tally, req: Requirements): number {
  if (!req.waitForFirstConsumer) return 0;
  return Math.max(0, supplyNeed(req) - t.supply - t.standby, req.minReplicas - t.floor);
}

/** Splits `count` creates over reasons in order, each taking up to its share. */
function attribute(count: number, shares: readonly (readonly [ScaleReason, number])[]): ScaleReason[] {
  const reasons: ScaleReason[] = [];
  for (const [reason, share] of shares) {
    for (let i = 0; i < share && reasons.length < count; i++) reasons.push(reason);
  }
  while (reasons.length < count) reasons.push(shares[shares.length - 1]?.[0] ?? 'floor');
  return reasons;
}

/** Why each missing instance is wanted: the warm buffer first, then demand, then the floor. */
function deficitReasons(before: Tally, req: Requirements, wanted: number): ScaleReason[] {
  if (req.waitForFirstConsumer) return attribute(wanted, [['demand', wanted]]);
  return attribute(wanted, [
    ['warm-buffer', Math.max(0, req.minAvailable - before.supply)],
    ['demand', Math.max(0, supplyNeed(req) - Math.max(before.supply, req.minAvailable))],
    ['floor', wanted],
  ]);
}

export interface DeficitCover {
  readonly promote: readonly { readonly name: string; readonly reason: ScaleReason }[];
  /** Instances with a Pod wanted beyond the promotions (created now or deferred). */
  readonly toCreate: number;
  /** Of `toCreate`, the ones created this pass. */
  readonly createdNow: number;
  /** Standbys wanted (WaitForFirstConsumer), created now or not. */
  readonly standbyWanted: number;
}

/**
 * Covers the shortfall: current standbys promoted first (their Exporter and credential exist), then
 * instances created as far as the ceiling, the burst cap and the gates let; with WaitForFirstConsumer
 * then standbys for the buffer and the floor.
 */
export function coverDeficit(input: ScaleInput, budget: CreateBudget): DeficitCover {
  const { req } = input;
  const wffc = req.waitForFirstConsumer;
  const before = tallyOf(budget.members, wffc);
  const wanted = supplyDeficit(before, req);
  const reasons = deficitReasons(before, req, wanted);
  const promote = input.canStartPods
    ? promotableStandbys(budget.members).slice(0, Math.max(0, Math.min(wanted, input.promotionRoom)))
    : [];
  budget.promote(new Set(promote.map((m) => m.name)));

  const toCreate = wanted - promote.length;
  const createdNow = input.canStartPods ? Math.min(toCreate, budget.room()) : 0;
  for (let i = 0; i < createdNow; i++) budget.add(false, reasons[promote.length + i]);

  const tally = tallyOf(budget.members, wffc);
  const standbyWanted = standbyDeficit(tally, req);
  const standbyNow = input.canCreate ? Math.min(standbyWanted, budget.room()) : 0;
  for (let i = 0; i < standbyNow; i++) {
    budget.add(true, tally.supply + tally.standby + i < supplyNeed(req) ? 'warm-buffer' : 'floor');
  }
  return {
    promote: promote.map((m, i) => ({ name: m.name, reason: reasons[i] })),
    toCreate,
    createdNow,
    standbyWanted,
  };
}
