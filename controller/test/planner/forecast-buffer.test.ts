import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { ExporterSetSpec } from 'virtual-exporters/internal';
import { plan, type PlannerSnapshot } from '../../src/planner';
import { DEMAND_MAX_BUCKETS, type DemandBucket, type DemandHistory } from '../../src/planner';
import { DEFAULT_FORECAST_LEAD_MS, HOUR_MS, WEEK_MS } from '../../src/planner/demand/forecast';
import { forecastWarmBuffer } from '../../src/planner/demand/forecast-buffer';
import { T0, instance, lease, makeSet, ofType, snapshot, type Shape } from './builders';

const MINUTE = 60_000;
/** T0 is 12:00; the forecast peak is the 13:00 hour (recorded one and two weeks before). */
const PEAK_HOUR = T0 + HOUR_MS;

/** 15 days of hours up to the one holding T0, quiet but for `peaks` (by hour start). */
function historyWith(peaks: ReadonlyMap<number, DemandBucket>): DemandHistory {
  const start = T0 - (DEMAND_MAX_BUCKETS - 1) * HOUR_MS;
  return {
    intervalMs: HOUR_MS,
    start,
    buckets: Array.from(
      { length: DEMAND_MAX_BUCKETS },
      (_, i) => peaks.get(start + i * HOUR_MS) ?? { arrivals: 0, peak: 0 },
    ),
  };
}

/** A peak of `peak` leases (and `arrivals`) in the 13:00 hour of the last two weeks. */
function peakAt13(peak: number, arrivals = peak): DemandHistory {
  const bucket = { peak, arrivals };
  return historyWith(
    new Map([
      [PEAK_HOUR - WEEK_MS, bucket],
      [PEAK_HOUR - 2 * WEEK_MS, bucket],
    ]),
  );
}

function forecastSnapshot(
  spec: Partial<ExporterSetSpec>,
  input: {
    history?: DemandHistory;
    now?: number;
    startupP95Ms?: number;
    shapes?: readonly Shape[];
    leased?: number;
    status?: PlannerSnapshot['set']['status'];
  } = {},
): PlannerSnapshot {
  const shapes = input.shapes ?? [];
  return {
    ...snapshot({
      set: makeSet(spec, input.status ? { status: input.status } : {}),
      instances: shapes.map((shape, i) => instance(i, shape)),
      leases: Array.from({ length: input.leased ?? 0 }, (_, i) => lease(`l${i}`, { exporter: `pool-${i}` })),
      now: input.now ?? 55 * MINUTE,
    }),
    ...(input.history ? { demandHistory: input.history } : {}),
    ...(input.startupP95Ms !== undefined ? { startupP95Ms: input.startupP95Ms } : {}),
  };
}

/** The creates of instances with a Pod (an empty pool's standby, §3.6, is there whatever the buffer). */
const warmCreates = (p: ReturnType<typeof plan>) => ofType(p, 'CreateExporter').filter((c) => !c.standby);
const creates = (snap: PlannerSnapshot) => warmCreates(plan(snap));
const withoutForecast = (p: ReturnType<typeof plan>) => {
  const { forecast: _, ...status } = p.status ?? ({} as NonNullable<typeof p.status>);
  return { actions: p.actions, status };
};

const forecastCase = fc.record({
  peak: fc.nat(20),
  arrivals: fc.nat(200),
  minAvailable: fc.nat(5),
  minReplicas: fc.nat(3),
  maxReplicas: fc.nat(12),
  maxExtra: fc.option(fc.nat(6), { nil: undefined }),
  pool: fc.array(fc.constantFrom<Shape>('available', 'starting', 'offline'), { maxLength: 12 }),
  leased: fc.nat(4),
  minutes: fc.integer({ min: 0, max: 180 }),
});

/** Apply against Off and ForecastOnly for one random world: the ceiling, removals and creates. */
function checkForecastCase(c: typeof forecastCase extends fc.Arbitrary<infer C> ? C : never): void {
  const max = c.maxReplicas === 0 ? 0 : Math.max(c.maxReplicas, c.minAvailable, c.minReplicas);
  const base = { minAvailableReplicas: c.minAvailable, minReplicas: c.minReplicas, maxReplicas: max };
  const pool = c.pool.map((s, i) => (i < c.leased ? 'available' : s));
  const input = {
    history: peakAt13(c.peak, c.arrivals),
    shapes: pool,
    leased: Math.min(c.leased, pool.length),
    now: c.minutes * MINUTE,
  };
  const forecast = (mode: 'Off' | 'ForecastOnly' | 'Apply') =>
    plan(
      forecastSnapshot(
        {
          ...base,
          forecast: { mode, ...(c.maxExtra !== undefined ? { maxExtra: c.maxExtra } : {}) },
        },
        input,
      ),
    );
  const off = forecast('Off');
  const only = forecast('ForecastOnly');
  const apply = forecast('Apply');
  expect(withoutForecast(only)).toEqual(withoutForecast(off));
  if (max > 0) {
    // Counted as the ceiling counts (§3.4): an instance with a Pod against the whole pool; a Pod-less
    // standby only against the instances the plan keeps (SPEC §2: it may stand beyond the ceiling
    // while the ones filling it leave).
    const created = ofType(apply, 'CreateExporter');
    const withPod = created.filter((c) => !c.standby).length;
    if (withPod > 0) expect(pool.length + withPod).toBeLessThanOrEqual(Math.max(max, pool.length));
    const leaving = new Set(
      [...ofType(apply, 'DisableExporter'), ...ofType(apply, 'DeleteExporter')].map((a) => a.name),
    );
    const kept = pool.length - leaving.size;
    expect(kept + created.length).toBeLessThanOrEqual(Math.max(max, kept));
  }
  expect(ofType(apply, 'DeleteExporter').length).toBeLessThanOrEqual(ofType(off, 'DeleteExporter').length);
  expect(ofType(apply, 'DisableExporter').length).toBeLessThanOrEqual(ofType(off, 'DisableExporter').length);
  expect(ofType(apply, 'CreateExporter').length).toBeGreaterThanOrEqual(ofType(off, 'CreateExporter').length);
  const buffer = apply.status?.forecast?.warmBuffer ?? 0;
  if (c.maxExtra !== undefined) expect(buffer).toBeLessThanOrEqual(c.minAvailable + c.maxExtra);
  if (max > 0) expect(buffer).toBeLessThanOrEqual(max);
}

describe('forecast warm buffer: the caps', () => {
  it.each([
    ['the forecast’s buffer', 8, {}, 8],
    ['capped by maxReplicas', 30, { maxReplicas: 12 }, 12],
    ['maxReplicas 0 is no ceiling', 30, { maxReplicas: 0 }, 30],
    ['capped by minAvailable + maxExtra', 30, { maxExtra: 3 }, 5],
    ['never negative', -2, {}, 0],
  ])('%s', (_, forecast, caps, buffer) => {
    const { maxExtra, ...spec } = { minAvailable: 2, maxReplicas: 40, ...caps } as {
      minAvailable: number;
      maxReplicas: number;
      maxExtra?: number;
    };
    expect(forecastWarmBuffer(forecast, spec, maxExtra)).toBe(buffer);
  });
});

describe('forecast warm buffer in the planner', () => {
  // Six leases at once at 13:00, recorded without crowding (its peak taken as arriving at once).
  const history = peakAt13(6, 1);

  it('Off (the default) is today: the history changes nothing and the status has no forecast', () => {
    const off = plan(forecastSnapshot({}, { history }));
    const none = plan(forecastSnapshot({}));
    expect(off.actions).toEqual(none.actions);
    expect(off.status).toEqual(none.status);
    expect(off.status?.forecast).toBeUndefined();
    expect(plan(forecastSnapshot({ forecast: { mode: 'Off', maxExtra: 2 } }, { history })).status).toEqual(
      none.status,
    );
  });

  it('ForecastOnly reports the forecast and changes nothing else', () => {
    const only = plan(forecastSnapshot({ forecast: { mode: 'ForecastOnly' } }, { history }));
    const off = plan(forecastSnapshot({}, { history }));
    expect(withoutForecast(only)).toEqual(withoutForecast(off));
    expect(only.status?.forecast).toEqual({
      mode: 'ForecastOnly',
      at: new Date(T0 + 55 * MINUTE).toISOString(),
      expectedPeak: 6,
      warmBuffer: 6,
      applied: false,
    });
  });

  it('Apply raises the buffer a lead time before the forecast peak, and not earlier', () => {
    const spec = { forecast: { mode: 'Apply' as const } };
    const early = plan(forecastSnapshot(spec, { history, now: 30 * MINUTE }));
    expect(warmCreates(early)).toEqual([]);
    expect(early.status?.forecast).toMatchObject({ expectedPeak: 0, warmBuffer: 0, applied: false });
    // It looks again when the horizon reaches 13:00: the default lead before it.
    expect(early.requeueAfterMs).toBe(HOUR_MS - DEFAULT_FORECAST_LEAD_MS - 30 * MINUTE);
    const due = plan(forecastSnapshot(spec, { history, now: HOUR_MS - DEFAULT_FORECAST_LEAD_MS }));
    expect(warmCreates(due).map((c) => c.reason)).toEqual(Array(6).fill('warm-buffer'));
    expect(due.status?.forecast).toMatchObject({ expectedPeak: 6, warmBuffer: 6, applied: true });
  });

  it('the lead time is the measured startup p95 when known', () => {
    const spec = { forecast: { mode: 'Apply' as const } };
    expect(
      creates(forecastSnapshot(spec, { history, now: 30 * MINUTE, startupP95Ms: 40 * MINUTE })),
    ).toHaveLength(6);
    expect(
      creates(forecastSnapshot(spec, { history, now: 30 * MINUTE, startupP95Ms: 20 * MINUTE })),
    ).toHaveLength(0);
  });

  it('never above the ceiling; maxExtra caps the raise over the spec', () => {
    const capped = plan(forecastSnapshot({ maxReplicas: 4, forecast: { mode: 'Apply' } }, { history }));
    expect(warmCreates(capped)).toHaveLength(4);
    expect(capped.status?.forecast).toMatchObject({ warmBuffer: 4, applied: true });
    const extra = plan(
      forecastSnapshot({ minAvailableReplicas: 1, forecast: { mode: 'Apply', maxExtra: 2 } }, { history }),
    );
    expect(warmCreates(extra)).toHaveLength(3);
    expect(extra.status?.forecast).toMatchObject({ expectedPeak: 6, warmBuffer: 3, applied: true });
  });

  it('a buffer at or below the spec applies nothing', () => {
    const p = plan(forecastSnapshot({ minAvailableReplicas: 6, forecast: { mode: 'Apply' } }, { history }));
    expect(p.status?.forecast).toMatchObject({ warmBuffer: 6, applied: false });
  });

  it('leases held do not lower the buffer: it is kept for the leases still to come', () => {
    // An instance taken by a lease is no longer idle (under ExitAndReplace it leaves with the lease):
    // the six that may come at once in the hour each need one of their own.
    const p = plan(
      forecastSnapshot(
        { forecast: { mode: 'Apply' } },
        { history, shapes: Array(4).fill('available'), leased: 4 },
      ),
    );
    expect(warmCreates(p)).toHaveLength(6);
  });

  it('a falling forecast scales nothing in: the surplus waits for the cooldown, as with Off', () => {
    // 14:00: the peak hour is over; six idle instances are surplus.
    const shapes: Shape[] = Array(6).fill('available');
    const after = { history, shapes, now: HOUR_MS * 2 };
    const apply = plan(forecastSnapshot({ forecast: { mode: 'Apply' } }, after));
    const off = plan(forecastSnapshot({}, after));
    expect(withoutForecast(apply)).toEqual(withoutForecast(off));
    expect(ofType(apply, 'DeleteExporter')).toEqual([]);
    expect(ofType(apply, 'DisableExporter')).toEqual([]);
    expect(apply.status?.scaleDownWindowStart).toBeDefined();
  });

  it('a pool warmed for the peak: held while the peak is forecast, then the cooldown decides', () => {
    const shapes: Shape[] = Array(6).fill('available');
    const spec = { forecast: { mode: 'Apply' as const } };
    // 13:30, in the peak hour: six idle instances are the raised buffer, no surplus, no window.
    const during = plan(forecastSnapshot(spec, { history, shapes, now: HOUR_MS + 30 * MINUTE }));
    expect(during.status?.scaleDownWindowStart).toBeUndefined();
    expect(during.actions.filter((a) => a.type !== 'AddFinalizer')).toEqual([]);
    // 14:00: the raise is gone; the surplus window opens and nothing leaves yet.
    const after = plan(forecastSnapshot(spec, { history, shapes, now: 2 * HOUR_MS, status: during.status }));
    expect(ofType(after, 'DisableExporter')).toEqual([]);
    expect(after.status?.scaleDownWindowStart).toBe(new Date(T0 + 2 * HOUR_MS).toISOString());
    // One cooldown (5m) later the surplus leaves, exactly as with the forecast Off.
    const later = { history, shapes, now: 2 * HOUR_MS + 5 * MINUTE, status: after.status };
    const apply = plan(forecastSnapshot(spec, later));
    const off = plan(forecastSnapshot({}, later));
    expect(ofType(apply, 'DisableExporter').length + ofType(apply, 'DeleteExporter').length).toBeGreaterThan(
      0,
    );
    expect(withoutForecast(apply).actions).toEqual(withoutForecast(off).actions);
  });

  it('without a history the status says so, and nothing is raised', () => {
    const p = plan(forecastSnapshot({ forecast: { mode: 'Apply' } }));
    expect(warmCreates(p)).toEqual([]);
    expect(p.status?.forecast).toEqual({
      mode: 'Apply',
      at: new Date(T0 + 55 * MINUTE).toISOString(),
      applied: false,
      message: 'no demand history is recorded yet',
    });
  });

  it('an unchanged forecast keeps its time: the status does not churn', () => {
    const spec = { forecast: { mode: 'ForecastOnly' as const } };
    const first = plan(forecastSnapshot(spec, { history, now: 50 * MINUTE }));
    const second = plan(forecastSnapshot(spec, { history, now: 52 * MINUTE, status: first.status }));
    expect(second.status?.forecast).toEqual(first.status?.forecast);
    // A changed value is a new forecast, with its own time.
    const changed = plan(
      forecastSnapshot(spec, {
        history,
        now: 52 * MINUTE,
        status: first.status,
        leased: 0,
        startupP95Ms: MINUTE,
      }),
    );
    expect(changed.status?.forecast?.at).toBe(new Date(T0 + 52 * MINUTE).toISOString());
  });

  it('property: with every rule, Apply never exceeds the ceiling and deletes no more than Off; ForecastOnly equals Off', () => {
    fc.assert(fc.property(forecastCase, checkForecastCase), { numRuns: 150 });
  });

  // fast-check seed 558872141, path 14:0:0:0:0:1:1:2:1:4:3:3:3:3:3:3:3:4: the instance stuck starting
  // fails its startup timeout and leaves, disabled first; a Pod-less standby takes its place (§3.6),
  // which the property had counted as a second instance under maxReplicas 1.
  it('a pool of one instance stuck starting at maxReplicas 1 gets a standby in its place, nothing that runs', () => {
    checkForecastCase({
      peak: 0,
      arrivals: 0,
      minAvailable: 0,
      minReplicas: 0,
      maxReplicas: 1,
      maxExtra: undefined,
      pool: ['starting'],
      leased: 0,
      minutes: 1,
    });
  });
});
