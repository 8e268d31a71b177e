/**
 * Forecast warm buffers (issue 17) on the test cluster: a set in mode Apply whose demand history shows
 * three leases at once in the same hour one and two weeks ago has those three instances Online when
 * that hour begins — warmed a lead time ahead (the p95 startup the record holds, 8 minutes), not
 * earlier — and reports it in status.forecast; the controller wakes for it with no event.
 */
import { describe, expect, it } from '@jest/globals';
import { DEMAND_INTERVAL_MS, DEMAND_MAX_BUCKETS, type DemandHistory } from '../../src/planner';
import { WEEK_MS } from '../../src/planner/demand/forecast';
import type { TestCluster } from 'virtual-exporters-test-cluster';
import { demandObject } from '../../src/reconciler/demand/demand-config-map';
import { NS, createClass, createSet, getSet, scenarioPerTest, until, writesWhenSettled } from './support';

const startScenario = scenarioPerTest();
const HOUR = DEMAND_INTERVAL_MS;
const MINUTE = 60_000;
/** The startup p95 of the record the previous controller left: the lead time the forecast warms by. */
const LEAD_MS = 8 * MINUTE;

/** 15 days of hours up to the one holding `now`, quiet but for `peak` leases in `hour` 1 and 2 weeks back. */
function historyWithPeak(now: number, hour: number, peak: number): DemandHistory {
  const current = Math.floor(now / HOUR) * HOUR;
  const start = current - (DEMAND_MAX_BUCKETS - 1) * HOUR;
  const peaks = new Set([hour - WEEK_MS, hour - 2 * WEEK_MS]);
  return {
    intervalMs: HOUR,
    start,
    buckets: Array.from({ length: DEMAND_MAX_BUCKETS }, (_, i) =>
      peaks.has(start + i * HOUR) ? { arrivals: peak, peak } : { arrivals: 0, peak: 0 },
    ),
  };
}

/**
 * The class, the set and its demand object holding `history`, as a controller that ran before left
 * them: created before this controller starts, so its first pass reads the history back.
 */
function seedSet(
  cluster: TestCluster,
  name: string,
  forecast: { mode: 'Apply' | 'ForecastOnly' },
  history: DemandHistory,
): void {
  createClass(cluster);
  createSet(cluster, name, { minAvailableReplicas: 0, maxReplicas: 5, forecast });
  const set = getSet(cluster, name)!;
  const configMaps = cluster.registry.get('', 'v1', 'configmaps')!;
  // Its instances took 8 minutes to start (a real lab's boots; the test cluster's are quicker, and the
  // few this test starts do not move the p95 of 20).
  const startups = Array.from({ length: 20 }, (_, i) => ({
    uid: `earlier-${i}`,
    at: history.start + i * HOUR,
    ms: LEAD_MS,
  }));
  cluster.store.create(configMaps, NS, demandObject(set, { history, startups, served: [] }));
}

/**
 * A scenario whose set `name` (mode `mode`) has a forecast peak of 3 leases in `peakHour`: the next whole
 * hour at least the lead time and 5 minutes away. The controller's clock is the cluster's (no offset);
 * 1 real second is 150 cluster seconds.
 */
async function peakAhead(name: string, mode: 'Apply' | 'ForecastOnly') {
  const started = Date.now();
  let peakHour = Math.ceil(started / HOUR) * HOUR;
  if (peakHour - started < LEAD_MS + 5 * MINUTE) peakHour += HOUR;
  const history = historyWithPeak(started, peakHour, 3);
  const { cluster } = await startScenario({
    speedUp: 150,
    beforeController: (c) => seedSet(c, name, { mode }, history),
  });
  return {
    cluster,
    peakHour,
    now: () => cluster.clocks.controller.now(),
    status: () => getSet(cluster, name)?.status,
  };
}

describe('forecast mode Apply', () => {
  it('has the forecast peak warm when its hour begins, warming a lead time ahead', async () => {
    const { cluster, peakHour, now, status } = await peakAhead('ahead', 'Apply');

    await until('the forecast in status', () => status()?.forecast);
    expect(status()?.forecast).toMatchObject({
      mode: 'Apply',
      expectedPeak: 0,
      warmBuffer: 0,
      applied: false,
    });

    // Until the lead time before the peak hour, nothing is warmed.
    const warmFrom = peakHour - LEAD_MS;
    await until('two minutes before the warming', () => now() >= warmFrom - 2 * MINUTE, 60_000);
    expect(status()?.availableReplicas ?? 0).toBe(0);
    expect(status()?.forecast?.applied).toBe(false);

    // Then the buffer is raised, and the three instances are Online before the hour begins.
    const warm = await until(
      'three warm instances',
      () => ((status()?.availableReplicas ?? 0) >= 3 ? now() : false),
      60_000,
    );
    expect(warm).toBeGreaterThanOrEqual(warmFrom);
    expect(warm).toBeLessThan(peakHour);
    expect(status()?.forecast).toMatchObject({
      mode: 'Apply',
      expectedPeak: 3,
      warmBuffer: 3,
      applied: true,
    });
    // A steady forecast writes nothing (its time is kept while its values stay).
    expect(await writesWhenSettled(cluster, 5 * MINUTE)).toBe(0);
  }, 120_000);
});

describe('forecast mode ForecastOnly', () => {
  it('shows the buffer the forecast would set and changes nothing', async () => {
    const { peakHour, now, status } = await peakAhead('shown', 'ForecastOnly');

    await until('the forecast of the peak', () => status()?.forecast?.warmBuffer === 3, 60_000);
    expect(now()).toBeGreaterThanOrEqual(peakHour - LEAD_MS);
    expect(status()?.forecast).toMatchObject({ mode: 'ForecastOnly', expectedPeak: 3, applied: false });
    await until('the peak hour', () => now() >= peakHour + MINUTE, 60_000);
    expect(status()?.availableReplicas ?? 0).toBe(0);
    expect(status()?.standbyReplicas).toBe(1);
  }, 120_000);
});
