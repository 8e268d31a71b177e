import { describe, expect, it } from '@jest/globals';
import {
  Annotations,
  ConditionReasons,
  ConditionTypes,
  DRAIN_FINALIZER,
  EventReasons,
} from 'virtual-exporters/internal';
import { plan, type InstanceSnapshot } from '../../src/planner';
import { applyPlan } from './applier';
import {
  conditionOf,
  instance,
  lease,
  makeClass,
  makeSet,
  namesOf,
  ofType,
  snapshot,
  type Shape,
} from './builders';

const OTHER = 'ec2.jumpstarter.dev';
const switched = makeClass({ provisioner: OTHER });
const CLASS = switched.metadata?.name ?? '';
/** ProvisionerSwitched as every controller words it for the class `switched`. */
const SWITCHED = {
  type: ConditionTypes.ProvisionerSwitched,
  status: 'True' as const,
  reason: ConditionReasons.ProvisionerChanged,
  message: `VirtualTargetClass "${CLASS}" was switched to provisioner "${OTHER}" while the set ran: the controller of "${OTHER}" runs the set now, and the controllers of other provisioners only drain the instances they made`,
};

/** An instance annotated as made by `provisioner`. */
function madeBy(provisioner: string, ordinal: number, shape: Shape): InstanceSnapshot {
  const made = instance(ordinal, shape);
  const metadata = made.exporter.metadata ?? {};
  return {
    ...made,
    exporter: {
      ...made.exporter,
      metadata: {
        ...metadata,
        annotations: { ...metadata.annotations, [Annotations.provisioner]: provisioner },
      },
    },
  };
}

describe('§3.13 class switched to another provisioner', () => {
  it('annotates every instance it creates with its provisioner', () => {
    const result = plan(snapshot({ set: makeSet({ minAvailableReplicas: 1 }) }));
    const [create] = ofType(result, 'CreateExporter');
    expect(create.exporter.metadata?.annotations?.[Annotations.provisioner]).toBe('qemu.jumpstarter.dev');
  });

  it('drains the instances it made, keeps the leased one, creates nothing and writes only the switch', () => {
    const result = plan(
      snapshot({
        cls: switched,
        set: makeSet({ minAvailableReplicas: 3 }, { status: { replicas: 3 } }),
        instances: [
          madeBy('qemu.jumpstarter.dev', 0, 'available'),
          madeBy('qemu.jumpstarter.dev', 1, 'exited'),
          madeBy('qemu.jumpstarter.dev', 2, 'available'),
        ],
        leases: [lease('held', { exporter: 'pool-2' })],
      }),
    );
    expect(namesOf(result, 'DisableExporter')).toEqual(['pool-0']);
    expect(namesOf(result, 'DeleteExporter')).toEqual(['pool-1']);
    expect(ofType(result, 'CreateExporter')).toEqual([]);
    expect(result.status).toEqual({ replicas: 3, conditions: [expect.objectContaining(SWITCHED)] });
    expect(result.events).toContainEqual(
      expect.objectContaining({
        type: 'Warning',
        reason: EventReasons.ProvisionerChanged,
        message: expect.stringContaining(`uses provisioner "${OTHER}"`),
      }),
    );
  });

  it("leaves instances of the class's provisioner and unannotated ones to the class's controller", () => {
    const result = plan(
      snapshot({
        cls: switched,
        set: makeSet({ minAvailableReplicas: 1 }),
        instances: [madeBy(OTHER, 0, 'available'), instance(1, 'available')],
      }),
    );
    expect(result.actions).toEqual([]);
    expect(result.ignored).toContain(OTHER);
  });

  it('drains every instance of a deleted set and then removes the drain finalizer it added', () => {
    const set = makeSet({}, { deleting: true });
    const draining = plan(
      snapshot({ cls: switched, set, instances: [madeBy(OTHER, 0, 'exited'), instance(1, 'exited')] }),
    );
    expect(namesOf(draining, 'DeleteExporter').sort()).toEqual(['pool-0', 'pool-1']);
    expect(ofType(draining, 'RemoveFinalizer')).toEqual([]);

    const empty = plan(snapshot({ cls: switched, set }));
    expect(ofType(empty, 'RemoveFinalizer')).toHaveLength(1);
  });

  it('keeps a leased instance of a deleted set until its lease ends, then lets the set go', () => {
    const set = makeSet({}, { deleting: true });
    const held = plan(
      snapshot({
        cls: switched,
        set,
        instances: [madeBy('qemu.jumpstarter.dev', 0, 'available')],
        leases: [lease('held', { exporter: 'pool-0' })],
      }),
    );
    expect(held.actions).toEqual([]);
    const gone = plan(
      snapshot({ cls: switched, set: makeSet({}, { deleting: true, finalizers: [DRAIN_FINALIZER] }) }),
    );
    expect(ofType(gone, 'RemoveFinalizer')).toHaveLength(1);
  });

  it('records which provisioner runs the set before it lets go, once, with a Warning event', () => {
    const first = snapshot({
      cls: switched,
      set: makeSet({ minAvailableReplicas: 1 }, { status: { replicas: 1, conditions: [] } }),
      instances: [madeBy('qemu.jumpstarter.dev', 0, 'available')],
      leases: [lease('held', { exporter: 'pool-0' })],
    });
    const recorded = plan(first);
    // Nothing to drain yet (the instance is leased): the switch is recorded all the same.
    expect(recorded.actions).toEqual([]);
    expect(recorded.status).toEqual({ replicas: 1, conditions: [expect.objectContaining(SWITCHED)] });
    expect(recorded.events).toContainEqual(
      expect.objectContaining({ type: 'Warning', reason: EventReasons.ProvisionerChanged }),
    );
    // Recorded: the next pass writes nothing and leaves the set alone.
    const next = plan(applyPlan(first, recorded));
    expect(next.status).toBeUndefined();
    expect(next.actions).toEqual([]);
    expect(next.ignored).toContain(OTHER);
  });

  it("keeps a recorded switch in the class's words when the class's controller runs the set", () => {
    const recorded = { ...SWITCHED, lastTransitionTime: '2026-03-01T11:00:00.000Z' };
    const set = makeSet({ minAvailableReplicas: 1 }, { status: { conditions: [recorded] } });
    // Switched back to this controller's provisioner: the condition names it, in the same words.
    const back = plan(snapshot({ cls: makeClass(), set, instances: [instance(0, 'available')] }));
    expect(conditionOf(back, ConditionTypes.ProvisionerSwitched)).toMatchObject({
      ...recorded,
      message: SWITCHED.message.replaceAll(OTHER, 'qemu.jumpstarter.dev'),
    });
    // Never switched: no such condition.
    const never = plan(
      snapshot({ set: makeSet({ minAvailableReplicas: 1 }), instances: [instance(0, 'available')] }),
    );
    expect(conditionOf(never, ConditionTypes.ProvisionerSwitched)).toBeUndefined();
  });

  it('leaves a deleted set without our finalizer alone', () => {
    const set = makeSet({}, { deleting: true, finalizers: [] });
    expect(plan(snapshot({ cls: switched, set, instances: [instance(0, 'exited')] })).actions).toEqual([]);
  });
});
