/**
 * Scale from zero (SPEC §3.6): a pool with no buffer keeps one standby Exporter (no Pod),
 * so a lease waits Pending instead of ending Unsatisfiable; the controller sees the demand, serves it,
 * and once the instance has idled for the cooldown the pool is back to its standby.
 */
import { describe, expect, it } from '@jest/globals';
import {
  NS,
  TEMPLATE_LABELS,
  condition,
  createClass,
  createSet,
  getSet,
  instancesOf,
  podNames,
  scenarioPerTest,
  until,
} from './support';

const startScenario = scenarioPerTest();

describe('§3.6: scale from zero with the standby', () => {
  it('makes a lease wait Pending, serves it, and shrinks back to the standby after the cooldown', async () => {
    const scenario = await startScenario({ speedUp: 20 });
    const { cluster } = scenario;
    const leases = cluster.jumpstarter!.leases;
    const pool = () => getSet(cluster, 'zero')?.status;

    createClass(cluster);
    createSet(cluster, 'zero', {
      minAvailableReplicas: 0,
      scaleDownCooldown: '2s',
      recycleStrategy: 'InPlaceReuse',
    });
    await until('the standby', () => pool()?.standbyReplicas === 1 && pool()?.replicas === 1);
    const standby = instancesOf(cluster, 'zero');
    expect(standby).toHaveLength(1);
    expect(podNames(cluster)).toEqual([]);

    const lease = leases.create({
      namespace: NS,
      name: 'from-zero',
      selector: { matchLabels: { ...TEMPLATE_LABELS } },
      duration: '1h',
    });
    const served = await leases.waitFor(
      NS,
      lease.metadata.name!,
      (l) => Boolean(l.status?.exporterRef?.name),
      20_000,
    );
    // It waited as Pending (the standby matched it) and never ended Unsatisfiable.
    expect(condition(served as never, 'Pending')?.status).toBe('True');
    expect(condition(served as never, 'Unsatisfiable')).toBeUndefined();
    expect(served.status?.ended).not.toBe(true);

    // The wait and the boot are in the metrics.
    const metric = async (name: string) => {
      const text = await scenario!.manager.metrics.render();
      const line = text
        .split('\n')
        .find((l) => l.startsWith(`${name}{namespace="${NS}",exporterset="zero"}`));
      return line === undefined ? 0 : Number(line.split(' ').pop());
    };
    for (
      let i = 0;
      i < 200 && (await metric('jumpstarter_exporterset_lease_wait_seconds_count')) === 0;
      i++
    ) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(await metric('jumpstarter_exporterset_lease_wait_seconds_count')).toBe(1);
    expect(await metric('jumpstarter_exporterset_instance_startup_seconds_count')).toBeGreaterThanOrEqual(1);

    leases.release(NS, 'from-zero');
    // InPlaceReuse: the instance is available again, then surplus; after the cooldown only a standby is left.
    await until('the idle instance', () => pool()?.availableReplicas === 1 && pool()?.leasedReplicas === 0);
    await until(
      'back to the standby',
      () => pool()?.replicas === 1 && pool()?.standbyReplicas === 1 && podNames(cluster).length === 0,
    );
    expect(instancesOf(cluster, 'zero')).toHaveLength(1);
    expect(cluster.jumpstarter!.errors).toEqual([]);
    expect(cluster.kubelet!.errors).toEqual([]);
  });
});
