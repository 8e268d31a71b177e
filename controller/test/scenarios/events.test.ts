/**
 * Events on the set (SPEC §3): each scale action and each condition change is a Kubernetes Event on
 * the ExporterSet, written by the controller, saying what happened to which instances and why.
 */
import { describe, expect, it } from '@jest/globals';
import { LeaseState } from 'virtual-exporters-test-cluster';
import {
  NS,
  TEMPLATE_LABELS,
  createClass,
  eventsOf,
  createSet,
  getSet,
  instancesOf,
  patchSetSpec,
  scenarioPerTest,
  until,
} from './support';

const startScenario = scenarioPerTest();

describe('events on the set', () => {
  it('records scale actions and condition changes with what, which and why', async () => {
    const { cluster } = await startScenario({ speedUp: 20 });
    const events = () => eventsOf(cluster, 'ev');
    const withReason = (reason: string) => events().filter((e) => e.reason === reason);
    const leases = cluster.jumpstarter!.leases;
    createClass(cluster);
    createSet(cluster, 'ev', {
      minAvailableReplicas: 2,
      scaleDownCooldown: '1s',
      recycleStrategy: 'ExitAndReplace',
    });
    const status = () => getSet(cluster, 'ev')?.status;
    await until('2 available', () => status()?.availableReplicas === 2);

    const [up] = await until('ScaledUp', () =>
      withReason('ScaledUp').length > 0 ? withReason('ScaledUp') : undefined,
    );
    expect(up.type).toBe('Normal');
    expect(up.message).toMatch(/^created 2 instances ev-0, ev-1 to keep the warm buffer$/);
    expect(up.involvedObject.uid).toBe(getSet(cluster, 'ev')!.metadata!.uid);
    expect(up.source?.component).toBe('exporter-set-controller');

    // A lease and its end: the instance is recycled, and the refill is another ScaledUp.
    const lease = leases.create({
      namespace: NS,
      selector: { matchLabels: { ...TEMPLATE_LABELS } },
      duration: '1h',
    });
    const held = (await leases.waitFor(NS, lease.metadata.name!, LeaseState.assigned, 20_000)).status!
      .exporterRef!.name;
    leases.release(NS, lease.metadata.name!);
    const recycled = await until('InstanceRecycled', () => withReason('InstanceRecycled')[0]);
    expect(recycled.message).toContain(held);
    expect(recycled.message).toContain('after its lease (ExitAndReplace)');

    // A smaller buffer: the surplus goes after the cooldown, as ScaledDown.
    await until(
      'back at 2',
      () => status()?.availableReplicas === 2 && instancesOf(cluster, 'ev').length === 2,
    );
    patchSetSpec(cluster, 'ev', { minAvailableReplicas: 1 });
    const down = await until('ScaledDown', () =>
      withReason('ScaledDown').find((e) => e.message.startsWith('deleted')),
    );
    expect(down.message).toMatch(/as idle surplus after scaleDownCooldown$/);

    // A condition change: the class disappears (Warning), and comes back (Normal).
    const classes = cluster.registry.get(
      'virtualtarget.jumpstarter.dev',
      'v1alpha1',
      'virtualtargetclasses',
    )!;
    cluster.store.delete(classes, NS, 'qemu');
    const lost = await until('class lost', () =>
      withReason('VirtualTargetClassNotFound').find((e) => e.message.startsWith('Available')),
    );
    expect(lost.type).toBe('Warning');
    expect(lost.message).toContain('Available is False');
    createClass(cluster);
    await until(
      'class back',
      () =>
        events().some((e) => e.type === 'Normal' && e.message.startsWith('Available is True')) &&
        events().some((e) => e.type === 'Normal' && e.message.startsWith('ParametersValid is True')),
    );
    // One event per decision, not one per pass: nothing is repeated while the pool is settled.
    const count = events().length;
    const settledAt = cluster.clock.now();
    await until('5 s of cluster time', () => cluster.clock.now() - settledAt >= 5_000);
    expect(events()).toHaveLength(count);
  });

  it('warns on a startup failure with the Pod’s message', async () => {
    const { cluster } = await startScenario({ speedUp: 20 });
    cluster.kubelet!.injectFault(
      { namespace: NS },
      { kind: 'crash', message: 'qemu: cannot open /dev/kvm' },
      { times: 1 },
    );
    createClass(cluster);
    createSet(cluster, 'fails', { minAvailableReplicas: 1 });
    const failure = await until('StartupFailure', () =>
      eventsOf(cluster).find((e) => e.reason === 'StartupFailure'),
    );
    expect(failure.type).toBe('Warning');
    expect(failure.message).toMatch(
      /^instance fails-0 failed before becoming ready: .*cannot open \/dev\/kvm/,
    );
  });
});
