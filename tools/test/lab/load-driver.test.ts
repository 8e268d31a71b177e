/**
 * The load driver with a lease client that answers later (a real API server): the Lease's watch events
 * may come before the answer to its create, and the driver must still see it assigned, hold it, and
 * release it.
 */
import { describe, expect, it } from '@jest/globals';
import { JUMPSTARTER_API_VERSION, type Lease } from 'virtual-exporters/internal';
import {
  manualClock,
  type AnyLeaseClient,
  type KubeObject,
  type PortEvent,
} from 'virtual-exporters-test-cluster';
import type { LabView } from '../../src/lab/lab-cluster';
import { startLoad } from '../../src/lab/load-driver';

const BEGIN = '2025-01-01T00:00:01Z';

function fakeServer() {
  const objects = new Map<string, KubeObject>();
  const handlers = new Set<(event: PortEvent) => void>();
  const released: string[] = [];
  const emit = (type: PortEvent['type'], object: KubeObject) => {
    objects.set(`${object.metadata.namespace}/${object.metadata.name}`, object);
    for (const handler of handlers) handler({ type, object });
  };
  const view: LabView = {
    get: (_kind, namespace, name) => objects.get(`${namespace}/${name}`),
    watch(_kind, handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
  };
  let n = 0;
  const unused = () => Promise.reject(new Error('not used by the driver'));
  const leases: AnyLeaseClient = {
    async create(request) {
      const lease: KubeObject = {
        apiVersion: JUMPSTARTER_API_VERSION,
        kind: 'Lease',
        metadata: { namespace: request.namespace, name: `lease-${++n}` },
        spec: { selector: request.selector },
      };
      // The server creates it, Jumpstarter assigns it, and both watch events arrive before the answer.
      emit('ADDED', lease);
      emit('MODIFIED', { ...lease, status: { exporterRef: { name: 'pool-0' }, beginTime: BEGIN } });
      await new Promise((resolve) => setImmediate(resolve));
      return lease as unknown as Lease;
    },
    async release(namespace, name) {
      released.push(name);
      return objects.get(`${namespace}/${name}`) as unknown as Lease;
    },
    get: unused,
    list: unused,
    waitFor: unused,
  };
  return { view, leases, released, watchers: () => handlers.size };
}

const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('startLoad with a lease client that answers later', () => {
  it('sees a lease assigned before the answer to its create came, holds it and releases it', async () => {
    const clock = manualClock();
    const server = fakeServer();
    const assigned: string[] = [];
    const errors: Error[] = [];
    const load = startLoad({
      view: server.view,
      leases: server.leases,
      clock,
      arrivals: [{ atMs: 10, pool: 'p', holdMs: 100, durationMs: 1000 }],
      targets: new Map([['p', { namespace: 'lab', labels: { board: 'x' } }]]),
      onAssigned: (namespace, exporter) => assigned.push(`${namespace}/${exporter}`),
      onError: (error) => errors.push(error),
    });
    clock.advance(10);
    await turns();
    expect(load.records()).toEqual([
      { name: 'lease-1', pool: 'p', createdAt: clock.now(), assignedAt: Date.parse(BEGIN) },
    ]);
    expect(assigned).toEqual(['lab/pool-0']);
    expect(load.waiting().size).toBe(0);

    clock.advance(99);
    await turns();
    expect(server.released).toEqual([]);
    clock.advance(1);
    await turns();
    expect(server.released).toEqual(['lease-1']);
    expect(errors).toEqual([]);

    load.stop();
    expect(server.watchers()).toBe(0);
  });
});

describe('startLoad stopped while its timers lag', () => {
  it('plays every arrival that was due before the stop, and none that was not', async () => {
    // A clock whose time moves while no timer runs: an event loop too busy to run them.
    let now = 0;
    const clock = { now: () => now, setTimeout: () => () => undefined };
    const server = fakeServer();
    const load = startLoad({
      view: server.view,
      leases: server.leases,
      clock,
      arrivals: [
        { atMs: 10, pool: 'p', holdMs: null, durationMs: 1000 },
        { atMs: 20, pool: 'p', holdMs: null, durationMs: 1000 },
        { atMs: 500, pool: 'p', holdMs: null, durationMs: 1000 },
      ],
      targets: new Map([['p', { namespace: 'lab', labels: { board: 'x' } }]]),
    });
    now = 100;
    load.stop();
    await turns();
    expect(load.records().map((r) => r.name)).toEqual(['lease-1', 'lease-2']);
    expect(load.remaining()).toBe(1);
  });
});
