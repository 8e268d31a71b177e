/**
 * Lease-wait objectives in the status (issue 17 item 3): the window, p95 in whole seconds, the warm-hit
 * ratio with two decimals, written only when they change; what a pass observes (warm or cold, which
 * leases are the set's).
 */
import { describe, expect, it } from '@jest/globals';
import type { ExporterSetStatus, Lease } from 'virtual-exporters/internal';
import { plan, statusEquals, type ServedLease } from '../../src/planner';
import { leaseWaitStatus, leaseWaitWindowStart, p95 } from '../../src/planner/demand/lease-objectives';
import { observeDemand, setLeases } from '../../src/reconciler/demand/observe-demand';
import { T0, at, instance, lease, makeSet, snapshot } from './builders';

const H = 3_600_000;
const served = (i: number, waitMs: number, warm: boolean, begin = T0 - 60_000): ServedLease => ({
  uid: `u${i}`,
  name: `l${i}`,
  created: begin - waitMs,
  begin,
  warm,
});

describe('status.leaseWait', () => {
  it('is absent while no lease was served in the window', () => {
    expect(leaseWaitStatus([], T0)).toBeUndefined();
    expect(leaseWaitStatus([served(1, 0, true, T0 - 30 * H)], T0)).toBeUndefined();
  });

  it('reports the window rounded down to the hour, p95 in whole seconds and the warm share', () => {
    const leases = [
      ...Array.from({ length: 19 }, (_, i) => served(i, 400, true)),
      served(19, 92_600, false),
      served(20, 30_600, false),
    ];
    expect(leaseWaitStatus(leases, T0 + 25 * 60_000)).toEqual({
      windowStart: '2026-02-28T12:00:00.000Z',
      leases: 21,
      p95Seconds: 31, // nearest rank 20 of 21: 30.6 s, rounded; the slowest (92.6 s) is the 21st
      warmHitRatio: 0.9, // 19 / 21 = 0.904…
    });
    expect(p95([1, 2, 3])).toBe(3);
    expect(p95([])).toBeUndefined();
  });

  it('keeps windowStart within the hour, so passes in one hour write nothing new', () => {
    expect(leaseWaitWindowStart(T0 + 59 * 60_000)).toBe(leaseWaitWindowStart(T0));
    expect(leaseWaitWindowStart(T0 + H)).toBe(leaseWaitWindowStart(T0) + H);
  });
});

describe('the status step', () => {
  const set = makeSet({ minAvailableReplicas: 1 });
  const instances = [instance(0, 'available')];

  it("writes the recorder's objectives into the status, and the same ones need no write", () => {
    const leases = [served(1, 0, true), served(2, 45_000, false)];
    const first = plan({ ...snapshot({ set, instances }), servedLeases: leases, startupP95Ms: 41_600 });
    expect(first.status?.leaseWait).toEqual({
      windowStart: '2026-02-28T12:00:00.000Z',
      leases: 2,
      p95Seconds: 45,
      warmHitRatio: 0.5,
    });
    expect(first.status?.startupP95Seconds).toBe(42);
    const written = makeSet({ minAvailableReplicas: 1 }, { status: first.status as ExporterSetStatus });
    const next = plan({
      ...snapshot({ set: written, instances, now: 10 * 60_000 }),
      servedLeases: leases,
      startupP95Ms: 41_900,
    });
    expect(statusEquals(next.status, first.status)).toBe(true);
  });

  it('keeps the objectives the status has while the recorder has not read its object', () => {
    const status = {
      leaseWait: { windowStart: '2026-02-28T12:00:00.000Z', leases: 3, p95Seconds: 7, warmHitRatio: 1 },
      startupP95Seconds: 30,
    } as Partial<ExporterSetStatus>;
    const kept = plan(snapshot({ set: makeSet({}, { status }), instances }));
    expect(kept.status?.leaseWait).toEqual(status.leaseWait);
    expect(kept.status?.startupP95Seconds).toBe(30);
    // Malformed ones are dropped rather than copied.
    const bad = {
      leaseWait: { windowStart: 'yesterday', leases: -1 },
      startupP95Seconds: 'slow',
    } as unknown as Partial<ExporterSetStatus>;
    const dropped = plan(snapshot({ set: makeSet({}, { status: bad }), instances }));
    expect(dropped.status?.leaseWait).toBeUndefined();
    expect(dropped.status?.startupP95Seconds).toBeUndefined();
  });
});

describe('what a pass observes', () => {
  const withOnline = (ordinal: number, onlineAt: number) => {
    const base = instance(ordinal, 'available');
    const conditions = base.exporter.status!.conditions!.map((c) =>
      c.type === 'Online' ? { ...c, lastTransitionTime: at(onlineAt) } : c,
    );
    return { ...base, exporter: { ...base.exporter, status: { ...base.exporter.status, conditions } } };
  };
  const servedLease = (
    name: string,
    exporter: string,
    created: number,
    begin: number,
    waited: boolean,
  ): Lease => {
    const l = lease(name, { exporter, pending: waited });
    return {
      ...l,
      metadata: { ...l.metadata, uid: `uid-${name}`, creationTimestamp: at(created) },
      status: {
        ...l.status!,
        beginTime: at(begin),
        conditions: waited ? l.status!.conditions : [],
      },
    };
  };

  it('calls a lease warm when its instance was Online before it was created, else cold', () => {
    const s = snapshot({
      instances: [withOnline(0, -600_000), withOnline(1, -20_000)],
      options: { startupTimeoutMs: 300_000 },
      leases: [
        servedLease('warm', 'pool-0', -300_000, -300_000, false),
        servedLease('cold', 'pool-1', -60_000, -19_000, true),
        // Its instance is gone: it never waited, so an instance was there for it.
        servedLease('gone', 'pool-7', -50_000, -50_000, false),
      ],
    });
    const seen = observeDemand(s);
    expect(seen.served.map((x) => [x.name, x.warm, x.waited, x.begin - x.created])).toEqual([
      ['warm', true, false, 0],
      ['cold', false, true, 41_000],
      ['gone', true, false, 0],
    ]);
    // pool-0 came Online as it was created; pool-1 580 s after, longer than the startup timeout (300 s):
    // it went offline and back since, so that is no startup.
    expect(seen.startups.map((x) => [x.uid, x.ms])).toEqual([['uid-pool-0', 0]]);
    expect(seen.leases.every((l) => l.live)).toBe(true);
  });

  it("counts the set's leases only: its instances', and the waiting ones its selector matches", () => {
    const mine = { ...lease('mine'), metadata: { name: 'mine', uid: 'u1', creationTimestamp: at(-1_000) } };
    const other = {
      ...lease('other', { selector: { board: 'imx8' } }),
      metadata: { name: 'other', uid: 'u2', creationTimestamp: at(-1_000) },
    };
    const elsewhere = {
      ...lease('elsewhere', { exporter: 'hardware-3' }),
      metadata: { name: 'elsewhere', uid: 'u3', creationTimestamp: at(-1_000) },
    };
    expect(setLeases(snapshot({ leases: [mine, other, elsewhere] })).map((l) => l.metadata?.name)).toEqual([
      'mine',
    ]);
  });
});
