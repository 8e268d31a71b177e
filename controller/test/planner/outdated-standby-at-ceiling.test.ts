/**
 * An outdated standby at a full ceiling (found by the randomized simulation, seed 1686): the only
 * instance filling `maxReplicas` was leased and disabled on its way out, so the standby beside it kept
 * leases waiting (rule 6) — but it ran an older template, and a rollout replacement found no room
 * under the ceiling, so it stayed outdated (its labels may no longer be what leases select) for as long
 * as the lease lasted. Two Pod-less standbys swap in one pass: the current one is created, then the
 * outdated one goes.
 */
import { describe, expect, it } from '@jest/globals';
import { plan } from '../../src/planner';
import { instance, lease, makeSet, namesOf, ofType, snapshot } from './builders';

describe('an outdated standby at the ceiling', () => {
  const world = (revision: string | undefined) =>
    snapshot({
      set: makeSet({ maxReplicas: 1, minAvailableReplicas: 1 }, { status: { startupFailures: 0 } }),
      instances: [
        instance(0, 'available', { revision: 'old', enabled: false, retiring: 'rollout' }),
        instance(1, 'standby', revision === undefined ? {} : { revision }),
      ],
      leases: [lease('held', { exporter: 'pool-0' })],
    });

  it('is replaced by a current standby in the same pass while a leaving instance fills the ceiling', () => {
    const result = plan(world('old'));
    expect(ofType(result, 'CreateExporter').map((c) => [c.name, c.standby])).toEqual([['pool-2', true]]);
    expect([...namesOf(result, 'DisableExporter'), ...namesOf(result, 'DeleteExporter')]).toContain('pool-1');
    expect(namesOf(result, 'DeleteExporter')).not.toContain('pool-0');
    expect(ofType(result, 'RenderInstance')).toEqual([]);
    expect(ofType(result, 'PromoteStandby')).toEqual([]);
  });

  it('leaves a current standby alone', () => {
    const result = plan(world(undefined));
    expect(ofType(result, 'CreateExporter')).toEqual([]);
    expect(namesOf(result, 'DeleteExporter')).toEqual([]);
  });
});
