/**
 * The lease client tests and the lab use to create demand: it creates Leases through admission and
 * waits (in wall-clock time, here on a sped-up real clock) for the simulator's answer.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { jumpstarterCrds } from 'virtual-exporters/internal';
import { realClock } from '../src/clock';
import { LeaseState } from '../src/jumpstarter/lease-client';
import { startJumpstarterSimulator } from '../src/jumpstarter/simulator';
import { startKubeletSimulator } from '../src/kubelet/simulator';
import { createRegistry } from '../src/registry';
import { createStore } from '../src/store';
import { ApiError } from '../src/types';

const NS = 'lab';
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

function world() {
  const store = createStore({
    registry: createRegistry([...jumpstarterCrds]),
    clock: realClock(100),
    namespaces: [NS],
  });
  const jumpstarter = startJumpstarterSimulator({ store });
  const kubelet = startKubeletSimulator({ store, bootDelayMs: 500 });
  stops.push(() => {
    kubelet.stop();
    jumpstarter.stop();
    store.close();
  });
  const exporterRt = store.registry.byKind('jumpstarter.dev/v1alpha1', 'Exporter')!;
  const podRt = store.registry.byKind('v1', 'Pod')!;
  /** A ready exporter without a config (the kubelet's defaults apply). */
  const instance = (name: string) => {
    const exporter = store.create(exporterRt, NS, {
      apiVersion: 'jumpstarter.dev/v1alpha1',
      kind: 'Exporter',
      metadata: { name, labels: { board: 'rpi4' } },
      spec: {},
    });
    store.create(podRt, NS, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        labels: { 'exporterset.jumpstarter.dev/name': 'pool' },
        ownerReferences: [
          {
            apiVersion: 'jumpstarter.dev/v1alpha1',
            kind: 'Exporter',
            name,
            uid: exporter.metadata.uid!,
            controller: true,
          },
        ],
      },
      spec: { containers: [{ name: 'exporter', image: 'quay.io/jumpstarter-dev/jumpstarter:latest' }] },
    });
  };
  return { store, jumpstarter, leases: jumpstarter.leases, instance };
}

describe('lease client', () => {
  it('creates a lease with a generated name and waits until an exporter is assigned', async () => {
    const w = world();
    const created = w.leases.create({
      namespace: NS,
      selector: { matchLabels: { board: 'rpi4' } },
      duration: '1h',
    });
    expect(created.metadata.name).toMatch(/^lease-[a-z0-9]{5}$/);
    expect(created.spec.clientRef).toEqual({ name: 'test-client' });
    w.instance('e1');

    const assigned = await w.leases.waitFor(NS, created.metadata.name!, LeaseState.assigned, 5000);
    expect(assigned.status?.exporterRef).toEqual({ name: 'e1' });

    w.leases.release(NS, created.metadata.name!);
    const ended = await w.leases.waitFor(NS, created.metadata.name!, LeaseState.ended, 5000);
    expect(ended.status?.conditions?.find((c) => c.type === 'Ready')?.reason).toBe('Released');
  });

  it('sees a pending lease as pending', async () => {
    const w = world();
    w.store.create(w.store.registry.byKind('jumpstarter.dev/v1alpha1', 'Exporter')!, NS, {
      apiVersion: 'jumpstarter.dev/v1alpha1',
      kind: 'Exporter',
      metadata: { name: 'standby', labels: { board: 'rpi4' } },
    });
    w.leases.create({ namespace: NS, name: 'l1', selector: { matchLabels: { board: 'rpi4' } } });
    const lease = await w.leases.waitFor(NS, 'l1', LeaseState.pending, 5000);
    expect(lease.status?.conditions?.find((c) => c.type === 'Pending')?.reason).toBe('Offline');
  });

  it('rejects a lease with neither a selector nor a pin at admission', () => {
    const w = world();
    expect(() => w.leases.create({ namespace: NS, name: 'l1' })).toThrow(ApiError);
    expect(() => w.leases.create({ namespace: NS, name: 'l1' })).toThrow(
      /one of selector or exporterRef.name is required/,
    );
  });

  it('fails a wait that times out with the lease state in the message', async () => {
    const w = world();
    w.leases.create({ namespace: NS, name: 'l1', exporterRef: 'nobody' });
    await expect(w.leases.waitFor(NS, 'l1', LeaseState.assigned, 100)).rejects.toThrow(
      /condition not met within 100 ms; its last state: .*ExporterNotFound/,
    );
  });
});
