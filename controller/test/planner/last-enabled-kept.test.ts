/**
 * The last enabled Exporter stays while no standby can take its place (found by the randomized
 * simulation, seeds 755, 762 and 852): a set whose parameters are invalid (a class broken, or fixed but
 * not yet seen so) may create nothing, not even the standby of rule 12. If its last enabled instances
 * left anyway — failed ones deleted, idle ones disabled — a waiting lease would find no enabled Exporter
 * and upstream Jumpstarter would end it at once. One of them stays until a standby can be created.
 */
import { describe, expect, it } from '@jest/globals';
import { plan } from '../../src/planner';
import { instance, lease, makeSet, namesOf, ofType, snapshot } from './builders';

const invalid = { parameters: { arch: 'mips' } };

describe('the last enabled instance while no standby can be created', () => {
  it('keeps the last failed instance when the parameters are invalid', () => {
    const result = plan(
      snapshot({
        set: makeSet({ ...invalid, minAvailableReplicas: 1 }),
        instances: [instance(0, 'failed'), instance(1, 'crashed')],
        leases: [lease('waiting', { pending: true })],
      }),
    );
    expect(ofType(result, 'CreateExporter')).toEqual([]);
    // One leaves; the other stays enabled for the waiting lease.
    expect(namesOf(result, 'DeleteExporter')).toHaveLength(1);
    expect(ofType(result, 'DisableExporter')).toEqual([]);
  });

  it('keeps the last idle instance that scale-down would remove', () => {
    const result = plan(
      snapshot({
        set: makeSet(
          { ...invalid, scaleDownCooldown: '0s' },
          { status: { scaleDownWindowStart: new Date(0).toISOString(), scaleDownTarget: 0 } },
        ),
        instances: [instance(0, 'available')],
      }),
    );
    expect(ofType(result, 'DisableExporter')).toEqual([]);
    expect(ofType(result, 'DeleteExporter')).toEqual([]);
  });

  it('lets it go once a standby is created in its place', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 0 }, { status: { startupFailures: 0 } }),
        instances: [instance(0, 'failed')],
      }),
    );
    expect(namesOf(result, 'DeleteExporter')).toEqual(['pool-0']);
    expect(ofType(result, 'CreateExporter').map((c) => c.standby)).toEqual([true]);
  });
});
