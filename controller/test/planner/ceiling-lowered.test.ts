/**
 * A lowered ceiling (SPEC §3.4): when maxReplicas drops below the pool, idle instances above it are
 * surplus even though the warm buffer would want them — the ceiling caps the buffer — and they go
 * through the scale-down window like any surplus; a leased instance never does.
 */
import { describe, expect, it } from '@jest/globals';
import { plan } from '../../src/planner';
import { at, instance, lease, makeSet, namesOf, snapshot } from './builders';

const MINUTE = 60_000;

describe('a lowered ceiling', () => {
  const instances = [instance(0, 'available'), instance(1, 'available'), instance(2, 'available')];
  const leases = [lease('ci', { exporter: 'pool-0' })];

  it('opens the window for the idle instances above maxReplicas', () => {
    const result = plan(
      snapshot({ set: makeSet({ minAvailableReplicas: 2, maxReplicas: 2 }), instances, leases }),
    );
    expect(result.actions.filter((a) => a.type !== 'AddFinalizer')).toEqual([]);
    expect(result.status).toMatchObject({ scaleDownWindowStart: at(0), scaleDownTarget: 2 });
    expect(result.status?.conditions?.find((c) => c.type === 'Scaling')).toMatchObject({
      status: 'False',
      reason: 'ScaleDownPending',
    });
  });

  it('removes them once the window lasted the cooldown, keeping the leased one', () => {
    const set = makeSet(
      { minAvailableReplicas: 2, maxReplicas: 2 },
      { status: { scaleDownWindowStart: at(-5 * MINUTE), scaleDownTarget: 2 } },
    );
    const result = plan(snapshot({ set, instances, leases }));
    expect(namesOf(result, 'DisableExporter')).toEqual(['pool-2']);
    expect(namesOf(result, 'DisableExporter')).not.toContain('pool-0');
  });

  it('takes nothing when the pool fits under the ceiling', () => {
    const set = makeSet({ minAvailableReplicas: 2, maxReplicas: 3 });
    const result = plan(snapshot({ set, instances, leases }));
    expect(result.status?.scaleDownWindowStart).toBeUndefined();
  });
});
