/**
 * A class switched to another provisioner mid-life (SPEC §3.13), reproduced on the test cluster with
 * only this controller running (the new provisioner has none): the controller records on the set which
 * provisioner runs it now (ProvisionerSwitched, and a Warning event), the instances it made are
 * drained — their Pods stop — and deleting the set completes, the drain finalizer removed by the
 * controller that added it.
 */
import { describe, expect, it } from '@jest/globals';
import { Annotations, DRAIN_FINALIZER } from 'virtual-exporters/internal';
import type { TestCluster } from 'virtual-exporters-test-cluster';
import {
  NS,
  condition,
  createClass,
  createSet,
  eventsOf,
  getSet,
  instancesOf,
  podNames,
  scenarioPerTest,
  until,
} from './support';

const startScenario = scenarioPerTest();

/** The class `qemu` now names a provisioner no controller here runs. */
function switchProvisioner(cluster: TestCluster): void {
  const classes = cluster.registry.get('virtualtarget.jumpstarter.dev', 'v1alpha1', 'virtualtargetclasses')!;
  cluster.store.patch(classes, NS, 'qemu', 'merge', { spec: { provisioner: 'ec2.jumpstarter.dev' } });
}

function deleteSet(cluster: TestCluster, name: string): void {
  const sets = cluster.registry.get('virtualtarget.jumpstarter.dev', 'v1alpha1', 'exportersets')!;
  cluster.store.delete(sets, NS, name);
}

describe('§3.13: a class switched to another provisioner', () => {
  it('drains the instances this controller made and lets the deleted set go', async () => {
    const { cluster } = await startScenario({ speedUp: 20 });
    createClass(cluster);
    createSet(cluster, 'moved', { minAvailableReplicas: 2 });
    await until('2 available', () => getSet(cluster, 'moved')?.status?.availableReplicas === 2);
    expect(getSet(cluster, 'moved')?.metadata?.finalizers).toContain(DRAIN_FINALIZER);
    expect(
      instancesOf(cluster, 'moved').map((e) => e.metadata?.annotations?.[Annotations.provisioner]),
    ).toEqual(['qemu.jumpstarter.dev', 'qemu.jumpstarter.dev']);

    switchProvisioner(cluster);
    await until(
      'its instances and Pods gone',
      () => instancesOf(cluster, 'moved').length === 0 && podNames(cluster).length === 0,
    );
    expect(
      eventsOf(cluster, 'moved').some((e) => e.reason === 'ProvisionerChanged' && e.type === 'Warning'),
    ).toBe(true);
    // Before it let go, the controller recorded which provisioner runs the set now.
    expect(condition(getSet(cluster, 'moved'), 'ProvisionerSwitched')).toMatchObject({
      status: 'True',
      reason: 'ProvisionerChanged',
      message: expect.stringContaining(
        'was switched to provisioner "ec2.jumpstarter.dev" while the set ran: the controller of "ec2.jumpstarter.dev" runs the set now',
      ),
    });

    deleteSet(cluster, 'moved');
    await until('the set gone', () => getSet(cluster, 'moved') === undefined);
  });

  it('completes the deletion of a set switched after it was deleted, leased instance included', async () => {
    const { cluster } = await startScenario({ speedUp: 20 });
    const leases = cluster.jumpstarter!.leases;
    createClass(cluster);
    createSet(cluster, 'late', { minAvailableReplicas: 1 });
    await until('1 available', () => getSet(cluster, 'late')?.status?.availableReplicas === 1);
    const lease = leases.create({
      namespace: NS,
      selector: { matchLabels: { board: 'qemu-x86' } },
      duration: '1h',
    });
    await until('leased', () => getSet(cluster, 'late')?.status?.leasedReplicas === 1);

    deleteSet(cluster, 'late');
    switchProvisioner(cluster);
    await until('only the leased instance left', () => instancesOf(cluster, 'late').length === 1);
    expect(getSet(cluster, 'late')?.metadata?.deletionTimestamp).toBeDefined();

    leases.release(NS, lease.metadata.name!);
    await until('the set gone', () => getSet(cluster, 'late') === undefined);
    await until('no instance left', () => instancesOf(cluster, 'late').length === 0);
  });
});
