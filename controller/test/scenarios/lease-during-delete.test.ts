/**
 * The last delete race of graceful scale-down (SPEC §3.7), forced: a Lease created after the
 * controller's live Lease list and assigned before its delete of the disabled instance lands. The test
 * cluster holds the controller's Exporter delete (a request hook) while a client creates a Lease pinned
 * to the disabled instance with allowDisabled and Jumpstarter assigns it; then the delete is served.
 * The delete is guarded by the Exporter the controller decided on, which the assignment changed
 * (`status.leaseRef`): it is refused, the instance stays and serves the lease, and goes once the lease
 * ends.
 */
import { describe, expect, it } from '@jest/globals';
import { LeaseState } from 'virtual-exporters-test-cluster';
import {
  CONTROLLER,
  NS,
  createClass,
  createSet,
  getSet,
  instancesOf,
  patchSetSpec,
  scenarioPerTest,
  until,
  untilExplained,
} from './support';

const startScenario = scenarioPerTest();

describe('§3.7: a lease assigned between the live Lease list and the delete', () => {
  it('keeps the instance and its lease, and deletes it once the lease ends', async () => {
    const { cluster } = await startScenario({ speedUp: 20 });
    const leases = cluster.jumpstarter!.leases;
    createClass(cluster);
    createSet(cluster, 'race', { minAvailableReplicas: 2, scaleDownCooldown: '1s' });
    const status = () => getSet(cluster, 'race')?.status;
    await until('2 available', () => status()?.availableReplicas === 2);

    const leaseLists = () =>
      cluster.counters.total({ identity: CONTROLLER, verb: 'list', resource: 'leases' });
    const exporterDeletes = (code?: number) => {
      const filter = { identity: CONTROLLER, verb: 'delete', resource: 'exporters' } as const;
      return code === undefined
        ? cluster.counters.total(filter)
        : cluster.counters.totalWithCode(code, filter);
    };
    const listsBefore = leaseLists();
    const held = { victim: '', listsSeen: 0 };
    // Between the controller's live Lease list and its delete: a client leases the instance by name.
    const hook = cluster.hooks.before(
      { verb: 'delete', resource: 'exporters', identity: CONTROLLER, times: 1 },
      async (request) => {
        held.victim = request.name;
        held.listsSeen = leaseLists();
        leases.create({
          namespace: NS,
          name: 'late',
          exporterRef: request.name,
          allowDisabled: true,
          duration: '1h',
        });
        await leases.waitFor(NS, 'late', LeaseState.assigned, 20_000);
      },
    );
    patchSetSpec(cluster, 'race', { minAvailableReplicas: 1 });
    await until('the held delete answered', () => cluster.hooks.hits(hook) === 1 && exporterDeletes() === 1);
    const { victim, listsSeen } = held;
    // The delete followed a live Lease list that could not show the lease: it was created after it.
    expect(listsSeen).toBeGreaterThan(listsBefore);
    expect(instancesOf(cluster, 'race').map((e) => e.metadata!.name)).toContain(victim);
    expect(instancesOf(cluster, 'race').find((e) => e.metadata!.name === victim)?.spec?.enabled).toBe(false);
    expect(exporterDeletes(409)).toBe(1);

    // Passes with nothing held: the leased instance stays, is counted as leased, and keeps its lease.
    await untilExplained(
      'the set sees the lease',
      () => status()?.leasedReplicas === 1,
      () => ({ status: status(), lease: leases.get(NS, 'late'), deletes: exporterDeletes() }),
    );
    const settledAt = cluster.clock.now();
    await until('10 s of cluster time', () => cluster.clock.now() - settledAt >= 10_000);
    expect(instancesOf(cluster, 'race').map((e) => e.metadata!.name)).toContain(victim);
    const lease = leases.get(NS, 'late');
    expect(lease?.status?.exporterRef?.name).toBe(victim);
    expect(lease?.status?.ended).not.toBe(true);
    expect(exporterDeletes(200)).toBe(0);
    expect(status()?.availableReplicas).toBe(1);

    // The lease ends → the instance goes; the pool is back to its buffer of 1.
    leases.release(NS, 'late');
    await until(
      'the victim deleted',
      () => !instancesOf(cluster, 'race').some((e) => e.metadata!.name === victim),
    );
    await until(
      'the pool at its buffer',
      () => status()?.replicas === 1 && status()?.availableReplicas === 1,
    );
  });
});
