/**
 * SPEC §3.13: a set whose class is missing reports
 * `Available=False/VirtualTargetClassNotFound` and creates nothing until the class exists; invalid
 * merged parameters give `ParametersValid=False` with the provisioner's message and no new instances,
 * while the existing ones keep serving, and fixing the class recovers.
 */
import { describe, expect, it } from '@jest/globals';
import { ConditionReasons } from 'virtual-exporters/internal';
import {
  NS,
  TEMPLATE_LABELS,
  condition,
  createClass,
  createSet,
  getSet,
  instancesOf,
  scenarioPerTest,
  until,
} from './support';

const startScenario = scenarioPerTest();

describe('§3.13: a missing class', () => {
  it('reports VirtualTargetClassNotFound and recovers once the class is created', async () => {
    const scenario = await startScenario({ speedUp: 20 });
    const { cluster } = scenario;
    createSet(cluster, 'orphan', { minAvailableReplicas: 1 });
    await until(
      'Available=False',
      () => condition(getSet(cluster, 'orphan'), 'Available')?.status === 'False',
    );
    const available = condition(getSet(cluster, 'orphan'), 'Available');
    expect(available?.reason).toBe(ConditionReasons.VirtualTargetClassNotFound);
    expect(instancesOf(cluster, 'orphan')).toEqual([]);

    createClass(cluster);
    await until('the pool', () => getSet(cluster, 'orphan')?.status?.availableReplicas === 1);
    expect(condition(getSet(cluster, 'orphan'), 'Available')?.status).toBe('True');
  });
});

describe('§3.13: invalid merged parameters', () => {
  it('sets ParametersValid=False, creates nothing new, keeps serving, and recovers', async () => {
    const scenario = await startScenario({ speedUp: 20 });
    const { cluster } = scenario;
    const leases = cluster.jumpstarter!.leases;
    createClass(cluster);
    createSet(cluster, 'params', { minAvailableReplicas: 1, scaleDownCooldown: '1h' });
    await until('one warm', () => getSet(cluster, 'params')?.status?.availableReplicas === 1);

    // The set now asks for an invalid memory size (a value the provisioner rejects).
    const rt = cluster.registry.get('virtualtarget.jumpstarter.dev', 'v1alpha1', 'exportersets')!;
    cluster.store.patch(rt, NS, 'params', 'merge', {
      spec: { parameters: { resources: { memory: 'lots' } } },
    });
    await until(
      'ParametersValid=False',
      () => condition(getSet(cluster, 'params'), 'ParametersValid')?.status === 'False',
    );
    const invalid = condition(getSet(cluster, 'params'), 'ParametersValid');
    expect(invalid?.reason).toBe(ConditionReasons.InvalidParameters);
    expect(invalid?.message).toMatch(/memory/);

    // The existing instance still serves a lease, and no refill is made while parameters are invalid.
    const lease = leases.create({
      namespace: NS,
      name: 'p-1',
      selector: { matchLabels: { ...TEMPLATE_LABELS } },
      duration: '1h',
    });
    await leases.waitFor(NS, lease.metadata.name!, (l) => Boolean(l.status?.exporterRef?.name), 20_000);
    await until('the lease counted', () => getSet(cluster, 'params')?.status?.leasedReplicas === 1);
    const before = instancesOf(cluster, 'params').map((e) => e.metadata?.name);
    await new Promise((r) => setTimeout(r, 300)); // 6 s of cluster time
    expect(instancesOf(cluster, 'params').map((e) => e.metadata?.name)).toEqual(before);

    // Fixed: the buffer refills.
    cluster.store.patch(rt, NS, 'params', 'merge', {
      spec: { parameters: { resources: { memory: '2Gi' } } },
    });
    await until(
      'ParametersValid=True',
      () => condition(getSet(cluster, 'params'), 'ParametersValid')?.status === 'True',
    );
    await until('the refill', () => getSet(cluster, 'params')?.status?.availableReplicas === 1);
  });
});
