/**
 * Demand does not overshoot (SPEC §3.2–3.3): while VMs boot slowly, every pass sees the
 * booting instance as future supply, so one pending lease yields exactly one new instance however
 * many passes run during the boot.
 */
import { describe, expect, it } from '@jest/globals';
import { Labels } from 'virtual-exporters/internal';
import {
  CONTROLLER,
  NS,
  TEMPLATE_LABELS,
  createClass,
  createSet,
  getSet,
  instancesOf,
  scenarioPerTest,
  until,
} from './support';

const startScenario = scenarioPerTest();

describe('§3.2–3.3: demand does not overshoot', () => {
  it('makes exactly one instance for one pending lease while VMs boot slowly', async () => {
    const scenario = await startScenario({ speedUp: 20 });
    const { cluster } = scenario;
    createClass(cluster);
    createSet(cluster, 'slow', { minAvailableReplicas: 0, scaleDownCooldown: '1h' });
    await until('the standby', () => getSet(cluster, 'slow')?.status?.standbyReplicas === 1);
    cluster.kubelet!.setBootDelay(10_000); // 10 s of cluster time, 0.5 s real

    const lease = cluster.jumpstarter!.leases.create({
      namespace: NS,
      name: 'slow-1',
      selector: { matchLabels: { ...TEMPLATE_LABELS } },
      duration: '1h',
    });
    let mostWithPods = 0;
    const served = cluster.jumpstarter!.leases.waitFor(
      NS,
      lease.metadata.name!,
      (l) => Boolean(l.status?.exporterRef?.name),
      20_000,
    );
    await until('the lease served', () => {
      const live = instancesOf(cluster, 'slow').filter(
        (e) => e.metadata?.labels?.[Labels.standby] !== 'true',
      );
      mostWithPods = Math.max(mostWithPods, live.length);
      return Boolean(cluster.jumpstarter!.leases.get(NS, 'slow-1')?.status?.exporterRef?.name);
    });
    await served;
    expect(mostWithPods).toBe(1);
    expect(cluster.counters.total({ identity: CONTROLLER, verb: 'create', resource: 'pods' })).toBe(1);
  });
});
