/**
 * The demand history's ConfigMap read defensively: a malformed or hostile object (bad JSON, huge
 * arrays, negative numbers, wrong types, deep nesting, times in the future) never throws, gives a
 * bounded record, and a finding that names the field.
 */
import { describe, expect, it } from '@jest/globals';
import { DEMAND_MAX_BUCKETS, MAX_SERVED, MAX_STARTUPS, emptyRecord } from '../../../src/planner';
import {
  DEMAND_DATA_KEY,
  MAX_DEMAND_TEXT,
  demandObject,
  isSetsObject,
  parseDemand,
  serializeDemand,
} from '../../../src/reconciler/demand/demand-config-map';
import { makeSet } from '../../planner/builders';

const H = 3_600_000;
const NOW = Date.parse('2026-03-02T10:30:00.000Z');
const HOUR = Date.parse('2026-03-02T10:00:00.000Z');
const valid = {
  version: 1,
  intervalMs: H,
  start: HOUR - 2 * H,
  buckets: [
    [1, 1],
    [0, 1],
    [3, 2],
  ],
  lastArrival: { at: HOUR + 60_000, uids: ['a'] },
  startups: [['e1', HOUR, 30_000]],
  served: [['l1', HOUR, HOUR + 5_000, 1]],
};
const data = (value: unknown) => ({
  [DEMAND_DATA_KEY]: typeof value === 'string' ? value : JSON.stringify(value),
});

describe('the demand object', () => {
  it('round-trips a record', () => {
    const { record, findings } = parseDemand(data(valid), NOW);
    expect(findings).toEqual([]);
    expect(record.history).toEqual({
      intervalMs: H,
      start: HOUR - 2 * H,
      buckets: [
        { arrivals: 1, peak: 1 },
        { arrivals: 0, peak: 1 },
        { arrivals: 3, peak: 2 },
      ],
    });
    expect(record.served).toEqual([{ uid: 'l1', name: '', created: HOUR, begin: HOUR + 5_000, warm: true }]);
    expect(parseDemand({ [DEMAND_DATA_KEY]: serializeDemand(record) }, NOW).record).toEqual(record);
  });

  it('reads a record written before crowding was counted (no crowding list): buckets without it', () => {
    const { record, findings } = parseDemand(data(valid), NOW);
    expect(findings).toEqual([]);
    expect(record.history.buckets.every((b) => b.crowding === undefined)).toBe(true);
    expect(record.recentArrivals).toBeUndefined();
    // Written again, it stays an old-shape record: nothing made up for the hours already recorded.
    expect(JSON.parse(serializeDemand(record))).not.toHaveProperty('crowding');
  });

  it('round-trips crowding and the recent arrivals, and an older controller’s fields read as before', () => {
    const withCrowding = {
      ...valid,
      crowding: [[1], null, [1, 1, 0, 1]],
      recent: [HOUR + 30_000, HOUR + 60_000],
    };
    const { record, findings } = parseDemand(data(withCrowding), NOW);
    expect(findings).toEqual([]);
    expect(record.history.buckets).toEqual([
      { arrivals: 1, peak: 1, crowding: [1] },
      { arrivals: 0, peak: 1 },
      { arrivals: 3, peak: 2, crowding: [1, 1, 0, 1] },
    ]);
    expect(record.recentArrivals).toEqual([HOUR + 30_000, HOUR + 60_000]);
    const written = JSON.parse(serializeDemand(record));
    // The buckets keep their [arrivals, peak] pairs: a controller that knows no crowding reads them.
    expect(written.buckets).toEqual(valid.buckets);
    expect(written.crowding).toEqual(withCrowding.crowding);
    expect(parseDemand({ [DEMAND_DATA_KEY]: serializeDemand(record) }, NOW).record).toEqual(record);
  });

  it('is the set’s: named after it, labelled, controlled by it, without credentials', () => {
    const set = makeSet();
    const object = demandObject(set, emptyRecord(NOW));
    expect(object.metadata).toMatchObject({
      name: 'pool-demand',
      namespace: 'lab',
      labels: { 'exporterset.jumpstarter.dev/name': 'pool' },
      ownerReferences: [{ kind: 'ExporterSet', name: 'pool', uid: 'uid-pool', controller: true }],
    });
    expect(Object.keys(object.data)).toEqual([DEMAND_DATA_KEY]);
    expect(isSetsObject(object, set)).toBe(true);
    expect(isSetsObject({ metadata: { ownerReferences: [{ uid: 'uid-pool' }] } }, set)).toBe(false);
    expect(isSetsObject({ metadata: {} }, set)).toBe(false);
  });

  const hostile: [string, unknown, string][] = [
    ['bad JSON', '{"version": 1, "buckets": [', `data["${DEMAND_DATA_KEY}"]`],
    ['a JSON array', [], `data["${DEMAND_DATA_KEY}"]`],
    ['another version', { ...valid, version: 2 }, '.version'],
    ['a string interval', { ...valid, intervalMs: '1h' }, '.intervalMs'],
    ['a negative start', { ...valid, start: -H }, '.start'],
    ['a start off the hour', { ...valid, start: HOUR + 1 }, '.start'],
    ['a history in the future', { ...valid, start: HOUR + 5 * H }, '.start'],
    ['buckets not an array', { ...valid, buckets: { 0: [1, 1] } }, '.buckets'],
    ['negative counts', { ...valid, buckets: [[-1, 2]] }, '.buckets'],
    ['fractional and huge counts', { ...valid, buckets: [[0.5, 1e12]] }, '.buckets'],
    ['wrong bucket types', { ...valid, buckets: [['1', null]] }, '.buckets'],
    [
      'a lastArrival in the future',
      { ...valid, lastArrival: { at: NOW + 10 * H, uids: [] } },
      '.lastArrival.at',
    ],
    [
      'lastArrival uids not strings',
      { ...valid, lastArrival: { at: HOUR, uids: [1, {}] } },
      '.lastArrival.uids',
    ],
    ['a startup with a negative time', { ...valid, startups: [['e', HOUR, -5]] }, '.startups'],
    ['a startup of a year', { ...valid, startups: [['e', HOUR, 365 * 24 * H]] }, '.startups'],
    ['a served lease begun next year', { ...valid, served: [['l', HOUR, NOW + 365 * 24 * H, 1]] }, '.served'],
    ['a served lease warm "yes"', { ...valid, served: [['l', HOUR, HOUR, 'yes']] }, '.served'],
    ['served not an array', { ...valid, served: 'all' }, '.served'],
    ['a uid too long', { ...valid, served: [['x'.repeat(500), HOUR, HOUR, 0]] }, '.served'],
    ['crowding not one entry per bucket', { ...valid, crowding: [[1]] }, '.crowding'],
    ['crowding not counting the bucket’s arrivals', { ...valid, crowding: [[1], [], [5]] }, '.crowding'],
    ['crowding entries not counts', { ...valid, crowding: [[1], null, [-1, 'x']] }, '.crowding'],
    ['crowding longer than its bound', { ...valid, crowding: [[1], null, Array(500).fill(0)] }, '.crowding'],
    ['recent arrivals not times', { ...valid, recent: ['x', -1, NOW + 10 * H] }, '.recent'],
    ['recent arrivals not an array', { ...valid, recent: 5 }, '.recent'],
  ];
  it.each(hostile)('drops %s, naming the field', (_, value, field) => {
    const { record, findings } = parseDemand(data(value), NOW);
    expect(findings.map((f) => f.field).join(' ')).toContain(field);
    expect(record.history.buckets.length).toBeGreaterThan(0);
    expect(record.history.buckets.length).toBeLessThanOrEqual(DEMAND_MAX_BUCKETS);
    for (const b of record.history.buckets) {
      expect(Number.isInteger(b.arrivals) && b.arrivals >= 0 && Number.isInteger(b.peak) && b.peak >= 0).toBe(
        true,
      );
    }
    expect(record.history.start + (record.history.buckets.length - 1) * H).toBeLessThanOrEqual(NOW);
    for (const s of record.served) expect(s.begin).toBeLessThanOrEqual(NOW + H);
  });

  it('cuts huge arrays to their bounds, keeping the newest', () => {
    const huge = {
      ...valid,
      start: HOUR - 999 * H,
      buckets: Array.from({ length: 1000 }, () => [1, 1]),
      startups: Array.from({ length: 5000 }, (_, i) => [`e${i}`, HOUR, 1_000]),
      served: Array.from({ length: 5_000 }, (_, i) => [`l${i}`, HOUR, HOUR, 0]),
    };
    const { record, findings } = parseDemand(data(huge), NOW);
    expect(record.history.buckets).toHaveLength(DEMAND_MAX_BUCKETS);
    expect(record.history.start).toBe(HOUR - (DEMAND_MAX_BUCKETS - 1) * H);
    expect(record.startups).toHaveLength(MAX_STARTUPS);
    expect(record.startups.at(-1)?.uid).toBe('e4999');
    expect(record.served).toHaveLength(MAX_SERVED);
    expect(findings.map((f) => f.field)).toEqual(
      expect.arrayContaining([`data["${DEMAND_DATA_KEY}"].buckets`, `data["${DEMAND_DATA_KEY}"].served`]),
    );
  });

  it('does not read text beyond its bound, nor choke on deep nesting', () => {
    const long = parseDemand({ [DEMAND_DATA_KEY]: ' '.repeat(MAX_DEMAND_TEXT + 1) }, NOW);
    expect(long.findings[0]?.problem).toContain('characters');
    const depth = 200_000;
    const deep = parseDemand({ [DEMAND_DATA_KEY]: '['.repeat(depth) + ']'.repeat(depth) }, NOW);
    expect(deep.findings).toHaveLength(1);
    const nested = parseDemand(data({ ...valid, buckets: [[[[[[1]]]]]] }), NOW);
    expect(nested.record.history.buckets).toEqual([{ arrivals: 0, peak: 0 }]);
  });

  it('reads absent data as an empty record, and data of the wrong type as a finding', () => {
    expect(parseDemand(undefined, NOW).findings).toEqual([]);
    expect(parseDemand({}, NOW).record.history.buckets).toEqual([{ arrivals: 0, peak: 0, crowding: [] }]);
    expect(parseDemand({ [DEMAND_DATA_KEY]: 42 }, NOW).findings[0]?.problem).toBe('not a string');
  });
});
