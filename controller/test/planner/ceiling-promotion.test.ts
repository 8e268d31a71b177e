/**
 * Promotion under the ceiling (found by the randomized simulation, seeds 43 and 1419): a standby that
 * gets its Pod is an instance that runs, so a promotion needs room under maxReplicas like a create.
 * The standby can exist beyond the ceiling (it took the place of leaving instances, or maxReplicas was
 * lowered after it was made); promoting it while the instances that fill the ceiling still run put
 * one Pod too many in the cluster.
 */
import { describe, expect, it } from '@jest/globals';
import { ConditionTypes } from 'virtual-exporters/internal';
import { plan } from '../../src/planner';
import { conditionOf, instance, lease, makeSet, namesOf, snapshot } from './builders';

describe('promoting a standby at the ceiling', () => {
  it('does not promote while the leased instances fill a lowered maxReplicas', () => {
    const result = plan(
      snapshot({
        set: makeSet({ maxReplicas: 3, minAvailableReplicas: 1 }),
        instances: [
          instance(0, 'available'),
          instance(1, 'available'),
          instance(2, 'available'),
          instance(3, 'standby'),
        ],
        leases: [
          lease('a', { exporter: 'pool-0' }),
          lease('b', { exporter: 'pool-1' }),
          lease('c', { exporter: 'pool-2' }),
          lease('waiting', { pending: true }),
        ],
      }),
    );
    expect(namesOf(result, 'PromoteStandby')).toEqual([]);
    expect(namesOf(result, 'RenderInstance')).toEqual([]);
    expect(namesOf(result, 'CreateExporter')).toEqual([]);
    expect(conditionOf(result, ConditionTypes.ScalingLimited)?.status).toBe('True');
  });

  it('does not promote while stuck instances that fill the ceiling are still running', () => {
    const result = plan(
      snapshot({
        set: makeSet({ maxReplicas: 2, minReplicas: 1, minAvailableReplicas: 1 }),
        instances: [instance(0, 'starting'), instance(1, 'starting'), instance(2, 'standby')],
        options: { startupTimeoutMs: 60_000 },
      }),
    );
    expect(namesOf(result, 'DisableExporter')).toEqual(['pool-0', 'pool-1']);
    expect(namesOf(result, 'PromoteStandby')).toEqual([]);
  });

  it('promotes once the instances it replaces no longer run', () => {
    const result = plan(
      snapshot({
        set: makeSet({ maxReplicas: 2, minReplicas: 1, minAvailableReplicas: 1 }),
        instances: [
          instance(0, 'crashed', { enabled: false, retiring: 'failed' }),
          instance(1, 'available', { enabled: false, retiring: 'scale-down' }),
          instance(2, 'standby'),
        ],
        leases: [lease('waiting', { pending: true })],
      }),
    );
    expect(namesOf(result, 'PromoteStandby')).toEqual(['pool-2']);
  });
});
