import { describe, expect, it } from '@jest/globals';
import type { ExporterSet, ExporterSetSpec, ExporterSetStatus } from 'virtual-exporters/internal';
import { leaseOwner, plan, type DemandPeer } from '../../src/planner';
import { lease, makeSet, ofType, snapshot } from './builders';

/** A set named `name` whose instances carry the same labels as the set `pool` of the builders. */
function peer(
  name: string,
  spec: Partial<ExporterSetSpec> = {},
  status: Partial<ExporterSetStatus> = {},
  extra: { classExists?: boolean; deleting?: boolean } = {},
): DemandPeer {
  const base = makeSet({ maxReplicas: 4, ...spec }, { status, deleting: extra.deleting ?? false });
  const set: ExporterSet = { ...base, metadata: { ...base.metadata, name, uid: `uid-${name}` } };
  return { set, classExists: extra.classExists ?? true };
}

const waiting = lease('wants-rpi4');

describe('§3.3 one lease, one set › the owner rule', () => {
  it('gives a lease two sets select to the first by name', () => {
    expect(leaseOwner(waiting, [peer('b'), peer('a')])).toBe('a');
  });

  it('falls through a set at its ceiling to the next', () => {
    const full = peer('a', { maxReplicas: 2 }, { replicas: 2 });
    expect(leaseOwner(waiting, [full, peer('b'), peer('c')])).toBe('b');
  });

  it('falls through a paused set, a set being deleted and a set without class', () => {
    const sets = [
      peer('a', { paused: true }),
      peer('b', {}, {}, { deleting: true }),
      peer('c', {}, {}, { classExists: false }),
      peer('d'),
    ];
    expect(leaseOwner(waiting, sets)).toBe('d');
  });

  it('keeps counting at the first set when none can serve, so the lease is still reported', () => {
    expect(
      leaseOwner(waiting, [peer('b', { paused: true }), peer('a', { maxReplicas: 1 }, { replicas: 1 })]),
    ).toBe('a');
  });

  it('treats maxReplicas 0 as room, whatever the replicas', () => {
    expect(leaseOwner(waiting, [peer('a', { maxReplicas: 0 }, { replicas: 40 }), peer('b')])).toBe('a');
  });

  it('ignores sets whose instances the selector does not select', () => {
    const other = peer('a', { template: { metadata: { labels: { board: 'imx8' } } } });
    expect(leaseOwner(waiting, [other, peer('z')])).toBe('z');
  });
});

describe('§3.3 one lease, one set › planning', () => {
  const planWithPeers = (self: DemandPeer, all: readonly DemandPeer[]) =>
    plan({ ...snapshot({ set: self.set, leases: [waiting] }), peers: all.filter((p) => p !== self) });
  /** Instances with a Pod (VMs booted) the set's pass creates; a standby (§3.6) boots nothing. */
  const creates = (selfName: string, all: readonly DemandPeer[]) => {
    const self = all.find((p) => p.set.metadata?.name === selfName)!;
    return ofType(planWithPeers(self, all), 'CreateExporter').filter((c) => !c.standby).length;
  };

  it('boots one instance for a lease two sets select, in one set', () => {
    const all = [peer('a'), peer('b')];
    expect([creates('a', all), creates('b', all)]).toEqual([1, 0]);
  });

  it('with three sets, the first at its ceiling and the second paused, boots it in the third', () => {
    const all = [peer('a', { maxReplicas: 1 }, { replicas: 1 }), peer('b', { paused: true }), peer('c')];
    expect([creates('a', all), creates('b', all), creates('c', all)]).toEqual([0, 0, 1]);
  });

  it('reports the lease as pending only where it is counted', () => {
    const all = [peer('a'), peer('b')];
    const a = all[0];
    const b = all[1];
    expect(planWithPeers(a, all).status?.pendingLeases).toBe(1);
    expect(planWithPeers(b, all).status?.pendingLeases).toBe(0);
  });
});
