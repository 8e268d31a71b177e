/**
 * How an instance leaves the set (§3.7 scale-down, §3.8 recycle, §3.12 deletion, reclaimPolicy),
 * whatever the reason:
 *
 * - a leased instance never leaves: no action, whatever the caller wanted;
 * - reclaimPolicy Retain, an instance that served a lease and whose Pod ended: released (disabled and
 *   detached from the set), so it and its Pod stay for inspection; the rules then replace it;
 * - an instance that could be leased now or soon (online, or a Pod that is running or starting):
 *   disabled first, with our marker; a later pass deletes it once the Lease list confirms that no lease
 *   names it (a lease assigned in between keeps it until the lease ends);
 * - one that cannot be leased (disabled already, a standby without Pod, a Pod that ended and an
 *   exporter not online): deleted at once, unless its `status.leaseRef` names a lease not known to have
 *   ended, in which case it waits.
 */
import { type ExporterSet, type ScaleReason } from 'virtual-exporters/internal';
import type { Action } from '../model/actions';
import { disablePatch, releasePatch } from '../model/exporter';
import { toTimestamp } from '../model/time';
import type { InstanceView } from '../observe/instance-view';
import { hasEnded, isLive } from '../observe/runtime';
import type { World } from '../observe/world';
import type { Leaving } from './members';
import type { PlannedRemoval } from './scale/types';

export interface LeavingContext {
  readonly set: ExporterSet;
  readonly retain: boolean;
  readonly now: number;
}

/** Jumpstarter could assign it a lease now or once its Pod is up. */
function couldBeLeased(view: InstanceView): boolean {
  return view.online || isLive(view.runtime) || (view.runtime.state === 'none' && view.podPresent);
}

/** The next step of `view` on its way out, or undefined when it must wait (leased, or an unconfirmed leaseRef). */
export function leavingStep(
  view: InstanceView,
  reason: ScaleReason,
  context: LeavingContext,
): Action | undefined {
  if (view.leased) return undefined;
  const after = reason === 'rollout' ? ({ afterCreates: true } as const) : {};
  if (context.retain && view.servedLease && hasEnded(view.runtime)) {
    return {
      type: 'ReleaseExporter',
      name: view.name,
      reason,
      patch: releasePatch(view.source.exporter, context.set, toTimestamp(context.now)),
      ...after,
    };
  }
  if (view.enabled && (couldBeLeased(view) || view.leaseRefUnconfirmed)) {
    return { type: 'DisableExporter', name: view.name, reason, patch: disablePatch(reason), ...after };
  }
  if (view.leaseRefUnconfirmed) return undefined;
  return { type: 'DeleteExporter', name: view.name, reason, ...after };
}

/**
 * The next steps of the instances on their way out (but `kept`, held back by standby.ts) and of this
 * pass's removals.
 */
export function leavingActions(
  world: World,
  leaving: readonly Leaving[],
  removals: readonly PlannedRemoval[],
  byName: ReadonlyMap<string, InstanceView>,
  kept: string | undefined,
): Action[] {
  const context = { set: world.set, retain: world.spec.retain, now: world.now };
  const steps = [
    ...leaving.filter(({ view }) => view.name !== kept),
    ...removals.flatMap((r) => {
      const view = byName.get(r.name);
      return view ? [{ view, reason: r.reason }] : [];
    }),
  ];
  return steps.flatMap(({ view, reason }) => leavingStep(view, reason, context) ?? []);
}
