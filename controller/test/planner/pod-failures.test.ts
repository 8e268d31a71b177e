/**
 * Upstream's Degraded=True/PodsFailing (INTEROP §1.3) for Pods the controller replaced at once: the
 * failure stays visible, with the Pod and why it failed, while it is recent (the startup backoff it
 * started, SPEC §3.9, or one backoff step after it was seen), and then Degraded follows upstream's
 * rules again. The plan wakes up when the hold ends, so the return needs no event.
 */
import { describe, expect, it } from '@jest/globals';
import { ConditionReasons, ConditionTypes } from 'virtual-exporters/internal';
import { plan, type PlannerSnapshot } from '../../src/planner';
import { applyPlan } from './applier';
import { at, conditionOf, instance, makeSet, namesOf, snapshot } from './builders';

const SECOND = 1_000;
const NAMED = '1 pod(s) in Failed state: Pod pool-0 (container exporter exited with code 1: boom)';

/** The snapshot `ms` later (no other change). */
const later = (s: PlannerSnapshot, ms: number): PlannerSnapshot => ({ ...s, now: s.now + ms });

describe('Degraded=PodsFailing while Pod failures are recent', () => {
  it('names the failed Pod, keeps it through the startup backoff after the Pod is replaced, then clears', () => {
    const first = snapshot({
      set: makeSet({ minAvailableReplicas: 1 }),
      instances: [instance(0, 'failed', { endedAt: -SECOND })],
    });
    const seen = plan(first);
    expect(namesOf(seen, 'DeleteExporter')).toEqual(['pool-0']);
    const degraded = conditionOf(seen, ConditionTypes.Degraded);
    expect(degraded).toMatchObject({ status: 'True', reason: ConditionReasons.PodsFailing });
    expect(degraded?.message).toContain(NAMED);

    // The failed instance is gone (replaced at once); the backoff (10 s from the failure) lasts.
    const replaced = later(applyPlan(first, seen), 2 * SECOND);
    expect(replaced.instances.map((i) => i.exporter.metadata?.name)).not.toContain('pool-0');
    const held = plan(replaced);
    expect(held.status?.podsFailed).toBe(0);
    expect(conditionOf(held, ConditionTypes.Degraded)).toEqual(degraded);
    // The hold's end is a deadline: at most one backoff step from the moment it was seen.
    expect(held.requeueAfterMs).toBeGreaterThan(0);
    expect(held.requeueAfterMs).toBeLessThanOrEqual(8 * SECOND);

    // Ten seconds after it was seen, the failure is no longer recent.
    const after = plan(later(applyPlan(replaced, held), 8 * SECOND));
    expect(conditionOf(after, ConditionTypes.Degraded)?.reason).not.toBe(ConditionReasons.PodsFailing);
  });

  it('keeps a Pod that failed after its exporter was ready visible for one backoff step', () => {
    const first = snapshot({
      set: makeSet({ minAvailableReplicas: 1 }),
      instances: [instance(0, 'available'), instance(1, 'crashed')],
    });
    const seen = plan(first);
    expect(seen.status?.startupFailures).toBe(0);
    expect(conditionOf(seen, ConditionTypes.Degraded)?.message).toContain(
      'Pod pool-1 (container exporter exited with code 1: boom)',
    );

    const replaced = later(applyPlan(first, seen), 3 * SECOND);
    const held = plan(replaced);
    expect(conditionOf(held, ConditionTypes.Degraded)).toMatchObject({
      status: 'True',
      reason: ConditionReasons.PodsFailing,
    });
    expect(held.requeueAfterMs).toBe(7 * SECOND);

    const after = plan(later(applyPlan(replaced, held), 7 * SECOND));
    expect(conditionOf(after, ConditionTypes.Degraded)?.reason).not.toBe(ConditionReasons.PodsFailing);
  });

  it('does not hold on a transition time written in the future, on this pass or any later one', () => {
    // Seed 16 of the simulation: a controller clock skewed ahead wrote the transition, then stepped
    // back; a hold anchored on each pass's own clock renewed itself and Degraded never cleared.
    const set = makeSet(
      { minAvailableReplicas: 1 },
      {
        status: {
          conditions: [
            {
              type: ConditionTypes.Degraded,
              status: 'True',
              reason: ConditionReasons.PodsFailing,
              message: NAMED,
              lastTransitionTime: at(3_600_000),
            },
          ],
        },
      },
    );
    let current = snapshot({ set, instances: [instance(0, 'available')] });
    for (let pass = 0; pass < 3; pass++) {
      const result = plan(current);
      expect(conditionOf(result, ConditionTypes.Degraded)).toMatchObject({ status: 'False' });
      current = later(applyPlan(current, result), 10 * SECOND);
    }
  });

  it('a hold anchored on a past transition ends after one step, however often the set is looked at', () => {
    const set = makeSet(
      { minAvailableReplicas: 1 },
      {
        status: {
          conditions: [
            {
              type: ConditionTypes.Degraded,
              status: 'True',
              reason: ConditionReasons.PodsFailing,
              message: NAMED,
              lastTransitionTime: at(-4 * SECOND),
            },
          ],
        },
      },
    );
    let current = snapshot({ set, instances: [instance(0, 'available')] });
    const held = plan(current);
    expect(conditionOf(held, ConditionTypes.Degraded)?.reason).toBe(ConditionReasons.PodsFailing);
    expect(held.requeueAfterMs).toBe(6 * SECOND);
    for (let pass = 0; pass < 7; pass++) {
      current = later(applyPlan(current, plan(current)), SECOND);
    }
    expect(conditionOf(plan(current), ConditionTypes.Degraded)?.reason).not.toBe(
      ConditionReasons.PodsFailing,
    );
  });
});
