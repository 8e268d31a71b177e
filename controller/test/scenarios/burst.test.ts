/**
 * A burst from zero (SPEC §3.5, §3.10): `minAvailableReplicas: 100` is reached in
 * slow-start batches with never more than `--max-burst` Exporter creates in flight at the API server,
 * and with exactly 100 creates — no twins, no name used twice.
 */
import { describe, expect, it } from '@jest/globals';
import { instanceOrdinal } from 'virtual-exporters/internal';
import { CONTROLLER, createClass, createSet, getSet, instancesOf, scenarioPerTest, until } from './support';

const startScenario = scenarioPerTest();

const MAX_BURST = 10;

describe('§3.5: burst', () => {
  it('reaches 100 from zero within --max-burst creates in flight and without twins', async () => {
    const { cluster } = await startScenario({ speedUp: 20, controller: { maxBurst: MAX_BURST } });
    // Creates take a while to answer, so the ones a controller sends together really overlap.
    cluster.faults.add({ kind: 'latency', ms: 15, verb: 'create', resource: 'exporters' });
    const inFlight = cluster.counters.trackConcurrency({
      identity: CONTROLLER,
      verb: 'create',
      resource: 'exporters',
    });
    createClass(cluster);
    createSet(cluster, 'burst', { minAvailableReplicas: 100, maxReplicas: 100 });
    const status = () => getSet(cluster, 'burst')?.status;
    await until('100 available', () => status()?.availableReplicas === 100, 40_000);
    inFlight.stop();

    expect(inFlight.peak).toBeLessThanOrEqual(MAX_BURST);
    expect(inFlight.peak).toBeGreaterThan(1); // it did burst, in batches
    const created = cluster.counters.totalWithCode(201, {
      identity: CONTROLLER,
      verb: 'create',
      resource: 'exporters',
    });
    expect(created).toBe(100);
    const names = instancesOf(cluster, 'burst').map((e) => e.metadata!.name!);
    expect(new Set(names).size).toBe(100);
    expect(new Set(names.map((n) => instanceOrdinal('burst', n))).size).toBe(100);
    expect(status()?.replicas).toBe(100);
  });
});
