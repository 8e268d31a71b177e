/**
 * §3.19 bounds on the status read back: whatever a status field holds, a pass plans, recomputes the
 * field and reports it; it never throws.
 */
import { describe, expect, it } from '@jest/globals';
import { EventReasons, ExporterSetStatusBounds } from 'virtual-exporters/internal';
import { plan, readStatus } from '../../src/planner';
import { at, instance, lease, makeSet, namesOf, snapshot, T0 } from './builders';

const WEIRD: readonly unknown[] = [
  2 ** 53 - 1,
  '9223372036854775807',
  2 ** 63,
  -1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '3',
  {},
  [],
  null,
  true,
  { nested: { deep: [1, 2, 3] } },
];

const corrected = (events: readonly { reason: string; message: string }[], field: string) =>
  events.filter((e) => e.reason === EventReasons.StatusCorrected && e.message.startsWith(`status.${field} `));

describe('§3.19 status read back', () => {
  it.each(WEIRD.map((v) => [JSON.stringify(v) ?? String(v), v]))(
    'status.nextOrdinal %s is recomputed from the names in use and reported',
    (_, value) => {
      const set = makeSet({ minReplicas: 3 }, { status: { nextOrdinal: value as number } });
      const result = plan(snapshot({ set, instances: [instance(4, 'available')] }));
      expect(namesOf(result, 'CreateExporter')).toEqual(['pool-5', 'pool-6']);
      expect(result.status?.nextOrdinal).toBe(7);
      const events = corrected(result.events, 'nextOrdinal');
      expect(events).toHaveLength(1);
      expect(events[0].message).toContain('recomputed from the names in use: 5');
    },
  );

  it('a nextOrdinal at the bound is kept, one past it is not', () => {
    const max = ExporterSetStatusBounds.nextOrdinal;
    expect(readStatus({ nextOrdinal: max }, T0).corrections).toEqual([]);
    expect(readStatus({ nextOrdinal: max + 1 }, T0).corrections.map((c) => c.field)).toEqual([
      'status.nextOrdinal',
    ]);
  });

  it.each(WEIRD.map((v) => [JSON.stringify(v) ?? String(v), v]))(
    'every read-back field holding %s: the pass plans and never throws',
    (_, value) => {
      const status = {
        nextOrdinal: value,
        startupFailures: value,
        lastStartupFailureTime: value,
        scaleDownWindowStart: value,
        scaleDownTarget: value,
        templateRevision: value,
        conditions: value,
      };
      const set = makeSet({ minAvailableReplicas: 1 }, { status: status as never });
      const result = plan(
        snapshot({ set, instances: [instance(0, 'available'), instance(1, 'failed')], leases: [lease('l')] }),
      );
      expect(result.status).toBeDefined();
      expect(Number.isSafeInteger(result.status?.nextOrdinal)).toBe(true);
      expect(Number.isSafeInteger(result.status?.startupFailures)).toBe(true);
      expect(Array.isArray(result.status?.conditions)).toBe(true);
    },
  );

  it.each(WEIRD.map((v) => [JSON.stringify(v) ?? String(v), v]))(
    'a status that is %s is recomputed',
    (_, value) => {
      const set = { ...makeSet({ minReplicas: 1 }), status: value as never };
      const result = plan(snapshot({ set }));
      expect(namesOf(result, 'CreateExporter')).toEqual(['pool-0']);
    },
  );

  it('clamps counts and times, and names the field, the value and what is used instead', () => {
    const read = readStatus(
      {
        startupFailures: 1e30,
        lastStartupFailureTime: at(3_600_000),
        scaleDownWindowStart: 'yesterday',
        templateRevision: 'x'.repeat(64),
      },
      T0,
    );
    expect(read.status).toMatchObject({
      startupFailures: ExporterSetStatusBounds.startupFailures,
      lastStartupFailureTime: at(0),
    });
    expect(read.status?.scaleDownWindowStart).toBeUndefined();
    expect(read.status?.templateRevision).toBeUndefined();
    expect(read.corrections).toEqual([
      {
        field: 'status.startupFailures',
        value: '1e+30',
        used: `above ${ExporterSetStatusBounds.startupFailures}; ${ExporterSetStatusBounds.startupFailures} is used`,
      },
      {
        field: 'status.lastStartupFailureTime',
        value: JSON.stringify(at(3_600_000)),
        used: `in the future by this controller's clock; now (${at(0)}) is used`,
      },
      { field: 'status.scaleDownWindowStart', value: '"yesterday"', used: 'not a timestamp; it is dropped' },
      {
        field: 'status.templateRevision',
        value: `"${'x'.repeat(64)}"`,
        used: 'not a label value; recomputed from the template',
      },
    ]);
  });

  it('a valid status is read as it is, with nothing reported', () => {
    const status = { nextOrdinal: 4, startupFailures: 2, lastStartupFailureTime: at(-1_000), conditions: [] };
    expect(readStatus(status, T0)).toEqual({ status, corrections: [] });
  });
});

describe('§3.19 a count without a time', () => {
  it('status.startupFailures without lastStartupFailureTime is cleared by a ready instance', () => {
    const set = makeSet(
      { minAvailableReplicas: 1, minReplicas: 2, maxReplicas: 2 },
      { status: { startupFailures: 1_000_000 } },
    );
    const result = plan(
      snapshot({
        set,
        instances: [instance(0, 'available'), instance(1, 'available')],
        leases: [lease('l')],
      }),
    );
    expect(result.status?.startupFailures).toBe(0);
  });
});
