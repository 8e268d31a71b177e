/**
 * A provisioner with a lifecycle (instances that are not Pods) on the test cluster: the controller
 * realises each instance and records its placement on the Exporter, reads its runtime from the
 * provisioner's observation, and tears it down on recycle, drain and when nothing records it.
 */
import { describe, expect, it } from '@jest/globals';
import { Annotations, ConditionReasons, ConditionTypes, EventReasons } from 'virtual-exporters/internal';
import {
  FakeLifecycle,
  FAKE_PROVISIONER,
  HOST_ANNOTATION,
  fakeLifecycleProvisioner,
} from '../support/fake-lifecycle';
import {
  NS,
  TEMPLATE_LABELS,
  condition,
  createClass,
  createSet,
  eventsOf,
  getSet,
  instancesOf,
  patchSetSpec,
  podNames,
  scenarioPerTest,
  type Scenario,
  until,
} from './support';

const startScenario = scenarioPerTest();

async function lifecycleScenario(): Promise<{
  cluster: Scenario['cluster'];
  fake: FakeLifecycle;
}> {
  const fake = new FakeLifecycle();
  const scenario = await startScenario({
    speedUp: 20,
    controller: { provisioner: fakeLifecycleProvisioner(fake) },
  });
  fake.attach(scenario.cluster.kubelet!.processes);
  createClass(scenario.cluster, 'fake', { provisioner: FAKE_PROVISIONER, parameters: {} });
  return { cluster: scenario.cluster, fake };
}

const names = (cluster: Parameters<typeof instancesOf>[0], set: string) =>
  instancesOf(cluster, set)
    .map((e) => e.metadata!.name!)
    .sort();

describe('lifecycle provisioner › realise and placement', () => {
  it('fills the warm buffer by realising each instance and recording its placement on the Exporter', async () => {
    const { cluster, fake } = await lifecycleScenario();
    createSet(cluster, 'pool', { virtualTargetClassName: 'fake', minAvailableReplicas: 2 });
    await until('2 available', () => getSet(cluster, 'pool')?.status?.availableReplicas === 2);
    const exporters = instancesOf(cluster, 'pool');
    expect(exporters).toHaveLength(2);
    for (const exporter of exporters) {
      expect(exporter.metadata?.annotations?.[Annotations.placement]).toBe(HOST_ANNOTATION);
      expect(exporter.metadata?.annotations?.[HOST_ANNOTATION]).toMatch(/^host-[01]$/);
    }
    expect([...fake.realised.keys()].sort()).toEqual(names(cluster, 'pool'));
    expect(podNames(cluster)).toEqual([]);
    expect(getSet(cluster, 'pool')?.status?.podsRunning).toBe(2);
  });
});

describe('lifecycle provisioner › notices', () => {
  it('records what the provisioner reports as an event on the set', async () => {
    const { cluster, fake } = await lifecycleScenario();
    fake.notice = {
      reason: 'HostKeyRecorded',
      message: 'host-0: recorded ssh-ed25519 SHA256:abc on first use',
    };
    createSet(cluster, 'pool', { virtualTargetClassName: 'fake', minAvailableReplicas: 1 });
    await until('an event', () =>
      eventsOf(cluster, 'pool').some(
        (e) => e.reason === 'HostKeyRecorded' && e.message.includes('SHA256:abc on first use'),
      ),
    );
  });
});

describe('lifecycle provisioner › §3.8 recycle', () => {
  it('tears down an instance whose exporter exited after its lease, and refills', async () => {
    const { cluster, fake } = await lifecycleScenario();
    const leases = cluster.jumpstarter!.leases;
    createSet(cluster, 'pool', { virtualTargetClassName: 'fake', minAvailableReplicas: 1 });
    await until('1 available', () => getSet(cluster, 'pool')?.status?.availableReplicas === 1);
    const lease = leases.create({
      namespace: NS,
      selector: { matchLabels: { ...TEMPLATE_LABELS } },
      duration: '1h',
    });
    await until('assigned', () => leases.get(NS, lease.metadata.name!)?.status?.exporterRef !== undefined);
    const served = leases.get(NS, lease.metadata.name!)!.status!.exporterRef!.name;
    leases.release(NS, lease.metadata.name!);
    await until('the served instance is gone and another is available', () => {
      const live = names(cluster, 'pool');
      return !live.includes(served) && getSet(cluster, 'pool')?.status?.availableReplicas === 1;
    });
    expect(fake.namesOf('teardown')).toContain(served);
    expect(fake.realised.has(served)).toBe(false);
  });
});

describe('lifecycle provisioner › leftovers', () => {
  it('a crash between realise and the placement annotation leaves no leftover after the next pass', async () => {
    const { cluster, fake } = await lifecycleScenario();
    fake.failAfterRealise = 'connection reset after the units started';
    createSet(cluster, 'pool', { virtualTargetClassName: 'fake', minAvailableReplicas: 1 });
    await until('the failed realise is reported', () => {
      const failure = condition(getSet(cluster, 'pool'), ConditionTypes.ReplicaFailure);
      return failure?.status === 'True' && failure.reason === ConditionReasons.FailedRealise;
    });
    expect(condition(getSet(cluster, 'pool'), ConditionTypes.ReplicaFailure)?.message).toContain(
      'connection reset after the units started',
    );
    fake.failAfterRealise = undefined;
    // The instance realised before the crash may come online before the next pass records its
    // placement (its exporter runs): wait for both.
    await until(
      '1 available with its placement recorded',
      () =>
        getSet(cluster, 'pool')?.status?.availableReplicas === 1 &&
        instancesOf(cluster, 'pool')[0]?.metadata?.annotations?.[HOST_ANNOTATION] !== undefined,
    );
    // The Exporter records the instance realised before the crash, and nothing else is realised.
    expect([...fake.realised.keys()]).toEqual(names(cluster, 'pool'));
    expect(fake.namesOf('realise').every((n) => n === names(cluster, 'pool')[0])).toBe(true);
  });

  it('tears down an instance realised with no Exporter, and says so in an event', async () => {
    const { cluster, fake } = await lifecycleScenario();
    createSet(cluster, 'pool', { virtualTargetClassName: 'fake', minAvailableReplicas: 1 });
    await until('1 available', () => getSet(cluster, 'pool')?.status?.availableReplicas === 1);
    fake.leaveLeftover('pool-99', NS);
    fake.leaveLeftover('other-3', NS);
    // A set of the same name in another namespace shares the hosts: its instance is not a leftover here.
    fake.leaveLeftover('pool-98', 'elsewhere');
    patchSetSpec(cluster, 'pool', { maxReplicas: 5 });
    await until('the leftover is torn down', () => !fake.realised.has('pool-99'));
    expect(fake.realised.has('other-3')).toBe(true);
    expect(fake.realised.has('pool-98')).toBe(true);
    await until('an event names it', () =>
      eventsOf(cluster, 'pool').some(
        (e) => e.reason === EventReasons.LeftoverTornDown && e.message.includes('pool-99'),
      ),
    );
  });
});

describe('lifecycle provisioner › §3.12 drain', () => {
  it('deleting the set tears every instance down as its Exporter goes', async () => {
    const { cluster, fake } = await lifecycleScenario();
    createSet(cluster, 'pool', { virtualTargetClassName: 'fake', minAvailableReplicas: 3 });
    await until('3 available', () => getSet(cluster, 'pool')?.status?.availableReplicas === 3);
    const before = names(cluster, 'pool');
    const sets = cluster.registry.get('virtualtarget.jumpstarter.dev', 'v1alpha1', 'exportersets')!;
    cluster.store.delete(sets, NS, 'pool');
    await until('the set is gone', () => getSet(cluster, 'pool') === undefined);
    expect(fake.realised.size).toBe(0);
    expect(fake.namesOf('teardown').sort()).toEqual(expect.arrayContaining(before));
    // Each went with its Exporter's delete, none was left for the leftover sweep.
    expect(eventsOf(cluster, 'pool').filter((e) => e.reason === EventReasons.LeftoverTornDown)).toEqual([]);
  });
});

describe('lifecycle provisioner › observation', () => {
  it('an observe that fails shows on the set’s InstancesHealthy condition with its message', async () => {
    const { cluster, fake } = await lifecycleScenario();
    createSet(cluster, 'pool', { virtualTargetClassName: 'fake', minAvailableReplicas: 1 });
    await until('1 available', () => getSet(cluster, 'pool')?.status?.availableReplicas === 1);
    fake.observeError = 'ssh: handshake failed with host-0';
    patchSetSpec(cluster, 'pool', { maxReplicas: 5 });
    await until('the condition says so', () => {
      const healthy = condition(getSet(cluster, 'pool'), ConditionTypes.InstancesHealthy);
      return healthy?.status === 'False' && healthy.reason === ConditionReasons.InstancesUnobserved;
    });
    expect(condition(getSet(cluster, 'pool'), ConditionTypes.InstancesHealthy)?.message).toContain(
      'ssh: handshake failed with host-0',
    );
  });
});
