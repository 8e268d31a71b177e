/**
 * The demand record (issue 17): hourly buckets of arrivals and peaks, bounded to `DEMAND_MAX_BUCKETS` (360), gaps filled from
 * the leases still live, each lease counted once (also after a restart, from the record read back), and
 * bounded lists of startups and served leases.
 */
import { describe, expect, it } from '@jest/globals';
import {
  DEMAND_INTERVAL_MS,
  DEMAND_MAX_BUCKETS,
  MAX_SERVED,
  MAX_STARTUPS,
  advanceHistory,
  emptyRecord,
  recordPass,
  startupP95Ms,
  type DemandObservation,
  type DemandRecord,
  type ObservedLease,
  type ServedLease,
} from '../../src/planner';
import { parseDemand, serializeDemand } from '../../src/reconciler/demand/demand-config-map';

const H = DEMAND_INTERVAL_MS;
/** An hour boundary. */
const T = Date.parse('2026-03-02T00:00:00.000Z');

const observed = (now: number, leases: ObservedLease[] = [], rest: Partial<DemandObservation> = {}) => ({
  now,
  leases,
  startups: [],
  served: [],
  ...rest,
});
const leaseAt = (uid: string, created: number, live = true): ObservedLease => ({ uid, created, live });
const served = (uid: string, created: number, begin: number, warm: boolean): ServedLease => ({
  uid,
  name: `lease-${uid}`,
  created,
  begin,
  warm,
});
const buckets = (record: DemandRecord) => record.history.buckets.map((b) => [b.arrivals, b.peak]);

describe('demand history buckets', () => {
  it('count each arrival in the hour of its creation time, once', () => {
    let record = emptyRecord(T + 10 * 60_000);
    const leases = [leaseAt('a', T + 60_000), leaseAt('b', T + 30 * 60_000, false)];
    const first = recordPass(record, observed(T + 40 * 60_000, leases));
    record = first.record;
    expect(buckets(record)).toEqual([[2, 1]]);
    expect(first.changes).toBe(3); // two arrivals, one raised peak
    // The same leases at the next pass, and the next hour: nothing counted again.
    const again = recordPass(record, observed(T + 50 * 60_000, leases));
    expect(again.changes).toBe(0);
    record = recordPass(again.record, observed(T + H + 5 * 60_000, [...leases, leaseAt('c', T + H)])).record;
    expect(buckets(record)).toEqual([
      [2, 1],
      [1, 2],
    ]);
    expect(record.history.start).toBe(T);
  });

  it('count leases created in the same second as the newest counted one (timestamps have seconds)', () => {
    const second = T + 5_000;
    const one = recordPass(emptyRecord(T), observed(T + 6_000, [leaseAt('a', second)])).record;
    const two = recordPass(one, observed(T + 7_000, [leaseAt('a', second), leaseAt('b', second)])).record;
    expect(two.history.buckets[0]!.arrivals).toBe(2);
    expect(two.lastArrival).toEqual({ at: second, uids: ['a', 'b'] });
  });

  it('do not count a lease older than the newest counted one (seen late, or before a restart)', () => {
    const one = recordPass(emptyRecord(T), observed(T + 60_000, [leaseAt('new', T + 50_000)])).record;
    const two = recordPass(one, observed(T + 70_000, [leaseAt('old', T + 10_000)])).record;
    expect(two.history.buckets[0]!.arrivals).toBe(1);
  });

  it('keep the peak of held and waiting leases per hour, the most seen at once', () => {
    let record = emptyRecord(T);
    const a = leaseAt('a', T + 1_000);
    const b = leaseAt('b', T + 2_000);
    record = recordPass(record, observed(T + 3_000, [a, b])).record;
    record = recordPass(record, observed(T + 4_000, [{ ...a, live: false }, b])).record;
    expect(record.history.buckets[0]!.peak).toBe(2);
  });

  it('fill hours no pass saw with zeros, and with the leases live since before them', () => {
    const long = leaseAt('long', T + 1_000);
    let record = recordPass(emptyRecord(T), observed(T + 2_000, [long])).record;
    const late = leaseAt('late', T + 3 * H + 10_000);
    record = recordPass(record, observed(T + 3 * H + 20_000, [long, late])).record;
    expect(buckets(record)).toEqual([
      [1, 1],
      [0, 1],
      [0, 1],
      [1, 2],
    ]);
    // An idle pool: the gap is zeros.
    const idle = recordPass(emptyRecord(T), observed(T + 4 * H));
    expect(buckets(idle.record)).toEqual([
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
    ]);
    expect(idle.changes).toBe(0);
  });

  it('hold at most DEMAND_MAX_BUCKETS hourly buckets, the oldest dropped', () => {
    let record = recordPass(emptyRecord(T), observed(T + 1, [leaseAt('first', T)])).record;
    record = recordPass(record, observed(T + 400 * H, [leaseAt('last', T + 400 * H)])).record;
    expect(record.history.buckets).toHaveLength(DEMAND_MAX_BUCKETS);
    expect(record.history.start).toBe(T + (400 - DEMAND_MAX_BUCKETS + 1) * H);
    expect(record.history.buckets.at(-1)).toEqual({ arrivals: 1, peak: 1, crowding: [1] });
    expect(record.history.buckets.reduce((n, b) => n + b.arrivals, 0)).toBe(1);
    // Advancing by more than the whole history starts it over at the bucket of now.
    const far = advanceHistory(record.history, T + 10_000 * H, []);
    expect(far.buckets).toHaveLength(DEMAND_MAX_BUCKETS);
    expect(far.start + (DEMAND_MAX_BUCKETS - 1) * H).toBe(T + 10_000 * H);
  });

  it('reach back to the leases a first look finds, at most DEMAND_MAX_BUCKETS buckets; older ones remembered, not kept', () => {
    const record = recordPass(
      emptyRecord(T + 2 * H),
      observed(T + 2 * H + 1, [leaseAt('before', T + 1_000), leaseAt('in', T + 2 * H)]),
    ).record;
    expect(buckets(record)).toEqual([
      [1, 1],
      [0, 1],
      [1, 2],
    ]);
    expect(record.history.start).toBe(T);
    const ancient = recordPass(
      emptyRecord(T + 400 * H),
      observed(T + 400 * H, [leaseAt('ancient', T, false), leaseAt('recent', T + 399 * H, false)]),
    ).record;
    expect(ancient.history.buckets).toHaveLength(DEMAND_MAX_BUCKETS);
    expect(ancient.history.buckets.reduce((n, b) => n + b.arrivals, 0)).toBe(1);
    expect(ancient.lastArrival?.at).toBe(T + 399 * H);
  });
});

describe('arrival crowding', () => {
  const startups = (ms: number) =>
    Array.from({ length: 5 }, (_, i) => ({ uid: `e${i}`, at: T - H + i * 1_000, ms }));

  it('counts, per hour, how many others each arrival found within the median startup before it', () => {
    // Startups of 90 s: a burst of three within a minute, one alone later, then one 80 s after it.
    const base = recordPass(emptyRecord(T), observed(T, [], { startups: startups(90_000) })).record;
    const leases = [0, 20_000, 40_000, 600_000, 680_000].map((at, i) => leaseAt(`l${i}`, T + at));
    const record = recordPass(base, observed(T + 700_000, leases)).record;
    // Alone: 2 (the burst's first, the one at 10:00); with one other: 2; with two: 1.
    expect(record.history.buckets[0]!.crowding).toEqual([2, 2, 1]);
  });

  it('counts across passes and hours: the newest arrivals are kept for the next', () => {
    const base = recordPass(emptyRecord(T), observed(T, [], { startups: startups(120_000) })).record;
    const first = recordPass(base, observed(T + H - 30_000, [leaseAt('a', T + H - 60_000)])).record;
    expect(first.recentArrivals).toEqual([T + H - 60_000]);
    const second = recordPass(first, observed(T + H + 30_000, [leaseAt('b', T + H + 10_000)])).record;
    expect(second.history.buckets.map((b) => b.crowding)).toEqual([[1], [0, 1]]);
  });

  it('counts within the default window before any startup is measured', () => {
    const leases = [leaseAt('a', T), leaseAt('b', T + 9 * 60_000), leaseAt('c', T + 20 * 60_000)];
    const record = recordPass(emptyRecord(T), observed(T + 30 * 60_000, leases)).record;
    expect(record.history.buckets[0]!.crowding).toEqual([2, 1]);
  });

  it('leaves a bucket an older controller wrote without crowding: its arrivals count, its crowding is unknown', () => {
    const old: DemandRecord = {
      history: { intervalMs: H, start: T, buckets: [{ arrivals: 4, peak: 3 }] },
      startups: [],
      served: [],
    };
    const record = recordPass(
      old,
      observed(T + H + 60_000, [leaseAt('a', T + 60_000), leaseAt('b', T + H)]),
    ).record;
    expect(record.history.buckets).toEqual([
      { arrivals: 5, peak: 3 },
      { arrivals: 1, peak: 2, crowding: [1] },
    ]);
  });
});

describe('restart continuation', () => {
  it('counts nothing twice after the record went through its object', () => {
    const leases = [leaseAt('a', T + 1_000), leaseAt('b', T + 2_000)];
    const s = served('a', T + 1_000, T + 31_000, false);
    const start = { uid: 'e1', at: T + 500, ms: 40_000 };
    const before = recordPass(
      emptyRecord(T),
      observed(T + 40_000, leases, { served: [s], startups: [start] }),
    );
    const text = serializeDemand(before.record);
    const { record, findings } = parseDemand({ 'demand.json': text }, T + 50_000);
    expect(findings).toEqual([]);
    const after = recordPass(record, observed(T + 60_000, leases, { served: [s], startups: [start] }));
    expect(after.changes).toBe(0);
    expect(after.newServed).toEqual([]);
    expect(after.newStartups).toEqual([]);
    expect(buckets(after.record)).toEqual([[2, 2]]);
    // Crowding too: the arrivals kept went through the object, so the next one finds them.
    expect(after.record.recentArrivals).toEqual([T + 1_000, T + 2_000]);
    // A lease created after the restart counts, and finds the two before it within its window (the
    // startup of 40 s): they came through the object.
    const third = recordPass(after.record, observed(T + 70_000, [...leases, leaseAt('c', T + 30_000)]));
    expect(third.record.history.buckets[0]!.arrivals).toBe(3);
    expect(third.record.history.buckets[0]!.crowding).toEqual([1, 1, 1]);
  });
});

describe('startups and served leases', () => {
  it('keep the last 50 startups, each instance once, and their p95', () => {
    let record = emptyRecord(T);
    for (let i = 0; i < 60; i++) {
      const sample = { uid: `e${i}`, at: T + i * 1_000, ms: (i + 1) * 1_000 };
      record = recordPass(record, observed(T + i * 1_000, [], { startups: [sample, sample] })).record;
    }
    expect(record.startups).toHaveLength(MAX_STARTUPS);
    expect(record.startups[0]!.uid).toBe('e10');
    // Nearest rank over 11..60 s: the 48th value.
    expect(startupP95Ms(record)).toBe(58_000);
    // One dropped is older than every one kept: seen again, it is not taken.
    const again = recordPass(record, observed(T + 61_000, [], { startups: [{ uid: 'e0', at: T, ms: 1 }] }));
    expect(again.newStartups).toEqual([]);
  });

  it('keep the served leases of the window, at most 1000, each once', () => {
    const now = T + 30 * H;
    const old = served('old', T, T + 1_000, true);
    const recent = served('recent', now - H, now - H + 5_000, false);
    const first = recordPass(emptyRecord(now), observed(now, [], { served: [old, recent, recent] }));
    expect(first.newServed.map((s) => s.uid)).toEqual(['recent']);
    expect(first.record.served.map((s) => s.uid)).toEqual(['recent']);
    const many = Array.from({ length: MAX_SERVED + 5 }, (_, i) =>
      served(`l${i}`, now - 1000 + i, now - 1000 + i, true),
    );
    const full = recordPass(first.record, observed(now, [], { served: many })).record;
    expect(full.served).toHaveLength(MAX_SERVED);
    // A day later, all of them have left the window.
    expect(recordPass(full, observed(now + 26 * H)).record.served).toEqual([]);
  });
});
