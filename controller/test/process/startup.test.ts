/**
 * Starting the manager on addresses it cannot listen on: the start fails with the flag, the address
 * and the reason (main.ts prints that line and exits 1), and nothing it opened stays open.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:net';
import { startManager } from '../../src/manager';
import { ListenError } from '../../src/process/http-server';
import { startTestCluster, type TestCluster } from 'virtual-exporters-test-cluster';
import { controllerOptions, NS } from '../scenarios/support';

let cluster: TestCluster | undefined;
let taken: Server | undefined;
afterEach(async () => {
  await new Promise((done) => (taken ? taken.close(done) : done(undefined)));
  await cluster?.stop();
  taken = undefined;
  cluster = undefined;
});

/** A port of 127.0.0.1 some other process holds. */
async function takenPort(): Promise<number> {
  taken = createServer();
  await new Promise<void>((done) => taken!.listen(0, '127.0.0.1', done));
  return (taken.address() as { port: number }).port;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

describe('startup', () => {
  it('fails on a probe port in use, naming the flag, and closes the metrics port it opened', async () => {
    cluster = await startTestCluster({ namespaces: [NS] });
    const port = await takenPort();
    const metricsPort = await freePort();
    const starting = startManager(
      controllerOptions({
        metricsBindAddress: `127.0.0.1:${metricsPort}`,
        healthProbeBindAddress: `127.0.0.1:${port}`,
      }),
      { kubeConfig: cluster.kubeConfigFor('controller', NS) },
    );
    await expect(starting).rejects.toThrow(ListenError);
    await expect(starting).rejects.toThrow(
      `--health-probe-bind-address=127.0.0.1:${port}: the address is already in use`,
    );
    // The metrics server it had started is closed again: its port can be bound.
    const again = createServer();
    await new Promise<void>((done, fail) => {
      again.once('error', fail);
      again.listen(metricsPort, '127.0.0.1', done);
    });
    await new Promise((done) => again.close(done));
  });

  it('fails on a metrics port in use, naming the flag', async () => {
    cluster = await startTestCluster({ namespaces: [NS] });
    const port = await takenPort();
    await expect(
      startManager(controllerOptions({ metricsBindAddress: `127.0.0.1:${port}` }), {
        kubeConfig: cluster.kubeConfigFor('controller', NS),
      }),
    ).rejects.toThrow(`--metrics-bind-address=127.0.0.1:${port}: the address is already in use`);
  });
});
