/**
 * The JEP's end-to-end flow (phases 0–6): a class and a set make a warm pool; a lease is
 * served at once and the pool refills; the release recycles the instance (ExitAndReplace); after a
 * smaller buffer is asked for, the pool shrinks only after the cooldown; a spike of three concurrent
 * leases with one warm instance is served in full, and the pool returns to its buffer.
 */
import { describe, expect, it } from '@jest/globals';
import { instanceOrdinal } from 'virtual-exporters/internal';
import {
  NS,
  TEMPLATE_LABELS,
  condition,
  createClass,
  createSet,
  getSet,
  instancesOf,
  patchSetSpec,
  scenarioPerTest,
  until,
} from './support';

const startScenario = scenarioPerTest();

const COOLDOWN_MS = 2_000;

describe('§3.1–3.3, §3.7, §3.8: the JEP end-to-end flow', () => {
  it('keeps a warm pool, serves, recycles, absorbs a spike and shrinks after the cooldown', async () => {
    const scenario = await startScenario({ speedUp: 20 });
    const { cluster } = scenario;
    const leases = cluster.jumpstarter!.leases;
    const pool = () => getSet(cluster, 'pool')?.status;

    // Phases 0–1: class + set → a warm pool of 2.
    createClass(cluster);
    createSet(cluster, 'pool', {
      minAvailableReplicas: 2,
      maxReplicas: 8,
      scaleDownCooldown: '2s',
      recycleStrategy: 'ExitAndReplace',
    });
    await until('a warm pool of 2', () => pool()?.availableReplicas === 2 && pool()?.replicas === 2);
    expect(condition(getSet(cluster, 'pool'), 'WarmBufferAvailable')?.status).toBe('True');
    expect(condition(getSet(cluster, 'pool'), 'Available')).toMatchObject({
      status: 'True',
      reason: 'MinimumReplicasAvailable',
      message: '2/0 replicas ready',
    });

    // Phase 2: a lease is served at once, the pool refills.
    const first = leases.create({
      namespace: NS,
      name: 'ci-1',
      selector: { matchLabels: { ...TEMPLATE_LABELS } },
      duration: '1h',
    });
    const served = await leases.waitFor(
      NS,
      first.metadata.name!,
      (l) => Boolean(l.status?.exporterRef?.name),
      20_000,
    );
    const leasedName = served.status!.exporterRef!.name;
    await until('the refill', () => pool()?.availableReplicas === 2 && pool()?.leasedReplicas === 1);

    // Phase 3: release → the exporter exits, the instance is deleted; its name is never reused.
    leases.release(NS, 'ci-1');
    await until(
      'the recycle',
      () => !instancesOf(cluster, 'pool').some((e) => e.metadata?.name === leasedName),
    );
    await until(
      'the pool back at its buffer',
      () => pool()?.replicas === 2 && pool()?.availableReplicas === 2,
    );
    const ordinals = instancesOf(cluster, 'pool').map((e) => instanceOrdinal('pool', e.metadata!.name!)!);
    expect(ordinals).not.toContain(instanceOrdinal('pool', leasedName));

    // Phase 4: a smaller buffer → surplus, removed only once it has lasted the cooldown.
    const shrinkAsked = cluster.clock.now();
    patchSetSpec(cluster, 'pool', { minAvailableReplicas: 1 });
    await until('the window', () => pool()?.scaleDownWindowStart !== undefined);
    await until('the shrink', () => instancesOf(cluster, 'pool').length === 1 && pool()?.replicas === 1);
    expect(cluster.clock.now() - shrinkAsked).toBeGreaterThanOrEqual(COOLDOWN_MS);

    // Phase 5: a spike of 3 concurrent leases with 1 warm instance → all served.
    await until('one warm', () => pool()?.availableReplicas === 1);
    const spike = ['spike-1', 'spike-2', 'spike-3'].map((name) =>
      leases.create({
        namespace: NS,
        name,
        selector: { matchLabels: { ...TEMPLATE_LABELS } },
        duration: '1h',
      }),
    );
    const assigned = await Promise.all(
      spike.map((l) =>
        leases.waitFor(NS, l.metadata.name!, (x) => Boolean(x.status?.exporterRef?.name), 20_000),
      ),
    );
    const holders = assigned.map((l) => l.status!.exporterRef!.name);
    expect(new Set(holders).size).toBe(3);
    for (const l of assigned) expect(condition(l as never, 'Unsatisfiable')).toBeUndefined();
    expect(pool()?.replicas ?? 0).toBeLessThanOrEqual(8);

    // Phase 6: the leases end → recycled, and the pool settles at its buffer again.
    for (const l of spike) leases.release(NS, l.metadata.name!);
    await until(
      'the pool back at 1',
      () =>
        pool()?.replicas === 1 &&
        pool()?.availableReplicas === 1 &&
        instancesOf(cluster, 'pool').length === 1,
    );
    expect(cluster.jumpstarter!.errors).toEqual([]);
    expect(cluster.kubelet!.errors).toEqual([]);
  });
});
