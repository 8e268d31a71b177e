/**
 * Deletes are confirmed against a live Lease list (SPEC §3.7): when a plan deletes Exporters, the
 * reconciler reads the Leases and plans again with them (`withLeaseCheck`). An instance the planner's
 * stale cache thought unleased, but that a Lease now names, is kept; an instance no Lease names (or
 * only an ended one) is deleted; when the list cannot be read, nothing is deleted. A lease assigned
 * after the list changes its Exporter, and the delete, guarded by the Exporter the pass decided on, is
 * refused: the instance is kept, nothing failed.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { ConditionTypes, JUMPSTARTER_API_VERSION, type Exporter } from 'virtual-exporters/internal';
import { createClients } from '../../src/kube/clients';
import { finalizeStatus, plan, type Plan, type PlannerSnapshot } from '../../src/planner';
import type { Execution } from '../../src/reconciler/execution';
import { execute } from '../../src/reconciler/executor';
import { Expectations } from '../../src/reconciler/expectations';
import { withLeaseCheck } from '../../src/reconciler/lease-check';
import { SlowStart } from '../../src/reconciler/slow-start';
import type { SetWorld } from '../../src/reconciler/read-set-world';
import { startTestCluster, type TestCluster } from 'virtual-exporters-test-cluster';
import { instance, snapshot } from '../planner/builders';

const NS = 'lab';
let cluster: TestCluster | undefined;
afterEach(async () => {
  await cluster?.stop();
  cluster = undefined;
});

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

/**
 * The set's world as its cache shows it: the instances `leaving` disabled by the controller (so the
 * planner deletes them) and no Leases; one standby stays enabled, so nothing else is planned.
 */
function snapshotDeleting(leaving: number[]): PlannerSnapshot {
  return snapshot({
    instances: [
      ...leaving.map((n) => instance(n, 'standby', { enabled: false, retiring: 'scale-down' })),
      instance(3, 'standby'),
    ],
  });
}

function world(s: PlannerSnapshot, exporters: ReadonlyMap<string, Exporter> = new Map()): SetWorld {
  return {
    key: `${NS}/pool`,
    snapshot: s,
    exporters,
    render: () => Promise.reject(new Error('no renders in this test')),
  };
}

/**
 * Plans and executes the pass as the reconciler does: the executor asks for the plan made again with
 * the live Lease list right before its deletes. Returns the outcome and the pass's final plan.
 */
async function pass(
  c: TestCluster,
  s: PlannerSnapshot,
  exporters?: ReadonlyMap<string, Exporter>,
): Promise<{ execution: Execution; result: Plan }> {
  const clients = createClients(c.kubeConfigFor('controller', NS));
  const first = plan(s);
  let confirmed: Plan | undefined;
  const execution = await execute(
    world(s, exporters),
    first,
    { clients, expectations: new Expectations(c.clock), slowStart: new SlowStart() },
    async () => (confirmed = await withLeaseCheck(first, s, clients)),
  );
  return { execution, result: confirmed ?? first };
}

const remaining = (c: TestCluster) =>
  c.store
    .list(c.registry.get('jumpstarter.dev', 'v1alpha1', 'exporters')!, NS)
    .items.map((e) => e.metadata.name)
    .sort();

describe('lease confirmation before deletes', () => {
  it('keeps an instance a live Lease names and deletes the others', async () => {
    const c = await setUp();
    const { execution } = await pass(c, snapshotDeleting([0, 1, 2]));
    expect(execution.applied.map((a) => (a as { name: string }).name).sort()).toEqual(['pool-1', 'pool-2']);
    expect(execution.replicaFailure).toBeUndefined();
    expect(remaining(c)).toEqual(['pool-0']);
    expect(c.counters.total({ identity: 'controller', verb: 'list', resource: 'leases' })).toBe(1);
  });

  it('deletes nothing when the Lease list fails, and says so', async () => {
    const c = await setUp();
    c.faults.add({ kind: 'error', code: 503, verb: 'list', resource: 'leases' });
    const s = snapshotDeleting([1, 2]);
    const { execution, result } = await pass(c, s);
    expect(execution.applied).toEqual([]);
    const status = finalizeStatus(result, { ...execution, now: s.now });
    const failure = status?.conditions?.find((cond) => cond.type === ConditionTypes.ReplicaFailure);
    expect(failure?.reason).toBe('FailedDelete');
    expect(remaining(c)).toEqual(['pool-0', 'pool-1', 'pool-2']);
  });

  it('keeps an instance whose Exporter changed between the Lease list and its delete', async () => {
    const c = await setUp();
    const exporters = c.registry.get('jumpstarter.dev', 'v1alpha1', 'exporters')!;
    // The Exporters as the pass decided on them (the cache).
    const seen = new Map(
      c.store.list(exporters, NS).items.map((e) => [e.metadata.name!, e as unknown as Exporter]),
    );
    const held = { name: '' };
    // After the Lease list, before the first delete lands: a lease is assigned to that instance, and
    // Jumpstarter records it on the Exporter.
    c.hooks.before({ verb: 'delete', resource: 'exporters', identity: 'controller', times: 1 }, (request) => {
      held.name = request.name;
      c.store.patch(
        exporters,
        NS,
        request.name,
        'merge',
        { status: { leaseRef: { name: 'late' } } },
        'status',
      );
    });
    const s = snapshotDeleting([1, 2]);
    const { execution, result } = await pass(c, s, seen);
    const leased = held.name;
    const deleted = leased === 'pool-1' ? 'pool-2' : 'pool-1';
    expect(execution.applied.map((a) => (a as { name: string }).name)).toEqual([deleted]);
    expect(execution.changed.map((ch) => ch.name)).toEqual([leased]);
    expect(execution.changed[0]?.message).toContain('The object might have been modified');
    expect(execution.errors).toEqual([]);
    expect(remaining(c)).toEqual(['pool-0', leased].sort());
    const status = finalizeStatus(result, { ...execution, now: s.now });
    const failure = status?.conditions?.find((cond) => cond.type === ConditionTypes.ReplicaFailure);
    expect(failure?.status).toBe('False');
  });

  it('lists no Leases in a pass without deletes', async () => {
    const c = await setUp();
    await pass(c, snapshotDeleting([]));
    expect(c.counters.total({ identity: 'controller', resource: 'leases' })).toBe(0);
  });
});
