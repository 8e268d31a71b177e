/**
 * The counting behind rules 1–3, 6 and 7: what the kept instances supply, whether that meets the need,
 * how many instances are missing, and which idle instances are surplus (SPEC §3).
 *
 * Supply: *realised* instances (with a Pod, or about to get one) that are available or starting count
 * as supply, instances still booting included (rule 2). With `WaitForFirstConsumer` the warm buffer is
 * made of standbys (rule 6), so standbys count towards the buffer there, while a waiting lease needs a
 * realised instance. The buffer is counted after the pending leases take their instances, so the need
 * does not jump when Jumpstarter assigns a lease: need = minAvailableReplicas + pending leases.
 */

/** What rules 1–3 ask of the pool. */
export interface Requirements {
  readonly minReplicas: number;
  readonly minAvailable: number;
  /** Leases waiting for capacity (see `pendingDemand`). */
  readonly pending: number;
  readonly waitForFirstConsumer: boolean;
}

/** The role of a kept instance in the counting. */
export type MemberKind =
  /** Leased or disabled by hand: counts towards the floor only, never removed by scale-down. */
  | 'fixed'
  /** Ready, enabled, not leased: supply. */
  | 'available'
  /** Created, not ready yet, or its Pod being replaced: future supply. */
  | 'starting'
  /** Was ready, is not: counts towards the floor, not as supply. */
  | 'offline'
  /** CR only: supply only with WaitForFirstConsumer. */
  | 'standby';

/** One kept instance, real or planned, as the counting sees it. */
export interface Member {
  readonly name: string;
  readonly kind: MemberKind;
  readonly enabled: boolean;
  /** Built from the current template revision. */
  readonly current: boolean;
  /** Epoch ms; planned and in-flight creates use +Infinity (newest). */
  readonly createdAt: number;
  readonly ordinal?: number;
  /** Scale-down may pick it: an idle real instance (not fixed, not planned or in flight). */
  readonly removable: boolean;
}

export interface Tally {
  /** Realised supply: available + starting. */
  readonly realised: number;
  /** Ready supply: available. */
  readonly available: number;
  readonly standby: number;
  /** What the floor counts: every kept instance, standbys only with WaitForFirstConsumer. */
  readonly floor: number;
  /** Kept instances that are enabled: a lease that matches one of them waits instead of ending. */
  readonly enabled: number;
}

export const EMPTY_TALLY: Tally = { realised: 0, available: 0, standby: 0, floor: 0, enabled: 0 };

function contribution(member: Member, waitForFirstConsumer: boolean): Tally {
  const supply = member.kind === 'available' || member.kind === 'starting' ? 1 : 0;
  const standby = member.kind === 'standby' ? 1 : 0;
  return {
    realised: supply,
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
    realised: tally.realised + sign * c.realised,
    available: tally.available + sign * c.available,
    standby: tally.standby + sign * c.standby,
    floor: tally.floor + sign * c.floor,
    enabled: tally.enabled + sign * c.enabled,
  };
}

export function tallyOf(members: readonly Member[], waitForFirstConsumer: boolean): Tally {
  return members.reduce((t, m) => addMember(t, m, waitForFirstConsumer), EMPTY_TALLY);
}

/** Supply the rules ask for, counted as `Tally.realised` (+ standbys with WaitForFirstConsumer). */
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
    if (c.realised > 0 && t.realised - 1 < req.pending) return false;
    if (c.realised + c.standby > 0 && t.realised + t.standby - 1 < supplyNeed(req)) return false;
    return true;
  }
  return c.realised === 0 || t.realised - 1 >= supplyNeed(req);
}

/**
 * Whether removing `member` keeps the *ready* supply at the need: what a rollout checks before it
 * retires an outdated instance, so replacements are ready before the instances they replace go.
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
 * Realised instances missing (to promote from standbys or create): the buffer and demand, and with
 * Immediate binding the floor too (with WaitForFirstConsumer the floor is made of standbys).
 */
export function realisedDeficit(t: Tally, req: Requirements): number {
  if (req.waitForFirstConsumer) return Math.max(0, req.pending - t.realised);
  return Math.max(0, supplyNeed(req) - t.realised, req.minReplicas - t.floor);
}

/** Standbys missing with WaitForFirstConsumer, once the realised deficit is covered. */
export function standbyDeficit(t: Tally, req: Requirements): number {
  if (!req.waitForFirstConsumer) return 0;
  return Math.max(0, supplyNeed(req) - t.realised - t.standby, req.minReplicas - t.floor);
}

const TIER: Readonly<Record<MemberKind, number>> = {
  standby: 0,
  starting: 1,
  offline: 2,
  available: 3,
  fixed: 4,
};

/**
 * Scale-down victim order (SPEC §3.7): standbys and never-ready instances first, then offline, then
 * idle, newest first within each. One addition: instances of an outdated template revision go before
 * current ones (rule 14 replaces them anyway), so a rollout's new instances are never the ones removed.
 */
export function compareVictims(a: Member, b: Member): number {
  if (a.current !== b.current) return a.current ? 1 : -1;
  if (TIER[a.kind] !== TIER[b.kind]) return TIER[a.kind] - TIER[b.kind];
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return (b.ordinal ?? -1) - (a.ordinal ?? -1);
}

/** Which standby an empty pool keeps: current revision first, then the oldest. */
export function compareStandbyKeepers(a: Member, b: Member): number {
  if (a.current !== b.current) return a.current ? -1 : 1;
  if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt;
  return (a.ordinal ?? -1) - (b.ordinal ?? -1);
}

export interface Surplus {
  /** Removable members the rules do not need, in victim order. */
  readonly victims: readonly Member[];
}

/**
 * The surplus: walking the removable members in victim order, each one whose removal keeps the
 * rules it counts for satisfied (see `canRemove`) is surplus. If that would leave nothing enabled, one
 * standby is kept back (rule 6: a lease must find an Exporter to wait on), so an idle pool shrinks back
 * to its standby. Above the ceiling (`maxReplicas` lowered below the pool), further removable members
 * are surplus too, in the same order, until the pool fits: the ceiling caps the buffer (rule 4).
 */
export function findSurplus(members: readonly Member[], req: Requirements, maxReplicas = 0): Surplus {
  const wffc = req.waitForFirstConsumer;
  let tally = tallyOf(members, wffc);
  const victims: Member[] = [];
  for (const member of members.filter((m) => m.removable).sort(compareVictims)) {
    if (canRemove(tally, member, req)) {
      victims.push(member);
      tally = addMember(tally, member, wffc, -1);
    }
  }
  if (tally.enabled === 0) {
    const keeper = victims.filter((m) => m.kind === 'standby' && m.enabled).sort(compareStandbyKeepers)[0];
    if (keeper !== undefined) victims.splice(victims.indexOf(keeper), 1);
  }
  if (maxReplicas > 0) {
    const chosen = new Set(victims);
    const over = members.length - victims.length - maxReplicas;
    const more = members.filter((m) => m.removable && !chosen.has(m)).sort(compareVictims);
    victims.push(...more.slice(0, Math.max(0, over)));
    victims.sort(compareVictims);
  }
  return { victims };
}
