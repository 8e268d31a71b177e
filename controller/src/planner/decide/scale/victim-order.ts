/**
 * §3.7 victim order: which kept instance goes first when the pool shrinks (scale-down.ts), is
 * replaced first in a rollout (rollout.ts) or goes above the ceiling (ceiling-burst.ts) — outdated
 * before current, then standbys and never-ready instances, then offline ones, then idle ones; within a
 * tier, the scale-in policy's order (spec/scale-in-order.ts; by default newest first). A leased
 * instance is never a victim (members.ts keeps it fixed).
 */
import { compareKeys, DEFAULT_SCALE_IN_ORDER, scaleInKey } from '../../spec/scale-in-order';
import type { Member, MemberKind } from '../members';

const TIER: Readonly<Record<MemberKind, number>> = {
  standby: 0,
  starting: 1,
  offline: 2,
  available: 3,
  fixed: 4,
};

/** Victim order (see the module doc). */
export function compareVictims(a: Member, b: Member): number {
  if (a.current !== b.current) return a.current ? 1 : -1;
  if (TIER[a.kind] !== TIER[b.kind]) return TIER[a.kind] - TIER[b.kind];
  return compareKeys(a.scaleInKey ?? newestFirst(a), b.scaleInKey ?? newestFirst(b));
}

/** The default policy's key, for members made without one. */
function newestFirst(m: Member): readonly number[] {
  return scaleInKey(DEFAULT_SCALE_IN_ORDER, m);
}
