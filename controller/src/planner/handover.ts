/**
 * §3.13 a class switched to another provisioner mid-life. The set now belongs to the class's
 * provisioner, but instances this controller made (its name in the provisioner annotation) are still
 * its own to take down: only the provisioner that realised an instance knows how to undo it, and a
 * switch to a provisioner nobody runs must not leave them running forever. So this controller:
 *
 * - drains the instances it made, the graceful way of decide/leaving.ts (never a leased one; leased ones go
 *   when their leases end), and creates, promotes and renders nothing;
 * - while the set is being deleted, drains every instance and removes the drain finalizer once none is
 *   left — as the class's controller does — so deletion completes whichever of the two runs;
 * - before it lets go, records the switch on the set: `ProvisionerSwitched=True` names the provisioner
 *   whose controller runs the set now (status/provisioner-switch.ts), with a Warning event — the only
 *   status it writes, in words that depend on the class alone, so the class's controller keeps it as
 *   it is; the rest of the status belongs to the class's controller, and two writers would undo each
 *   other. The Warning event names the switch each pass that drains, too.
 *
 * Instances without the annotation (made before it existed, or by upstream's controller) are the
 * class's controller's.
 */
import { Annotations, DRAIN_FINALIZER, EventReasons } from 'virtual-exporters/internal';
import { leavingStep } from './decide/leaving';
import { confirmDeletes } from './decide/scale/scale-down';
import { ACTION_ORDER, type Action } from './model/actions';
import { actionEvents } from './model/events';
import type { InstanceView } from './observe/instance-view';
import type { World } from './observe/world';
import { leaveAlone, type Plan } from './plan-result';
import { recordSwitch } from './status/provisioner-switch';

/** The provisioner that made the instance, from its annotation; undefined when it carries none. */
export function madeBy(view: InstanceView): string | undefined {
  return view.source.exporter.metadata?.annotations?.[Annotations.provisioner];
}

/** `why`: the switch, as `notOurs` says it. */
export function planHandover(world: World, why: string): Plan {
  const { set } = world;
  const deleting = set.metadata?.deletionTimestamp !== undefined;
  const hasFinalizer = (set.metadata?.finalizers ?? []).includes(DRAIN_FINALIZER);
  const mine = world.owned.filter((v) => madeBy(v) === world.provisioner.name);
  const draining = deleting && hasFinalizer ? world.owned : mine;
  const context = { set, retain: world.spec.retain, now: world.now };
  const planned: Action[] = draining.flatMap((v) => leavingStep(v, 'drain', context) ?? []);
  const removing = deleting && hasFinalizer && world.owned.length === 0 && world.virtualCreates.length === 0;
  if (removing) planned.push({ type: 'RemoveFinalizer' });
  // Recorded while instances it made are left (it ran the set), unless the set goes in this pass.
  const status = world.cls && mine.length > 0 && !removing ? recordSwitch(world, world.cls) : undefined;
  if (planned.length === 0 && status === undefined) return leaveAlone(why);
  // The live Lease list confirms the deletes, as for any pass (§3.7).
  const { actions } = confirmDeletes(planned, world.leaseCheck);
  const ordered = [...actions].sort((a, b) => ACTION_ORDER.indexOf(a.type) - ACTION_ORDER.indexOf(b.type));
  const leased = draining.filter((v) => v.leased).length;
  return {
    actions: ordered,
    ...(status !== undefined ? { status } : {}),
    events: [
      ...actionEvents(ordered),
      {
        type: 'Warning',
        reason: EventReasons.ProvisionerChanged,
        message: `${why}: it drains the ${draining.length} instance(s) it is responsible for${leased > 0 ? ` (${leased} leased, kept until their leases end)` : ''} and creates nothing; the class's controller runs the set`,
      },
    ],
    ignored: why,
  };
}
