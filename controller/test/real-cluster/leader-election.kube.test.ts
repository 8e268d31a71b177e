/**
 * Two controller processes on the real server with `--leader-elect`: one holds the
 * coordination.k8s.io Lease and works, the other waits; the leader is killed (SIGKILL: no release),
 * the other takes the Lease once it expires and serves a set created after the failover.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CoordinationV1Api } from '@kubernetes/client-node';
import { TEMPLATE_LABELS, startRealScenario, until, type RealScenario } from './harness';
import { INSTALL_NAMESPACE, startControllerProcess, type ControllerProcess } from './support';

let s: RealScenario;

beforeAll(async () => {
  // The in-process manager of the harness is stopped: only the two processes below run.
  s = await startRealScenario();
  await s.manager.stop();
  await s.createClass();
}, 180_000);
afterAll(() => s?.stop());

const LEASE = 'exporter-set-controller-qemu.jumpstarter.dev';

describe('real server › leader election', () => {
  it('fails over to the second process when the leader is killed', async () => {
    const coordination = s.cluster.kubeConfig.makeApiClient(CoordinationV1Api);
    const holder = async () =>
      (await coordination.readNamespacedLease({ name: LEASE, namespace: INSTALL_NAMESPACE })).spec
        ?.holderIdentity;
    const args = [
      '--leader-elect',
      '--metrics-bind-address=0',
      '--health-probe-bind-address=0',
      '--log-level=info',
    ];
    const processes: Record<string, ControllerProcess> = {
      a: await startControllerProcess(s.cluster, args, 'controller-a', { POD_NAME: 'ctl-a' }),
      b: await startControllerProcess(s.cluster, args, 'controller-b', { POD_NAME: 'ctl-b' }),
    };
    const first = await until('a leader', async () => (await holder())?.split('_')[0], 120_000);
    const [leader, standby] = first === 'ctl-a' ? (['a', 'b'] as const) : (['b', 'a'] as const);
    await s.createSet('before', {
      selector: { matchLabels: { ...TEMPLATE_LABELS, pool: 'before' } },
      template: { metadata: { labels: { ...TEMPLATE_LABELS, pool: 'before' } }, spec: { drivers: [] } },
      minAvailableReplicas: 1,
    });
    await until(
      'served by the leader',
      async () => (await s.getSet('before'))?.status?.availableReplicas === 1,
      60_000,
    );

    processes[leader].child.kill('SIGKILL');
    const next = await until(
      'a new leader',
      async () => {
        const h = (await holder())?.split('_')[0];
        return h === `ctl-${standby}` ? h : undefined;
      },
      60_000,
    );
    expect(next).toBe(`ctl-${standby}`);
    await s.createSet('after', {
      selector: { matchLabels: { ...TEMPLATE_LABELS, pool: 'after' } },
      template: { metadata: { labels: { ...TEMPLATE_LABELS, pool: 'after' } }, spec: { drivers: [] } },
      minAvailableReplicas: 1,
    });
    await until(
      'served by the new leader',
      async () => (await s.getSet('after'))?.status?.availableReplicas === 1,
      60_000,
    );
    expect(processes[standby].output()).toContain('started leading');
    expect(await processes[standby].stop()).toBe(0);
    expect(s.forbidden()).toEqual([]);
  }, 300_000);
});
