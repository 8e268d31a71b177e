/**
 * §3.7 scale-down: surplus = idle instances beyond what §3.1–3.3 need. Surplus opens a window kept in
 * status (`scaleDownWindowStart`, `scaleDownTarget`: read and written here only, so a restart does not
 * reset it); while it lasts the target is the largest need seen; once it lasted scaleDownCooldown the
 * victims go down to the target in one step. Victims (victim-order.ts): standbys and never-ready
 * instances first, then offline, then idle, in the scale-in policy's order (spec/scale-in-order.ts; by
 * default newest first); outdated before current (§3.14 replaces them anyway). A leased
 * instance is never a victim (members.ts keeps it fixed); how a victim leaves — disabled first, deleted
 * once no lease names it — is leaving.ts, and the live Lease list confirms each delete
 * (`confirmDeletes`).
 */
import { ConditionReasons, type ExporterSetStatus } from 'virtual-exporters/internal';
import type { Action } from '../../model/actions';
import type { LeaseCheck } from '../../model/snapshot';
import { toMillis, toTimestamp } from '../../model/time';
import { leasedExporterNames, requestedExporterNames } from '../../observe/leases';
import type { Member } from '../members';
import { overCeiling } from './ceiling-burst';
import { Removals } from './removals';
import { removeOutdatedSurplus } from './rollout';
import { holdBackStandby } from './standby';
import { addMember, canRemove, tallyOf } from './tally';
import type { Requirements, ScaleDownWindow, ScaleInput } from './types';
import { compareVictims } from './victim-order';

/** The window as the status has it; either part may be missing. */
export function persistedWindow(status: ExporterSetStatus | undefined): Partial<ScaleDownWindow> {
  const start = toMillis(status?.scaleDownWindowStart);
  return {
    ...(start !== undefined ? { start } : {}),
    ...(status?.scaleDownTarget !== undefined ? { target: status.scaleDownTarget } : {}),
  };
}

/** The status fields of a window; none when it is closed. */
export function windowStatus(
  window: ScaleDownWindow | undefined,
): Pick<ExporterSetStatus, 'scaleDownWindowStart' | 'scaleDownTarget'> {
  return window ? { scaleDownWindowStart: toTimestamp(window.start), scaleDownTarget: window.target } : {};
}

/**
 * The surplus, in victim order: walking the removable members in victim order, each one whose removal
 * keeps the rules it counts for satisfied (see `canRemove`) is surplus — but never the last enabled
 * standby (§3.6) — and, above the ceiling, more until the pool fits (§3.4; `heldLeaving`: see
 * `overCeiling`).
 */
export function findSurplus(
  members: readonly Member[],
  req: Requirements,
  maxReplicas: number,
  heldLeaving = 0,
): Member[] {
  const wffc = req.waitForFirstConsumer;
  let tally = tallyOf(members, wffc);
  const victims: Member[] = [];
  for (const member of members.filter((m) => m.removable).sort(compareVictims)) {
    if (canRemove(tally, member, req)) {
      victims.push(member);
      tally = addMember(tally, member, wffc, -1);
    }
  }
  holdBackStandby(victims, tally);
  overCeiling(members, victims, maxReplicas, heldLeaving);
  return victims;
}

export interface ScaleDownStep {
  readonly removals: Removals;
  /** The window to persist; undefined closes it. */
  readonly window?: ScaleDownWindow;
  /** The number of instances the rules need now (kept instances minus surplus). */
  readonly need: number;
}

/**
 * The window and the removals: surplus opens the window (start = now, target = the need); once it
 * lasted the cooldown, victims go down to the target. Outdated surplus may go at once (rollout.ts).
 */
export function scaleDown(
  input: ScaleInput,
  members: readonly Member[],
  victims: readonly Member[],
): ScaleDownStep {
  const need = members.length - victims.length;
  const removals = new Removals(members, input.req.waitForFirstConsumer);
  if (victims.length === 0) return { removals, need };
  const opened = input.window.start === undefined;
  const start = opened ? input.now : (input.window.start as number);
  // The largest need seen, but never above the ceiling (§3.4): a window opened before maxReplicas was
  // lowered does not hold the pool above it for another cooldown.
  const ceiling = input.maxReplicas > 0 ? Math.max(input.maxReplicas, need) : Number.POSITIVE_INFINITY;
  const target = opened ? need : Math.min(Math.max(input.window.target ?? need, need), ceiling);
  const due = input.now >= start + input.cooldownMs;
  if (due) {
    for (const m of victims.slice(0, Math.max(0, removals.kept - target))) removals.remove(m, 'scale-down');
  }
  if ((input.update?.type ?? 'Proactive') === 'Proactive') {
    removeOutdatedSurplus(victims, removals, target, input.req);
  }
  if (victims.length === removals.list.length) return { removals, need };
  return { removals, window: due ? { start: input.now, target: need } : { start, target }, need };
}

/** A delete the live Lease list could not confirm: ReplicaFailure FailedDelete with the API's message. */
export interface DeleteFailure {
  readonly reason: typeof ConditionReasons.FailedDelete;
  readonly message: string;
}

/**
 * The actions with the Exporter deletes the live Lease list does not confirm taken out: deletes of
 * instances a non-ended Lease holds or asks for by name while it waits (it may be assigned between the
 * list and the delete), or every delete when the list failed (a lost instance is worse than a late one;
 * the failure is reported). Without a check, the actions as they are.
 */
export function confirmDeletes(
  actions: readonly Action[],
  check: LeaseCheck | undefined,
): { readonly actions: readonly Action[]; readonly failure?: DeleteFailure } {
  if (check === undefined || !actions.some((a) => a.type === 'DeleteExporter')) return { actions };
  if ('error' in check) {
    return {
      actions: actions.filter((a) => a.type !== 'DeleteExporter'),
      failure: { reason: ConditionReasons.FailedDelete, message: check.error },
    };
  }
  const named = new Set([...leasedExporterNames(check.leases), ...requestedExporterNames(check.leases)]);
  return { actions: actions.filter((a) => a.type !== 'DeleteExporter' || !named.has(a.name)) };
}
