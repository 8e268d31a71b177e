/**
 * Idle is quiet (SPEC §3.15): once a pool has settled, the controller makes no API
 * writes at all — no status rewrite, no patch, no event — over a long stretch of cluster time, while
 * Jumpstarter keeps updating the Exporters' status.
 */
import { describe, expect, it } from '@jest/globals';
import {
  CONTROLLER,
  createClass,
  createSet,
  getSet,
  scenarioPerTest,
  until,
  writesWhenSettled,
} from './support';

const startScenario = scenarioPerTest();

describe('§3.15: an idle pool', () => {
  it('makes zero API writes over a settled period', async () => {
    const scenario = await startScenario({ speedUp: 50 });
    const { cluster } = scenario;
    createClass(cluster);
    createSet(cluster, 'idle', { minAvailableReplicas: 2, minReplicas: 1, scaleDownCooldown: '2s' });
    const status = () => getSet(cluster, 'idle')?.status;
    await until('a settled pool', () => status()?.availableReplicas === 2 && status()?.replicas === 2);
    // The last status write and its events land, then nothing more for 200 ms (10 s of cluster time).
    const readsBefore = cluster.counters.total({ identity: CONTROLLER });
    // Two minutes of cluster time (2.4 s real at 50×): Exporter status updates, lease checks, resyncs.
    expect(await writesWhenSettled(cluster, 120_000, 10_000)).toBe(0);
    // The controller still watches (reads go on), it just has nothing to write.
    expect(cluster.counters.total({ identity: CONTROLLER })).toBeGreaterThanOrEqual(readsBefore);
    expect(status()?.replicas).toBe(2);
  });
});
