/**
 * Scaling decisions for one pass over the kept instances (SPEC §3 rules 1–7 and 14): which standbys to
 * promote, how many instances to create and of which kind, which idle instances go, and the
 * scale-down stabilization window. Counting is in pool.ts; this file decides.
 *
 * Steps, in order:
 * 1. realised deficit (floor, buffer, demand): promote current standbys, then create; with
 *    WaitForFirstConsumer, then create standbys for the buffer and floor;
 * 2. the ceiling (room under maxReplicas, counting every instance not being deleted and every create in
 *    flight) and the burst cap (creates in flight + this pass ≤ maxBurst) cap the creates; promotions
 *    need room among the instances that run or will (a standby may sit beyond the ceiling);
 * 3. surplus (pool.ts `findSurplus`), then the rollout surge: up to `rolloutSurgePercent` of the pool
 *    in replacements for outdated instances the rules still need, fewer by the current-revision
 *    instances already starting;
 * 4. the window: surplus opens it (start = now, target = the need); while it lasts the target is the
 *    largest need seen; once it has lasted the cooldown, the victims go down to the target in one step.
 *    Outdated surplus goes at once when the ready supply stays at the need without it (a rollout
 *    replaces, it does not shrink; keeping outdated instances warm through a cooldown would only
 *    delay their replacement);
 *    At the ceiling, where no surge fits, one outdated instance is retired first, one at a time;
 * 5. an empty pool keeps one standby (rule 6): if nothing enabled would remain, create one — also at
 *    the ceiling when the instances filling it are all leaving, or in place of an outdated standby
 *    (the standby has no Pod).
 */
import { type ScaleReason } from 'virtual-exporters/internal';
import {
  addMember,
  canRemoveReady,
  compareStandbyKeepers,
  compareVictims,
  findSurplus,
  realisedDeficit,
  standbyDeficit,
  supplyNeed,
  tallyOf,
  type Member,
  type Requirements,
  type Tally,
} from './pool';

export interface ScaleInput {
  /** Kept instances: fixed, idle and replacing ones, and creates in flight (not removable). */
  readonly members: readonly Member[];
  readonly req: Requirements;
  /** New Exporters may be created (parameters valid, selector matches the template). */
  readonly canCreate: boolean;
  /** New Pods may start: creating realised instances and promoting standbys (also no startup backoff). */
  readonly canStartPods: boolean;
  /** Creates the ceiling leaves room for (Infinity when maxReplicas is 0). */
  readonly ceilingRoom: number;
  /**
   * Promotions the ceiling leaves room for (Infinity when maxReplicas is 0): a promoted standby gets a
   * Pod, so it needs a place among the instances that run or will — a standby may sit beyond the
   * ceiling (it took the place of leaving instances, or maxReplicas was lowered after it was made).
   */
  readonly promotionRoom: number;
  /** Creates the burst cap leaves room for. */
  readonly burstRoom: number;
  readonly maxReplicas: number;
  /** Instances on their way out (retiring, recycled, failed): they free room under the ceiling soon. */
  readonly leaving: number;
  readonly surgePercent: number;
  /** The persisted window, if one is open. */
  readonly window: { readonly start?: number; readonly target?: number };
  readonly cooldownMs: number;
  readonly now: number;
}

export interface PlannedCreate {
  readonly standby: boolean;
  readonly reason: ScaleReason;
}

export interface PlannedRemoval {
  readonly name: string;
  readonly reason: ScaleReason;
}

export interface ScaleDecision {
  readonly promote: readonly { readonly name: string; readonly reason: ScaleReason }[];
  readonly creates: readonly PlannedCreate[];
  readonly removals: readonly PlannedRemoval[];
  /** The window to persist; undefined closes it. */
  readonly window?: { readonly start: number; readonly target: number };
  /** The number of instances the rules need now (kept instances minus surplus). */
  readonly need: number;
  /** Idle instances beyond the need (before removals). */
  readonly surplus: number;
  /** The ceiling keeps the rules from being met. */
  readonly limited: boolean;
  /** Instances the rules want in all (for messages). */
  readonly wanted: number;
  /** Realised instances wanted but not created or promoted this pass (ceiling, burst or a gate). */
  readonly deferred: number;
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

function planned(index: number, standby: boolean): Member {
  return {
    name: `\u0000planned-${index}`,
    kind: standby ? 'standby' : 'starting',
    enabled: true,
    current: true,
    createdAt: Number.POSITIVE_INFINITY,
    removable: false,
  };
}

/**
 * The kind of a rollout replacement: a standby replaces a standby; with WaitForFirstConsumer a standby
 * also replaces a realised instance, unless a waiting lease needs that realised instance (a standby
 * could not take its place, and the outdated one would never become surplus).
 */
function replacementIsStandby(outdated: Member, tally: Tally, req: Requirements): boolean {
  if (outdated.kind === 'standby') return true;
  if (!req.waitForFirstConsumer) return false;
  const realised = outdated.kind === 'available' || outdated.kind === 'starting';
  return !(realised && tally.realised - 1 < req.pending);
}

export function decideScale(input: ScaleInput): ScaleDecision {
  const { req } = input;
  const wffc = req.waitForFirstConsumer;
  let members = [...input.members];
  let ceilingRoom = input.ceilingRoom;
  let burstRoom = input.burstRoom;
  const creates: PlannedCreate[] = [];
  const add = (standby: boolean, reason: ScaleReason): void => {
    creates.push({ standby, reason });
    members.push(planned(creates.length, standby));
    ceilingRoom -= 1;
    burstRoom -= 1;
  };
  const room = (): number => Math.max(0, Math.min(ceilingRoom, burstRoom));

  // 1. Realised deficit: promote current standbys first (their Exporter and credential already exist).
  const before = tallyOf(members, wffc);
  const realisedWanted = realisedDeficit(before, req);
  const promotable = members
    .filter((m) => m.kind === 'standby' && m.removable && m.enabled && m.current)
    .sort(compareStandbyKeepers);
  const reasons = wffc
    ? attribute(realisedWanted, [['demand', realisedWanted]])
    : attribute(realisedWanted, [
        ['warm-buffer', Math.max(0, req.minAvailable - before.realised)],
        ['demand', Math.max(0, supplyNeed(req) - Math.max(before.realised, req.minAvailable))],
        ['floor', realisedWanted],
      ]);
  const promote = input.canStartPods
    ? promotable.slice(0, Math.max(0, Math.min(realisedWanted, input.promotionRoom)))
    : [];
  const promoted = new Set(promote.map((m) => m.name));
  members = members.map((m) => (promoted.has(m.name) ? { ...m, kind: 'starting' as const } : m));
  let tally: Tally = tallyOf(members, wffc);

  const realisedToCreate = realisedWanted - promote.length;
  const realisedNow = input.canStartPods ? Math.min(realisedToCreate, room()) : 0;
  for (let i = 0; i < realisedNow; i++) add(false, reasons[promote.length + i]);
  tally = tallyOf(members, wffc);

  // With WaitForFirstConsumer the buffer and the floor are standbys.
  const standbyWanted = standbyDeficit(tally, req);
  const standbyNow = input.canCreate ? Math.min(standbyWanted, room()) : 0;
  for (let i = 0; i < standbyNow; i++) {
    add(true, tally.realised + tally.standby + i < supplyNeed(req) ? 'warm-buffer' : 'floor');
  }

  const wanted = input.members.length + realisedToCreate + standbyWanted;
  const limited = input.maxReplicas > 0 && wanted > input.maxReplicas;

  // 3. Surplus, then the rollout surge for outdated instances the rules still need.
  let surplus = findSurplus(members, req, input.maxReplicas);
  const firstVictims = new Set(surplus.victims.map((m) => m.name));
  const outdatedKept = members
    .filter((m) => m.removable && !m.current && !firstVictims.has(m.name))
    .sort(compareVictims);
  const budget = Math.max(1, Math.ceil((input.surgePercent / 100) * members.length));
  const updatedStarting = members.filter((m) => m.current && m.kind === 'starting').length;
  const surgeWanted = Math.max(0, Math.min(budget, outdatedKept.length) - updatedStarting);
  let surged = 0;
  for (const outdated of outdatedKept.slice(0, surgeWanted)) {
    const standby = replacementIsStandby(outdated, tallyOf(members, wffc), req);
    if (room() === 0 || !(standby ? input.canCreate : input.canStartPods)) continue;
    add(standby, 'rollout');
    surged += 1;
  }
  if (surged > 0) surplus = findSurplus(members, req, input.maxReplicas);

  // 4. The stabilization window and the removals.
  const victims = surplus.victims;
  const need = members.length - victims.length;
  const removals: PlannedRemoval[] = [];
  let window: { start: number; target: number } | undefined;
  if (victims.length > 0) {
    const opened = input.window.start === undefined;
    const start = opened ? input.now : (input.window.start as number);
    const target = opened ? need : Math.max(input.window.target ?? need, need);
    const due = input.now >= start + input.cooldownMs;
    let kept = members.length;
    let readyTally = tallyOf(members, wffc);
    const remove = (m: Member, reason: ScaleReason): void => {
      removals.push({ name: m.name, reason });
      kept -= 1;
      readyTally = addMember(readyTally, m, wffc, -1);
    };
    if (due) {
      for (const m of victims.slice(0, Math.max(0, kept - target))) remove(m, 'scale-down');
    }
    const removedByWindow = new Set(removals.map((r) => r.name));
    for (const m of victims) {
      if (m.current || removedByWindow.has(m.name) || kept - 1 < target) continue;
      if (canRemoveReady(readyTally, m, req)) remove(m, 'rollout');
    }
    const remaining = victims.length - removals.length;
    if (remaining > 0) window = due ? { start: input.now, target: need } : { start, target };
  }

  // At the ceiling a rollout cannot surge: retire one outdated instance first, one at a time — unless
  // this pass already removes one, which frees the place (a second would cut into the warm buffer).
  const blockedOutdated = outdatedKept.filter((m) => !removals.some((r) => r.name === m.name));
  if (
    surgeWanted > 0 &&
    surged === 0 &&
    ceilingRoom <= 0 &&
    input.leaving === 0 &&
    removals.length === 0 &&
    updatedStarting === 0 &&
    blockedOutdated.length > 0 &&
    (replacementIsStandby(blockedOutdated[0], tallyOf(members, wffc), req)
      ? input.canCreate
      : input.canStartPods)
  ) {
    removals.push({ name: blockedOutdated[0].name, reason: 'rollout' });
  }

  // 5. Rule 6: something enabled must remain for leases to wait on.
  const removedNames = new Set(removals.map((r) => r.name));
  const enabledLeft = members.filter((m) => m.enabled && !removedNames.has(m.name)).length;
  // The standby carries no Pod: when only instances on their way out fill the ceiling, it may take the
  // place they vacate, so a waiting lease never finds the pool empty (upstream would end it at once).
  const standbyRoom = Math.min(burstRoom, ceilingRoom + input.leaving + removals.length);
  // An outdated standby that leaves (a rollout) is replaced by a current one even where a full ceiling
  // leaves no room: both are Pod-less, so the Pods under the ceiling are untouched (seed 1686: beside a
  // leased instance on its way out, the standby kept leases waiting but ran an older template, which
  // leases may no longer select, for as long as the lease lasted).
  const outdatedStandbys = new Set(
    input.members.filter((m) => m.kind === 'standby' && m.enabled && !m.current).map((m) => m.name),
  );
  const outdatedStandbyLeaves = removals.some((r) => outdatedStandbys.has(r.name));
  if (enabledLeft === 0 && input.canCreate && (standbyRoom > 0 || (outdatedStandbyLeaves && burstRoom > 0))) {
    add(true, 'standby');
  }

  return {
    promote: promote.map((m, i) => ({ name: m.name, reason: reasons[i] })),
    creates,
    removals,
    ...(window ? { window } : {}),
    need,
    surplus: victims.length,
    limited,
    wanted,
    deferred: Math.max(0, realisedToCreate - realisedNow),
  };
}
