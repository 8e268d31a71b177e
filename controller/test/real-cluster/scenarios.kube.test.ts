/**
 * Scenarios on the real server (one cluster for the file, one set per scenario): scale from zero on a
 * waiting lease, warm-buffer refill after a lease, scale-down with graceful disable, deleting a set
 * while an instance is leased (the finalizer waits, then the real garbage collector takes the rest),
 * `kubectl scale` through /scale, `kubectl wait --for=condition=Available`, `kubectl get` with the
 * printer columns — and, through all of them, not one request of the controller refused by RBAC.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DRAIN_FINALIZER, Labels } from 'virtual-exporters/internal';
import { LeaseState } from 'virtual-exporters-test-cluster';
import { NS, TEMPLATE_LABELS, condition, startRealScenario, until, type RealScenario } from './harness';

let s: RealScenario;

beforeAll(async () => {
  s = await startRealScenario();
  await s.createClass();
}, 180_000);
afterAll(() => s?.stop());

const leases = () => s.sims.jumpstarter!.leases;
const selectorOf = (pool: string) => ({ matchLabels: { ...TEMPLATE_LABELS, pool } });
const template = (pool: string) => ({
  metadata: { labels: { ...TEMPLATE_LABELS, pool } },
  spec: { drivers: [] },
});
const status = async (name: string) => (await s.getSet(name))?.status;

describe('real server › scaling', () => {
  it('scales from zero: a lease waits Pending on the standby and is served', async () => {
    await s.createSet('zero', {
      selector: selectorOf('zero'),
      template: template('zero'),
      minAvailableReplicas: 0,
      scaleDownCooldown: '1s',
    });
    await until('the standby', async () => (await status('zero'))?.standbyReplicas === 1);
    expect(await s.podNames()).toEqual([]);
    const lease = await leases().create({
      namespace: NS,
      name: 'from-zero',
      selector: selectorOf('zero'),
      duration: '1h',
    });
    const served = await leases().waitFor(NS, lease.metadata.name!, LeaseState.assigned, 60_000);
    expect(served.status?.conditions?.find((c) => c.type === 'Unsatisfiable')).toBeUndefined();
    expect(served.status?.exporterRef?.name).toMatch(/^zero-/);
    await leases().release(NS, 'from-zero');
    await until('ended', async () => (await leases().get(NS, 'from-zero'))?.status?.ended === true);
  });

  it('refills the warm buffer after a lease takes an instance', async () => {
    await s.createSet('warm', {
      selector: selectorOf('warm'),
      template: template('warm'),
      minAvailableReplicas: 2,
    });
    await until('2 available', async () => (await status('warm'))?.availableReplicas === 2);
    const lease = await leases().create({
      namespace: NS,
      name: 'warm-1',
      selector: selectorOf('warm'),
      duration: '1h',
    });
    await leases().waitFor(NS, lease.metadata.name!, LeaseState.assigned, 60_000);
    await until('refilled', async () => {
      const st = await status('warm');
      return (
        st?.availableReplicas === 2 && st.leasedReplicas === 1 && (await s.instancesOf('warm')).length === 3
      );
    });
    await leases().release(NS, 'warm-1');
  });

  it('scales down by disabling, then deleting, surplus idle instances', async () => {
    await s.createSet('shrink', {
      selector: selectorOf('shrink'),
      template: template('shrink'),
      minAvailableReplicas: 4,
      scaleDownCooldown: '1s',
    });
    await until('4 available', async () => (await status('shrink'))?.availableReplicas === 4);
    const disabledSeen = new Set<string>();
    await s.patchSetSpec('shrink', { minAvailableReplicas: 1 });
    await until('down to 1', async () => {
      for (const e of await s.instancesOf('shrink'))
        if (e.spec?.enabled === false) disabledSeen.add(e.metadata!.name!);
      const st = await status('shrink');
      return st?.replicas === 1 && (await s.instancesOf('shrink')).length === 1;
    });
    // Graceful: each leaving instance is disabled first (Jumpstarter assigns it no new lease), and
    // its Pod goes with it (the garbage collector of the real cluster follows the owner references).
    expect(
      (await s.allExporters()).filter((e) => e.metadata?.labels?.[Labels.exporterSetName] === 'shrink')
        .length,
    ).toBeLessThanOrEqual(4);
    await until(
      'their Pods gone',
      async () => (await s.podNames()).filter((p) => p.startsWith('shrink-')).length === 1,
    );
  });
});

describe('real server › deleting a set while an instance is leased', () => {
  it('holds the set with its finalizer until the lease ends, then everything is collected', async () => {
    await s.createSet('doomed', {
      selector: selectorOf('doomed'),
      template: template('doomed'),
      minAvailableReplicas: 2,
    });
    await until('2 available', async () => (await status('doomed'))?.availableReplicas === 2);
    expect((await s.getSet('doomed'))?.metadata?.finalizers).toContain(DRAIN_FINALIZER);
    const lease = await leases().create({
      namespace: NS,
      name: 'doomed-1',
      selector: selectorOf('doomed'),
      duration: '1h',
    });
    const leased = (await leases().waitFor(NS, lease.metadata.name!, LeaseState.assigned, 60_000)).status!
      .exporterRef!.name;
    const deleted = await s.cluster.kubectl(['delete', 'exporterset', 'doomed', '-n', NS, '--wait=false']);
    expect(deleted.code).toBe(0);
    await until('only the leased instance left', async () => {
      const live = await s.instancesOf('doomed');
      return live.length === 1 && live[0]!.metadata!.name === leased;
    });
    await new Promise((r) => setTimeout(r, 2000));
    expect((await s.getSet('doomed'))?.metadata?.deletionTimestamp).toBeDefined();
    expect((await leases().get(NS, 'doomed-1'))?.status?.ended).not.toBe(true);

    await leases().release(NS, 'doomed-1');
    await until('the set gone', async () => (await s.getSet('doomed')) === undefined);
    await until('its instances, Pods and Secrets gone', async () => {
      const left = (await s.allExporters()).filter((e) => e.metadata?.name?.startsWith('doomed-'));
      const pods = (await s.podNames()).filter((p) => p.startsWith('doomed-'));
      return left.length === 0 && pods.length === 0;
    });
  });
});

describe('real server › kubectl', () => {
  it('scales through the /scale subresource, waits for Available and shows the printer columns', async () => {
    await s.createSet('cli', {
      selector: selectorOf('cli'),
      template: template('cli'),
      minAvailableReplicas: 1,
      maxReplicas: 5,
    });
    const wait = await s.cluster.kubectl([
      'wait',
      '--for=condition=Available',
      'exporterset/cli',
      '-n',
      NS,
      '--timeout=90s',
    ]);
    expect(wait).toMatchObject({ code: 0 });
    expect(wait.stdout).toContain('exporterset.virtualtarget.jumpstarter.dev/cli condition met');

    const scaled = await s.cluster.kubectl(['scale', 'exporterset/cli', '-n', NS, '--replicas=3']);
    expect(scaled).toMatchObject({ code: 0 });
    expect((await s.getSet('cli'))?.spec?.maxReplicas).toBe(3);
    const scale = await s.cluster.kubectl([
      'get',
      '--raw',
      `/apis/virtualtarget.jumpstarter.dev/v1alpha1/namespaces/${NS}/exportersets/cli/scale`,
    ]);
    const read = JSON.parse(scale.stdout) as {
      kind: string;
      spec: { replicas: number };
      status: { selector: string };
    };
    expect(read.kind).toBe('Scale');
    expect(read.spec.replicas).toBe(3);
    await until('the selector in status', async () => (await status('cli'))?.selector);

    const table = await s.cluster.kubectl(['get', 'exportersets', 'cli', '-n', NS]);
    const [header, row] = table.stdout.trim().split('\n');
    expect(header!.split(/\s+/)).toEqual([
      'NAME',
      'REPLICAS',
      'READY',
      'AVAILABLE',
      'UNAVAILABLE',
      'LEASED',
      'CLASS',
      'WARM-HIT',
      'WAIT-P95',
      'AGE',
    ]);
    expect(row!.split(/\s+/).slice(0, 1)).toEqual(['cli']);
    expect(row).toContain('qemu');
    expect(condition(await s.getSet('cli'), 'Available')?.status).toBe('True');
  });
});

describe('real server › managedFields', () => {
  it('the server keeps them on every object; the controller caches none of them', async () => {
    const fromServer = await s.allExporters();
    expect(fromServer.length).toBeGreaterThan(0);
    for (const e of fromServer)
      expect((e.metadata as { managedFields?: unknown[] }).managedFields?.length).toBeGreaterThan(0);
    const informers = s.manager.informers;
    const cached = [
      ...informers.exporterSets.list(),
      ...informers.exporters.list(),
      ...informers.pods.list(),
      ...informers.secrets.list(),
      ...informers.leases.list(),
      ...informers.controllerRevisions.list(),
    ];
    expect(cached.length).toBeGreaterThan(fromServer.length);
    expect(
      cached.filter(
        (o) => (o.metadata as { managedFields?: unknown } | undefined)?.managedFields !== undefined,
      ),
    ).toEqual([]);
  });
});

describe('real server › RBAC through every scenario', () => {
  it('the controller got no 403 from the real authorizer', async () => {
    expect(s.forbidden()).toEqual([]);
    // and it did work as its ServiceAccount (not as an admin)
    expect(
      s.cluster.audit.requests({
        user: /^system:serviceaccount:jumpstarter:exporter-set-controller$/,
        verb: 'create',
        resource: 'exporters',
      }).length,
    ).toBeGreaterThan(0);
  });
});
