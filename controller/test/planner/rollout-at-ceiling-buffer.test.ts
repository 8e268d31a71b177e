/**
 * A rollout at the ceiling keeps the warm buffer (found by the randomized simulation, seeds 1609, 1706,
 * 1747): when the ready supply lets one outdated instance go as surplus, that removal already frees the
 * place its replacement needs. Retiring a second outdated instance "to make room" in the same pass
 * dropped the available instances below minAvailableReplicas, and a slow pool never caught up.
 */
import { describe, expect, it } from '@jest/globals';
import { plan } from '../../src/planner';
import { instance, lease, makeSet, namesOf, snapshot } from './builders';

describe('rollout at the ceiling', () => {
  const pool = (cooldown: string) =>
    snapshot({
      set: makeSet(
        { minAvailableReplicas: 5, maxReplicas: 7, scaleDownCooldown: cooldown },
        { status: { startupFailures: 0 } },
      ),
      instances: [
        instance(1, 'available'),
        instance(2, 'available', { revision: 'old' }),
        instance(3, 'available', { revision: 'old' }),
        instance(4, 'available'),
        instance(5, 'available'),
        instance(6, 'available'),
        instance(7, 'available'),
      ],
      leases: [lease('held', { exporter: 'pool-1' })],
    });

  it.each(['20s', '0s'])(
    'retires one outdated instance when the buffer allows one, not two (cooldown %s)',
    (cooldown) => {
      const result = plan(pool(cooldown));
      // 6 available, 5 wanted: one outdated instance may go; its place takes the replacement.
      expect(namesOf(result, 'DisableExporter')).toHaveLength(1);
    },
  );

  it('still retires one outdated instance first when nothing else frees a place', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 2, maxReplicas: 2 }, { status: { startupFailures: 0 } }),
        instances: [instance(0, 'available', { revision: 'old' }), instance(1, 'available')],
      }),
    );
    expect(namesOf(result, 'DisableExporter')).toEqual(['pool-0']);
  });
});
