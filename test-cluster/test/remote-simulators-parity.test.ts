/**
 * One scenario, written once against `AnyLeaseClient` (every call awaited), run with the in-process
 * simulators and with the remote ones over the test cluster's URL: the outcome must be the same.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { startTestCluster } from '../src';
import { client, NS, serveOneLease, startRemoteWorld } from './remote-support';

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

describe('remote simulators › one lease client for both modes', () => {
  it('serves the same lease with the same outcome in process and over HTTP', async () => {
    const inProcess = await startTestCluster({ namespaces: [NS], jumpstarter: true, kubelet: true });
    stops.push(() => inProcess.stop());
    const local = await serveOneLease(
      inProcess.jumpstarter!.leases,
      client(inProcess.kubeConfigFor('controller', NS)),
    );

    const world = await startRemoteWorld('simulators');
    stops.push(() => world.stop());
    const remote = await serveOneLease(world.sims.jumpstarter!.leases, world.api);

    expect(remote).toEqual(local);
    expect(local).toMatchObject({
      assignedTo: 'pool-0',
      ended: [true, 'False/Released'],
      pod: ['Succeeded', 'PodCompleted'],
    });
  });
});
