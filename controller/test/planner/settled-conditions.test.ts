/**
 * Conditions of pools that are as settled as their rules allow: a WaitForFirstConsumer pool whose
 * warm buffer is all standbys has its warm buffer (WarmBufferAvailable), though upstream's Available
 * (minReplicas ready) is not touched by standbys; a pool held at its ceiling is ScalingLimited and not
 * Scaling, since nothing will change until the ceiling or the demand does.
 */
import { describe, expect, it } from '@jest/globals';
import { plan } from '../../src/planner';
import { conditionOf, instance, lease, makeClass, makeSet, snapshot } from './builders';

describe('settled conditions', () => {
  it('counts standbys as the warm buffer of a WaitForFirstConsumer pool', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 2 }),
        cls: makeClass({ bindingMode: 'WaitForFirstConsumer' }),
        instances: [instance(0, 'standby'), instance(1, 'standby')],
      }),
    );
    expect(conditionOf(result, 'WarmBufferAvailable')).toMatchObject({
      status: 'True',
      reason: 'MinimumAvailable',
      message: '2 instances available (2 on standby until a lease waits); the warm buffer asks for 2',
    });
    expect(result.status).toMatchObject({ availableReplicas: 0, unavailableReplicas: 0 });
  });

  it('does not count standbys as available in an Immediate pool', () => {
    const result = plan(
      snapshot({ set: makeSet({ minAvailableReplicas: 1 }), instances: [instance(0, 'standby')] }),
    );
    expect(conditionOf(result, 'WarmBufferAvailable')).toMatchObject({
      status: 'False',
      reason: 'BelowMinimumAvailable',
    });
  });

  it('is not Scaling while only the ceiling holds it back', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 2, maxReplicas: 1 }),
        instances: [instance(0, 'available')],
        leases: [lease('ci', { exporter: 'pool-0' })],
      }),
    );
    expect(conditionOf(result, 'ScalingLimited')?.status).toBe('True');
    expect(conditionOf(result, 'Scaling')).toMatchObject({ status: 'False', reason: 'MaxReplicasReached' });
    expect(conditionOf(result, 'Progressing')).toMatchObject({ status: 'False', reason: 'AllReplicasReady' });
  });
});
