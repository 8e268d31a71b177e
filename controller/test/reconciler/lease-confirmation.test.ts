/**
 * The executor confirms deletes against a live Lease list (SPEC §3.7): an instance the planner's
 * stale cache thought unleased, but that a Lease now names, is kept; an instance no Lease names (or
 * only an ended one) is deleted; when the list cannot be read, nothing is deleted.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { API_VERSION, JUMPSTARTER_API_VERSION, type ExporterSet } from 'virtual-exporters/internal';
import { createClients } from '../../src/kube/clients';
import type { Plan } from '../../src/planner';
import { execute } from '../../src/reconciler/executor';
import { Expectations } from '../../src/reconciler/expectations';
import { SlowStart } from '../../src/reconciler/slow-start';
import type { SetWorld } from '../../src/reconciler/snapshot';
import { startTestCluster, type TestCluster } from 'virtual-exporters-test-cluster';

const NS = 'lab';
let cluster: TestCluster | undefined;
afterEach(async () => {
  await cluster?.stop();
  cluster = undefined;
});

const set = {
  apiVersion: API_VERSION,
  kind: 'ExporterSet',
  metadata: { name: 'pool', namespace: NS },
} as ExporterSet;

async function setUp(): Promise<TestCluster> {
  cluster = await startTestCluster({ namespaces: [NS] });
  const exporters = cluster.registry.get('jumpstarter.dev', 'v1alpha1', 'exporters')!;
  for (const name of ['pool-0', 'pool-1', 'pool-2']) {
    cluster.store.create(exporters, NS, {
      apiVersion: JUMPSTARTER_API_VERSION,
      kind: 'Exporter',
      metadata: { name },
      spec: { enabled: false },
    });
  }
  const leases = cluster.registry.get('jumpstarter.dev', 'v1alpha1', 'leases')!;
  const lease = (name: string, exporter: string, ended: boolean) => {
    cluster!.store.create(leases, NS, {
      apiVersion: JUMPSTARTER_API_VERSION,
      kind: 'Lease',
      metadata: { name },
      spec: { clientRef: { name: 'ci' }, selector: { matchLabels: { board: 'x' } }, duration: '1h' },
    });
    cluster!.store.patch(
      leases,
      NS,
      name,
      'merge',
      { status: { exporterRef: { name: exporter }, ended } },
      'status',
    );
  };
  lease('live', 'pool-0', false);
  lease('old', 'pool-1', true);
  return cluster;
}

const deletesOf = (names: string[]): Plan => ({
  actions: names.map((name) => ({ type: 'DeleteExporter', name, reason: 'scale-down' }) as const),
  events: [],
});

function world(): SetWorld {
  return {
    key: `${NS}/pool`,
    snapshot: { set } as SetWorld['snapshot'],
    exporters: new Map(),
    render: () => Promise.reject(new Error('no renders in this test')),
  };
}

const remaining = (c: TestCluster) =>
  c.store
    .list(c.registry.get('jumpstarter.dev', 'v1alpha1', 'exporters')!, NS)
    .items.map((e) => e.metadata.name)
    .sort();

describe('lease confirmation before deletes', () => {
  it('keeps an instance a live Lease names and deletes the others', async () => {
    const c = await setUp();
    const clients = createClients(c.kubeConfigFor('controller', NS));
    const execution = await execute(world(), deletesOf(['pool-0', 'pool-1', 'pool-2']), {
      clients,
      expectations: new Expectations(c.clock),
      slowStart: new SlowStart(),
    });
    expect(execution.applied.map((a) => (a as { name: string }).name).sort()).toEqual(['pool-1', 'pool-2']);
    expect(execution.replicaFailure).toBeUndefined();
    expect(remaining(c)).toEqual(['pool-0']);
    expect(c.counters.total({ identity: 'controller', verb: 'list', resource: 'leases' })).toBe(1);
  });

  it('deletes nothing when the Lease list fails, and says so', async () => {
    const c = await setUp();
    c.faults.add({ kind: 'error', code: 503, verb: 'list', resource: 'leases' });
    const clients = createClients(c.kubeConfigFor('controller', NS));
    const execution = await execute(world(), deletesOf(['pool-1', 'pool-2']), {
      clients,
      expectations: new Expectations(c.clock),
      slowStart: new SlowStart(),
    });
    expect(execution.applied).toEqual([]);
    expect(execution.replicaFailure?.reason).toBe('FailedDelete');
    expect(remaining(c)).toEqual(['pool-0', 'pool-1', 'pool-2']);
  });

  it('lists no Leases in a pass without deletes', async () => {
    const c = await setUp();
    const clients = createClients(c.kubeConfigFor('controller', NS));
    await execute(
      world(),
      { actions: [], events: [] },
      {
        clients,
        expectations: new Expectations(c.clock),
        slowStart: new SlowStart(),
      },
    );
    expect(c.counters.total({ identity: 'controller', resource: 'leases' })).toBe(0);
  });
});
