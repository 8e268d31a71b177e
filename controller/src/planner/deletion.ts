/**
 * §3.12 deletion: a set being deleted that carries our drain finalizer drains — nothing new, unleased
 * instances leave (the graceful way of decide/leaving.ts; reclaimPolicy Retain releases instances that served
 * a lease and whose Pod ended), leased ones stay until their leases end, and the finalizer goes once
 * no instance is left. Without the finalizer there is nothing to do.
 */
import { DRAIN_FINALIZER, type ScaleReason } from 'virtual-exporters/internal';
import { leavingStep } from './decide/leaving';
import type { Action } from './model/actions';
import type { World } from './observe/world';
import { finishPlan, leaveAlone, type Plan } from './plan-result';
import { drainFacts } from './status/pass-facts';

export function planDrain(world: World): Plan {
  const { set, now, spec } = world;
  if (!(set.metadata?.finalizers ?? []).includes(DRAIN_FINALIZER)) {
    return leaveAlone('the set is being deleted and has no drain finalizer left');
  }
  const actions: Action[] = [];
  for (const view of world.owned) {
    const reason: ScaleReason = view.state === 'retiring' ? (view.retiringReason ?? 'drain') : 'drain';
    const action = leavingStep(view, reason, { set, retain: spec.retain, now });
    if (action) actions.push(action);
  }
  const removing = actions.length;
  if (world.owned.length === 0 && world.virtualCreates.length === 0)
    actions.push({ type: 'RemoveFinalizer' });
  return finishPlan(world, actions, drainFacts(world, actions, removing), [], []);
}
