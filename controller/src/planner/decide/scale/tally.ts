/**
 * What the kept instances supply towards §3.1–3.3 (the counting floor-buffer-demand.ts covers a
 * shortfall of, scale-down.ts and rollout.ts remove within): supply, ready supply, standbys, the floor
 * and the enabled ones, and whether one member may go without breaking a rule it counts for.
 */
import type { Member } from '../members';
import type { Requirements } from './types';

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
