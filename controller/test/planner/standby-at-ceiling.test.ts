/**
 * The standby at the ceiling (found by the randomized simulation): when the only instances filling
 * maxReplicas are leaving, the standby that keeps leases waiting takes their place at once — it has
 * no Pod — instead of a pass later, when a waiting lease would already have found the pool empty and
 * ended (upstream Jumpstarter ends a lease at once when no enabled Exporter matches).
 */
import { describe, expect, it } from '@jest/globals';
import { plan } from '../../src/planner';
import { instance, lease, makeSet, namesOf, ofType, snapshot } from './builders';

describe('standby at the ceiling', () => {
  it('replaces the last instance leaving a full pool with a standby in the same pass', () => {
    const result = plan(
      snapshot({
        set: makeSet({ maxReplicas: 1, minAvailableReplicas: 1 }, { status: { startupFailures: 0 } }),
        instances: [instance(0, 'crashed')],
        leases: [lease('waiting', { pending: true })],
      }),
    );
    expect(namesOf(result, 'DeleteExporter')).toEqual(['pool-0']);
    expect(ofType(result, 'CreateExporter').map((c) => [c.name, c.standby])).toEqual([['pool-1', true]]);
  });

  it('still never adds a Pod-carrying instance beyond the ceiling', () => {
    const result = plan(
      snapshot({
        set: makeSet({ maxReplicas: 1, minAvailableReplicas: 1 }),
        instances: [instance(0, 'crashed')],
      }),
    );
    expect(ofType(result, 'CreateExporter').every((c) => c.standby)).toBe(true);
    expect(ofType(result, 'RenderInstance')).toEqual([]);
  });
});
