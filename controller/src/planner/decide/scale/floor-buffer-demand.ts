/**
 * §3.1 floor, §3.2 warm buffer, §3.3 demand: whether what the kept instances supply (tally.ts) meets
 * the need, and the step that covers a shortfall (current standbys promoted first, then instances
 * created).
 *
 * Supply: instances with a Pod (or about to get one) that are available or starting, instances still
 * booting included (§3.2). With WaitForFirstConsumer the warm buffer is made of standbys (§3.6), so
 * standbys count towards the buffer there, while a waiting lease needs an instance with a Pod. The
 * buffer is counted after the pending leases take their instances, so the need does not jump when
 * Jumpstarter assigns a lease: need = minAvailableReplicas + pending leases.
 */
import type { ScaleReason } from 'virtual-exporters/internal';
import type { CreateBudget } from './ceiling-burst';
import { promotableStandbys } from './standby';
import { supplyNeed, tallyOf, type Tally } from './tally';
import type { Requirements, ScaleInput } from './types';

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
