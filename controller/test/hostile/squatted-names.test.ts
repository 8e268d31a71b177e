/**
 * Squatted names (SPEC §3.10, §3.18): Exporters someone else made under the names `<set>-0…3` are not
 * the set's. A create that finds its name taken by an Exporter the set does not own skips that name at
 * once (reported with an Event, `nextOrdinal` moved past it), instead of taking it for its own create
 * and waiting for the expectation to time out; a create retried after a crash still finds the set's
 * own Exporter and makes no twin.
 */
import { describe, expect, it } from '@jest/globals';
import { API_VERSION, type Exporter, type ExporterSet } from 'virtual-exporters/internal';
import { createClients } from '../../src/kube/clients';
import { desiredExporter } from '../../src/planner';
import { applyAction } from '../../src/reconciler/apply-action';
import type { SetWorld } from '../../src/reconciler/read-set-world';
import {
  CONTROLLER,
  NS,
  createClass,
  createSet,
  eventsOf,
  getSet,
  ownedInstancesOf,
  scenarioPerTest,
  until,
} from '../scenarios/support';

const startScenario = scenarioPerTest();

const exportersOf = (cluster: Awaited<ReturnType<typeof startScenario>>['cluster']) =>
  cluster.registry.get('jumpstarter.dev', 'v1alpha1', 'exporters')!;

describe('squatted instance names', () => {
  it('fills a buffer of 2 promptly when Exporters the set does not own hold the names pool-0 to pool-3', async () => {
    const { cluster } = await startScenario({ speedUp: 20 });
    for (let n = 0; n < 4; n += 1) {
      cluster.store.create(exportersOf(cluster), NS, {
        apiVersion: 'jumpstarter.dev/v1alpha1',
        kind: 'Exporter',
        metadata: { name: `pool-${n}`, labels: { made: 'by-hand' } },
        spec: {},
      });
    }
    createClass(cluster);
    const started = cluster.clock.now();
    createSet(cluster, 'pool', { minAvailableReplicas: 2 });

    await until('two available instances', () => getSet(cluster, 'pool')?.status?.availableReplicas === 2);
    // Far below the two-minute expectation timeout a squatted name used to cost.
    expect(cluster.clock.now() - started).toBeLessThan(60_000);
    expect(
      ownedInstancesOf(cluster, 'pool')
        .map((e) => e.metadata!.name)
        .sort(),
    ).toEqual(['pool-4', 'pool-5']);
    expect(getSet(cluster, 'pool')?.status?.nextOrdinal).toBe(6);
    const taken = eventsOf(cluster, 'pool').filter((e) => e.reason === 'InstanceNameTaken');
    expect(taken.map((e) => e.message.split(' ')[3]).sort()).toEqual([
      'pool-0',
      'pool-1',
      'pool-2',
      'pool-3',
    ]);
    expect(taken[0]?.type).toBe('Warning');
    // The squatters are untouched.
    for (let n = 0; n < 4; n += 1) {
      const squatter = cluster.store.get(exportersOf(cluster), NS, `pool-${n}`) as Exporter | undefined;
      expect(squatter?.metadata?.ownerReferences).toBeUndefined();
    }
  });

  it("a create retried after a crash finds the set's own Exporter and makes no twin", async () => {
    const scenario = await startScenario({ speedUp: 20 });
    const { cluster } = scenario;
    await scenario.manager.stop();
    createClass(cluster);
    createSet(cluster, 'pool', { minAvailableReplicas: 1 });
    const set = getSet(cluster, 'pool') as ExporterSet;
    const create = {
      type: 'CreateExporter' as const,
      name: 'pool-0',
      ordinal: 0,
      standby: false,
      revision: 'r1',
      reason: 'warm-buffer' as const,
      exporter: desiredExporter(set, 'pool-0', 0, 'r1', false),
    };
    const clients = createClients(cluster.kubeConfigFor(CONTROLLER, NS));
    const world = { key: `${NS}/pool`, snapshot: { set }, exporters: new Map() } as unknown as SetWorld;

    // The first create landed; the process crashed before it saw it, and the next one sends it again.
    expect(await applyAction(create, clients, world)).toEqual({ kind: 'applied' });
    expect(await applyAction(create, clients, world)).toEqual({ kind: 'done-already' });
    const named = (cluster.store.list(exportersOf(cluster), NS).items as unknown as Exporter[]).filter((e) =>
      (e.metadata?.ownerReferences ?? []).some((ref) => ref.uid === set.metadata?.uid),
    );
    expect(named.map((e) => e.metadata?.name)).toEqual(['pool-0']);
    expect(named[0]?.metadata?.ownerReferences?.[0]).toMatchObject({
      apiVersion: API_VERSION,
      controller: true,
    });
  });
});
