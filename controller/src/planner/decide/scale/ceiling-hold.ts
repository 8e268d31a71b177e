/**
 * §3.4 while a set stands still (a missing class, or a pin to no recorded revision: standing-still.ts,
 * pin-not-found.ts): nothing is created, replaced, promoted or rendered, but the ceiling still holds.
 * Above `maxReplicas`, the instances already on their way out go on leaving, and idle instances beyond
 * the ceiling leave in victim order (victim-order.ts) — never a leased one (members.ts keeps it fixed)
 * and never the last enabled one (§3.6, standby.ts `enabledToKeep`). No replacement is waited for:
 * none can be made, and none is needed to come down to the ceiling.
 */
import type { Action } from '../../model/actions';
import type { World } from '../../observe/world';
import { leavingActions } from '../leaving';
import { sortMembers, type Member } from '../members';
import { overCeiling } from './ceiling-burst';
import { enabledToKeep } from './standby';

/** The leaving steps that bring a set standing still down to its ceiling; none when it fits. */
export function holdCeiling(world: World): Action[] {
  const max = world.spec.maxReplicas;
  const { members, leaving } = sortMembers(world);
  if (max <= 0 || members.length + leaving.length <= max) return [];
  const victims: Member[] = [];
  overCeiling(members, victims, max);
  const byName = new Map(world.owned.map((v) => [v.name, v]));
  const wanted = victims.map((m) => ({ name: m.name, reason: 'scale-down' as const }));
  const kept = enabledToKeep(members, 0, wanted, leaving, byName);
  const removals = wanted.filter((r) => r.name !== kept);
  return leavingActions(world, leaving, removals, byName, kept);
}
