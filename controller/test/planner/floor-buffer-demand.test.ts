import { describe, expect, it } from '@jest/globals';
import { plan } from '../../src/planner';
import { instance, lease, makeSet, namesOf, ofType, snapshot } from './builders';

describe('§3.1 floor', () => {
  it('creates minReplicas instances in an empty pool, named from ordinal 0', () => {
    const result = plan(snapshot({ set: makeSet({ minReplicas: 3 }) }));
    const creates = ofType(result, 'CreateExporter');
    expect(creates.map((c) => [c.name, c.ordinal, c.standby, c.reason])).toEqual([
      ['pool-0', 0, false, 'floor'],
      ['pool-1', 1, false, 'floor'],
      ['pool-2', 2, false, 'floor'],
    ]);
    expect(result.status?.nextOrdinal).toBe(3);
  });

  it('counts leased, offline and starting instances towards the floor', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minReplicas: 3 }),
        instances: [instance(0, 'available'), instance(1, 'offline'), instance(2, 'starting')],
        leases: [lease('l0', { exporter: 'pool-0' })],
      }),
    );
    expect(ofType(result, 'CreateExporter')).toEqual([]);
  });
});

describe('§3.2 warm buffer', () => {
  it('counts starting instances as future supply', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 2 }),
        instances: [instance(0, 'starting'), instance(1, 'unrendered')],
      }),
    );
    expect(ofType(result, 'CreateExporter')).toEqual([]);
  });

  it('creates what available and starting instances lack', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 3 }),
        instances: [instance(0, 'available'), instance(1, 'starting')],
      }),
    );
    expect(ofType(result, 'CreateExporter').map((c) => [c.name, c.reason])).toEqual([
      ['pool-2', 'warm-buffer'],
    ]);
  });

  it('does not count a leased instance as supply', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 1 }),
        instances: [instance(0, 'available')],
        leases: [lease('l0', { exporter: 'pool-0' })],
      }),
    );
    expect(namesOf(result, 'CreateExporter')).toEqual(['pool-1']);
  });

  it('does not count an offline instance as supply', () => {
    const result = plan(
      snapshot({ set: makeSet({ minAvailableReplicas: 1 }), instances: [instance(0, 'offline')] }),
    );
    expect(namesOf(result, 'CreateExporter')).toEqual(['pool-1']);
  });

  it('renders the Pod of an instance once its Exporter has a credential and an endpoint', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 2 }),
        instances: [instance(0, 'unrendered'), instance(1, 'new')],
      }),
    );
    expect(namesOf(result, 'RenderInstance')).toEqual(['pool-0']);
    expect(ofType(result, 'CreateExporter')).toEqual([]);
  });

  it('does not render a Pod whose create is in flight', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 1 }),
        instances: [instance(0, 'unrendered')],
        inFlight: { rendering: ['pool-0'] },
      }),
    );
    expect(result.actions).toEqual([]);
  });
});

describe('§3.3 demand', () => {
  it('adds exactly one instance for one pending lease while nothing boots', () => {
    const result = plan(
      snapshot({
        instances: [instance(0, 'available')],
        leases: [lease('busy', { exporter: 'pool-0' }), lease('l1')],
      }),
    );
    expect(ofType(result, 'CreateExporter').map((c) => [c.name, c.reason])).toEqual([['pool-1', 'demand']]);
  });

  it('does not add an instance for a lease a starting instance will serve', () => {
    const result = plan(snapshot({ instances: [instance(0, 'starting')], leases: [lease('l1')] }));
    expect(ofType(result, 'CreateExporter')).toEqual([]);
  });

  it('counts pending leases on top of the warm buffer', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 1 }),
        instances: [instance(0, 'available')],
        leases: [lease('a'), lease('b'), lease('c')],
      }),
    );
    expect(ofType(result, 'CreateExporter').map((c) => c.reason)).toEqual(['demand', 'demand', 'demand']);
    expect(result.status?.pendingLeases).toBe(3);
  });

  it('plans the same total before and after Jumpstarter assigns a lease (no overshoot)', () => {
    const set = makeSet({ minAvailableReplicas: 1 });
    const before = plan(snapshot({ set, instances: [instance(0, 'available')], leases: [lease('a')] }));
    const after = plan(
      snapshot({ set, instances: [instance(0, 'available')], leases: [lease('a', { exporter: 'pool-0' })] }),
    );
    expect(ofType(before, 'CreateExporter')).toHaveLength(1);
    expect(ofType(after, 'CreateExporter')).toHaveLength(1);
  });

  it('ignores ended, assigned, pinned, not-yet-pending, future and foreign leases', () => {
    const result = plan(
      snapshot({
        instances: [instance(0, 'available')],
        leases: [
          lease('ended', { ended: true }),
          lease('assigned', { exporter: 'pool-0' }),
          lease('pinned', { pinnedTo: 'pool-9' }),
          lease('not-pending', { pending: false }),
          lease('future', { beginAt: 60_000 }),
          lease('foreign', { selector: { board: 'imx8' } }),
        ],
      }),
    );
    expect(ofType(result, 'CreateExporter')).toEqual([]);
    expect(result.status?.pendingLeases).toBe(0);
  });

  it('looks again when a future lease begins', () => {
    const result = plan(
      snapshot({ instances: [instance(0, 'available')], leases: [lease('future', { beginAt: 60_000 })] }),
    );
    expect(result.requeueAfterMs).toBe(60_000);
  });

  it('counts a lease that selects on the set label as demand', () => {
    const result = plan(
      snapshot({
        instances: [instance(0, 'standby')],
        leases: [lease('l', { selector: { 'exporterset.jumpstarter.dev/name': 'pool' } })],
      }),
    );
    expect(namesOf(result, 'PromoteStandby')).toEqual(['pool-0']);
  });
});
