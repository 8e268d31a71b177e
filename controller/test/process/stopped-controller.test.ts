/**
 * A stopped controller leaves nothing of itself alive in the process: tests and the simulation start
 * hundreds of controllers in one process, and anything one of them leaves registered process-wide (a
 * metric collector, a timer, an observer) keeps it, its caches and its cluster in memory for good.
 */
import { describe, expect, it } from '@jest/globals';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startTestCluster } from 'virtual-exporters-test-cluster';
import { createClass, createSet, getSet, launchController, NS, until } from '../scenarios/support';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Runs a controller over a small pool, stops it and its cluster; returns weak references to both. */
async function runAndStop(): Promise<Record<'manager' | 'metrics' | 'cluster', WeakRef<object>>> {
  const cluster = await startTestCluster({ namespaces: [NS], speedUp: 20 });
  const manager = await launchController(cluster, 'controller', { metricsBindAddress: '127.0.0.1:0' });
  createClass(cluster);
  createSet(cluster, 'pool', { minAvailableReplicas: 1 });
  await until('a status', () => getSet(cluster, 'pool')?.status !== undefined);
  await manager.stop();
  await cluster.stop();
  return {
    manager: new WeakRef(manager),
    metrics: new WeakRef(manager.metrics),
    cluster: new WeakRef(cluster),
  };
}

describe('a stopped controller', () => {
  it('is collected, with its metrics and its cluster, once nothing refers to it', async () => {
    const refs = await runAndStop();
    // Finalization needs a few turns of the event loop besides the collection.
    const alive = () =>
      Object.entries(refs)
        .filter(([, ref]) => ref.deref() !== undefined)
        .map(([name]) => name);
    for (let i = 0; i < 20 && alive().length > 0; i++) {
      await new Promise((done) => setTimeout(done, 10));
      gc();
    }
    expect(alive()).toEqual([]);
  });
});
