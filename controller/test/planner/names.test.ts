import { describe, expect, it } from '@jest/globals';
import { ordinalsToRecord, plan } from '../../src/planner';
import { instance, lease, makeSet, namesOf, ofType, snapshot } from './builders';

describe('§3.10 names', () => {
  it('continue from status.nextOrdinal and advance it', () => {
    const result = plan(snapshot({ set: makeSet({ minReplicas: 2 }, { status: { nextOrdinal: 7 } }) }));
    expect(namesOf(result, 'CreateExporter')).toEqual(['pool-7', 'pool-8']);
    expect(result.status?.nextOrdinal).toBe(9);
  });

  it('never fall below the highest existing ordinal, even when the status was lost', () => {
    const result = plan(
      snapshot({ set: makeSet({ minReplicas: 2 }), instances: [instance(4, 'available')] }),
    );
    expect(namesOf(result, 'CreateExporter')).toEqual(['pool-5']);
  });

  it('skip ordinals of detached and deleting instances', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minReplicas: 1 }),
        instances: [
          instance(3, 'available', { detached: true }),
          instance(6, 'available', { deleting: true }),
        ],
      }),
    );
    expect(namesOf(result, 'CreateExporter')).toEqual(['pool-7']);
  });

  it('never reuse a name an old Lease was assigned', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minReplicas: 1 }),
        leases: [lease('old', { exporter: 'pool-12', ended: true })],
      }),
    );
    expect(namesOf(result, 'CreateExporter')).toEqual(['pool-13']);
  });

  it('are not pushed by names Lease specs pin (anyone may write a pin; Jumpstarter ends one to a missing Exporter)', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minReplicas: 1 }, { status: { nextOrdinal: 3 } }),
        leases: [
          lease('made-up', { pinnedTo: 'pool-1000000' }),
          lease('ended', { pinnedTo: 'pool-20', ended: true }),
          lease('assigned', { pinnedTo: 'pool-500', exporter: 'pool-7' }),
        ],
      }),
    );
    expect(namesOf(result, 'CreateExporter')).toEqual(['pool-8']);
    expect(result.status?.nextOrdinal).toBe(9);
  });

  it('never plan a create twice while it is in flight, and count it as supply', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 2 }),
        inFlight: {
          creating: [
            { name: 'pool-0', standby: false },
            { name: 'pool-1', standby: false },
          ],
        },
      }),
    );
    expect(ofType(result, 'CreateExporter')).toEqual([]);
    expect(result.status?.nextOrdinal).toBe(2);
  });

  it('ignore names of other sets that share the prefix', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minReplicas: 1 }),
        leases: [lease('x', { exporter: 'pool-b-9', ended: true })],
      }),
    );
    expect(namesOf(result, 'CreateExporter')).toEqual(['pool-0']);
  });

  it('are put on record before an instance the status does not cover is deleted', () => {
    // The create of pool-4 landed but its status write was lost: nextOrdinal still says 4.
    const set = makeSet({}, { status: { nextOrdinal: 4 } });
    const deletes = [
      { type: 'DeleteExporter', name: 'pool-2', reason: 'scale-down' },
      { type: 'DeleteExporter', name: 'pool-4', reason: 'scale-down' },
    ] as const;
    expect(ordinalsToRecord(set, deletes)).toBe(5);
    expect(ordinalsToRecord(set, deletes.slice(0, 1))).toBeUndefined();
    expect(ordinalsToRecord(makeSet({}, { status: { nextOrdinal: 5 } }), deletes)).toBeUndefined();
    expect(
      ordinalsToRecord(makeSet(), [{ type: 'DeleteExporter', name: 'pool-x7k2p', reason: 'scale-down' }]),
    ).toBeUndefined();
  });
});
