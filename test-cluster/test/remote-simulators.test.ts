/**
 * The Jumpstarter and kubelet simulators as clients of an API server: the test cluster started
 * WITHOUT its in-process simulators, and `startRemoteSimulators` watching and writing through the
 * cluster's URL as the `simulators` identity, on the real clock. What they do must be what they do in
 * process (remote-simulators-parity.test.ts runs one scenario in both modes and compares).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { LeaseState } from '../src';
import { cond, NS, plainPod, startRemoteWorld, until, type RemoteWorld } from './remote-support';

const SIMULATORS = 'simulators';
const started: RemoteWorld[] = [];
afterEach(async () => {
  for (const world of started.splice(0)) await world.stop();
});

async function start() {
  const world = await startRemoteWorld(SIMULATORS);
  started.push(world);
  return world;
}

describe('remote simulators › kubelet', () => {
  it('boots a Pod Pending → Running and Ready after the boot delay, through pods/status', async () => {
    const { cluster, sims, api } = await start();
    await api.core.createNamespacedPod({ namespace: NS, body: plainPod('web') });

    const pod = await until('the Pod to run', async () => {
      const p = await api.pod('web');
      return p.status?.phase === 'Running' ? p : undefined;
    });
    expect(pod.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(pod.status?.containerStatuses?.[0]).toMatchObject({ name: 'app', ready: true, started: true });
    expect(pod.status?.containerStatuses?.[0].state?.running?.startedAt).toBeDefined();
    expect(pod.status?.startTime).toBeDefined();
    expect(pod.status?.podIP).toMatch(/^10\.244\./);
    // One status write for Pending, one for Running, each to the status subresource.
    const statusPatches = {
      identity: SIMULATORS,
      verb: 'patch',
      resource: 'pods',
      subresource: 'status',
    } as const;
    expect(cluster.counters.total(statusPatches)).toBe(2);
    expect(
      cluster.counters.total({
        identity: SIMULATORS,
        resource: 'pods',
        subresource: '',
        verb: ['update', 'patch'],
      }),
    ).toBe(0);
    expect(sims.kubelet!.errors).toEqual([]);
  });

  it('forgets a Pod deleted while its status write is on the wire: the 404 is no error', async () => {
    const { cluster, sims, api } = await start();
    cluster.faults.add({ kind: 'latency', ms: 300, identity: SIMULATORS, verb: 'patch', resource: 'pods' });
    await api.core.createNamespacedPod({ namespace: NS, body: plainPod('brief') });
    await until('the simulators to see the Pod', async () => sims.port.get('Pod', NS, 'brief'));
    await api.core.deleteNamespacedPod({ namespace: NS, name: 'brief' });

    await until('the delayed status write to be answered', async () =>
      cluster.counters.totalWithCode(404, { identity: SIMULATORS, resource: 'pods' }) > 0 ? true : undefined,
    );
    await sims.settle();
    expect(sims.kubelet!.errors).toEqual([]);
    expect(sims.port.get('Pod', NS, 'brief')).toBeUndefined();
  });
  it('injects faults: a Pod that never becomes ready, a Pod that crashes at start, a crash on request', async () => {
    const { sims, api } = await start();
    sims.kubelet!.injectFault({ name: 'stuck' }, { kind: 'never-ready' });
    sims.kubelet!.injectFault({ image: 'registry.test/broken:1' }, { kind: 'crash', message: 'segfault' });
    await api.core.createNamespacedPod({ namespace: NS, body: plainPod('stuck') });
    const broken = plainPod('broken');
    broken.spec.containers[0].image = 'registry.test/broken:1';
    await api.core.createNamespacedPod({ namespace: NS, body: broken });
    await api.core.createNamespacedPod({ namespace: NS, body: plainPod('doomed') });

    const phaseOf = async (name: string) => (await api.pod(name)).status;
    const stuck = await until('stuck to run', async () => {
      const status = await phaseOf('stuck');
      return status?.phase === 'Running' ? status : undefined;
    });
    expect(stuck.conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');
    const failed = await until('broken to fail', async () => {
      const status = await phaseOf('broken');
      return status?.phase === 'Failed' ? status : undefined;
    });
    expect(failed.containerStatuses?.[0].state?.terminated).toMatchObject({
      exitCode: 1,
      message: 'segfault',
    });

    await until('doomed to run', async () =>
      (await phaseOf('doomed'))?.phase === 'Running' ? true : undefined,
    );
    sims.kubelet!.crash(NS, 'doomed', 'killed');
    const crashed = await until('doomed to fail', async () => {
      const status = await phaseOf('doomed');
      return status?.phase === 'Failed' ? status : undefined;
    });
    expect(crashed.containerStatuses?.[0].state?.terminated?.message).toBe('killed');
    expect(sims.kubelet!.errors).toEqual([]);
  });
});

describe('remote simulators › Jumpstarter', () => {
  it('issues an Exporter its credential Secret, and reports it Online once its Pod runs with its token', async () => {
    const { sims, api } = await start();
    const created = await api.createExporter('pool-0');
    const { exporter, token } = await api.credential('pool-0');

    const secret = await api.core.readNamespacedSecret({ namespace: NS, name: 'pool-0-exporter' });
    expect(secret.metadata?.ownerReferences).toEqual([
      expect.objectContaining({
        kind: 'Exporter',
        name: 'pool-0',
        uid: created.metadata.uid,
        controller: true,
      }),
    ]);
    expect(token).toBe(sims.jumpstarter!.token(NS, 'pool-0'));
    expect(exporter.status?.endpoint).toBe('grpc.jumpstarter.test:443');
    // No Pod yet: registered by nobody, offline.
    expect(cond(exporter, 'Registered')).toBe('False/NotRegistered');
    expect(cond(exporter, 'Online')).toBe('False/Seen');

    await api.createInstance(created, exporter.status, token);
    const online = await until('Online', async () => {
      const e = await api.exporter('pool-0');
      return cond(e, 'Online') === 'True/Seen' ? e : undefined;
    });
    expect(cond(online, 'Registered')).toBe('True/Registered');
    expect(online.status?.exporterStatus).toBe('Available');
    expect((await api.pod('pool-0')).status?.phase).toBe('Running');
    expect(sims.jumpstarter!.errors).toEqual([]);
  });

  it('rotates a token into the credential Secret', async () => {
    const { sims, api } = await start();
    await api.createExporter('pool-0');
    const { token: before } = await api.credential('pool-0');

    const rotated = await sims.jumpstarter!.rotateToken(NS, 'pool-0');
    expect(rotated).not.toBe(before);
    const secret = await api.core.readNamespacedSecret({ namespace: NS, name: 'pool-0-exporter' });
    expect(Buffer.from(secret.data!.token, 'base64').toString('utf8')).toBe(rotated);
    expect(sims.jumpstarter!.token(NS, 'pool-0')).toBe(rotated);
  });

  it('refuses an exporter whose config carries a stale token: its Pod fails, the Exporter stays unregistered', async () => {
    const { sims, api } = await start();
    const created = await api.createExporter('pool-0');
    const { exporter } = await api.credential('pool-0');
    await api.createInstance(created, exporter.status, 'not.the.token');

    const pod = await until('the Pod to fail', async () => {
      const p = await api.pod('pool-0');
      return p.status?.phase === 'Failed' ? p : undefined;
    });
    expect(pod.status?.containerStatuses?.[0].state?.terminated?.message).toMatch(
      /registration refused: the token/,
    );
    await sims.settle();
    expect(cond(await api.exporter('pool-0'), 'Registered')).toBe('False/NotRegistered');
  });
});

describe('remote simulators › leases', () => {
  it('assigns a Lease to a matching online Exporter, which owns it, and ends it on release', async () => {
    const { sims, api } = await start();
    const exporter = await api.onlineInstance('pool-0');
    const leases = sims.jumpstarter!.leases;

    const created = await leases.create({
      namespace: NS,
      selector: { matchLabels: { board: 'rpi4' } },
      duration: '1h',
    });
    expect(created.metadata.name).toMatch(/^lease-/);
    const assigned = await leases.waitFor(NS, created.metadata.name!, LeaseState.assigned);
    expect(assigned.status?.exporterRef?.name).toBe('pool-0');
    expect(cond(assigned, 'Ready')).toBe('True/Acquired');
    expect(assigned.metadata.ownerReferences).toEqual([
      expect.objectContaining({
        kind: 'Exporter',
        name: 'pool-0',
        uid: exporter.metadata.uid,
        controller: true,
      }),
    ]);
    const leased = await until('leaseRef', async () => {
      const e = await api.exporter('pool-0');
      return e.status?.leaseRef?.name === created.metadata.name ? e : undefined;
    });
    expect(leased.status?.exporterStatus).toBe('LeaseReady');

    await leases.release(NS, created.metadata.name!);
    const ended = await leases.waitFor(NS, created.metadata.name!, LeaseState.ended);
    expect(cond(ended, 'Ready')).toBe('False/Released');
    // ExitAndReplace: the exporter exits with its lease and the Pod succeeds.
    await until('the Pod to succeed', async () =>
      (await api.pod('pool-0')).status?.phase === 'Succeeded' ? true : undefined,
    );
    const labelled = await until('the lease-ended label', async () => {
      const l = await leases.get(NS, created.metadata.name!);
      return l?.metadata.labels?.['jumpstarter.dev/lease-ended'] === 'true' ? l : undefined;
    });
    expect(labelled.status?.ended).toBe(true);
    expect((await leases.list(NS)).map((l) => l.metadata.name)).toEqual([created.metadata.name]);
    expect(sims.jumpstarter!.errors).toEqual([]);
    expect(sims.kubelet!.errors).toEqual([]);
  });

  it('ends a Lease no Exporter matches as Unsatisfiable at once', async () => {
    const { sims } = await start();
    const leases = sims.jumpstarter!.leases;
    const lease = await leases.create({
      namespace: NS,
      name: 'nobody',
      selector: { matchLabels: { board: 'none' } },
    });
    const ended = await leases.waitFor(NS, lease.metadata.name!, LeaseState.ended);
    expect(cond(ended, 'Unsatisfiable')).toBe('True/NoAccess');
  });
});

describe('remote simulators › writes against a server that races them', () => {
  it('retries a status write answered 409 on a fresh read', async () => {
    const { cluster, sims, api } = await start();
    const statusWrite = { identity: SIMULATORS, verb: 'patch', subresource: 'status', times: 1 } as const;
    const podConflict = cluster.faults.add({ kind: 'error', code: 409, resource: 'pods', ...statusWrite });
    const exporterConflict = cluster.faults.add({
      kind: 'error',
      code: 409,
      resource: 'exporters',
      ...statusWrite,
    });
    await api.onlineInstance('pool-0');

    expect(cluster.faults.hits(podConflict)).toBe(1);
    expect(cluster.faults.hits(exporterConflict)).toBe(1);
    // Each conflict was followed by a read of the object before the write was tried again.
    expect(
      cluster.counters.total({ identity: SIMULATORS, verb: 'get', resource: 'pods' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      cluster.counters.total({ identity: SIMULATORS, verb: 'get', resource: 'exporters' }),
    ).toBeGreaterThanOrEqual(1);
    expect((await api.pod('pool-0')).status?.phase).toBe('Running');
    expect(sims.jumpstarter!.errors).toEqual([]);
    expect(sims.kubelet!.errors).toEqual([]);
  });
  it('writes a Pod status that lost a race with another writer again, on the Pod as it is now', async () => {
    const { cluster, sims, api } = await start();
    // The kubelet's first status write waits at the server while someone else labels the Pod.
    const firstPodWrite = { identity: SIMULATORS, verb: 'patch', resource: 'pods', times: 1 } as const;
    cluster.faults.add({ kind: 'latency', ms: 300, ...firstPodWrite });
    await api.core.createNamespacedPod({ namespace: NS, body: plainPod('raced') });
    await until('the simulators to see the Pod', async () => sims.port.get('Pod', NS, 'raced'));
    await api.core.patchNamespacedPod(
      { namespace: NS, name: 'raced', body: { metadata: { labels: { touched: 'yes' } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );

    const pod = await until('the Pod to run', async () => {
      const p = await api.pod('raced');
      return p.status?.phase === 'Running' ? p : undefined;
    });
    expect(cluster.counters.totalWithCode(409, { identity: SIMULATORS, resource: 'pods' })).toBe(1);
    expect(pod.metadata?.labels).toEqual({ touched: 'yes' });
    expect(sims.kubelet!.errors).toEqual([]);
  });
});

describe('remote simulators › settle', () => {
  it('resolves once every event received is handled and no write is in flight: the answers are on the server', async () => {
    const { cluster, sims, api } = await start();
    // Slow writes, so a settle that did not wait for them would be caught.
    cluster.faults.add({ kind: 'latency', ms: 100, identity: SIMULATORS, verb: ['create', 'patch'] });
    await api.createExporter('pool-0');
    await until('the simulators to see the Exporter', async () => sims.port.get('Exporter', NS, 'pool-0'));

    await sims.settle();
    const secret = await api.core.readNamespacedSecret({ namespace: NS, name: 'pool-0-exporter' });
    expect(secret.data?.token).toBeDefined();
    expect((await api.exporter('pool-0')).status?.credential?.name).toBe('pool-0-exporter');
  });
});
