/**
 * The Jumpstarter simulator on a real store, with the kubelet simulator running the exporter Pods:
 * credentials, Registered/Online from the exporter process, leaseRef, and lease assignment and ends
 * as INTEROP §1–2 say — the behaviours the controller's end-to-end tests rely on. Time is a manual
 * clock: every delay is advanced explicitly, so the tests take no wall time.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { stringify } from 'yaml';
import { jumpstarterCrds, type Condition, type Exporter, type Lease } from 'virtual-exporters/internal';
import { clusterClocks, manualClock, type ClockOffsets } from '../src/clock';
import type { LeaseRequest } from '../src/jumpstarter/lease-client';
import { startJumpstarterSimulator, type JumpstarterSimulatorOptions } from '../src/jumpstarter/simulator';
import { settle } from '../src/jumpstarter/work-queue';
import { startKubeletSimulator, type KubeletSimulatorOptions } from '../src/kubelet/simulator';
import { createRegistry } from '../src/registry';
import { createStore } from '../src/store';
import type { KubeObject, ResourceType } from '../src/types';

const NS = 'lab';
const BOOT_MS = 50;
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

function world(
  options: {
    jumpstarter?: Partial<JumpstarterSimulatorOptions>;
    kubelet?: Partial<KubeletSimulatorOptions>;
    /** Writes into the store before the simulators start. */
    before?: (store: ReturnType<typeof createStore>) => void;
    /** Machines' clocks off true time, as in a test cluster: the store stamps on the API server's. */
    clockOffsets?: ClockOffsets;
  } = {},
) {
  const clock = manualClock();
  const clocks = clusterClocks(clock, options.clockOffsets);
  const store = createStore({
    registry: createRegistry([...jumpstarterCrds]),
    clock: options.clockOffsets ? clocks.apiServer : clock,
    namespaces: [NS],
  });
  options.before?.(store);
  const jumpstarter = startJumpstarterSimulator({ store, clock, ...options.jumpstarter });
  const kubelet = startKubeletSimulator({
    store,
    clock: options.clockOffsets ? clocks.kubelet : clock,
    bootDelayMs: BOOT_MS,
    ...options.kubelet,
  });
  stops.push(() => {
    kubelet.stop();
    jumpstarter.stop();
    store.close();
  });
  const rt = (apiVersion: string, kind: string): ResourceType => {
    const found = store.registry.byKind(apiVersion, kind);
    if (!found) throw new Error(`no ${kind}`);
    return found;
  };
  const exporterRt = rt('jumpstarter.dev/v1alpha1', 'Exporter');
  const leaseRt = rt('jumpstarter.dev/v1alpha1', 'Lease');
  const podRt = rt('v1', 'Pod');
  const secretRt = rt('v1', 'Secret');

  /**
   * Lets the simulators react to what the test did (reactions take no cluster time), advances the
   * clock, then lets them and the garbage collector finish reacting.
   */
  async function run(ms = 0): Promise<void> {
    await settle([jumpstarter, kubelet]);
    clock.advance(ms);
    for (let i = 0; i < 4; i++) {
      await settle([jumpstarter, kubelet]);
      clock.advance(0);
    }
    await settle([jumpstarter, kubelet]);
  }

  function createExporter(
    name: string,
    labels: Record<string, string> = { board: 'rpi4' },
    enabled?: boolean,
  ) {
    return store.create(exporterRt, NS, {
      apiVersion: 'jumpstarter.dev/v1alpha1',
      kind: 'Exporter',
      metadata: { name, labels },
      spec: enabled === undefined ? {} : { enabled },
    });
  }

  /** The exporter config Secret a controller renders (INTEROP §3). */
  function createConfig(name: string, exitOnLeaseEnd: boolean, token?: string) {
    const config = {
      apiVersion: 'jumpstarter.dev/v1alpha1',
      kind: 'ExporterConfig',
      metadata: { name, namespace: NS },
      endpoint: jumpstarter.endpoint,
      tls: { ca: '' },
      token: token ?? jumpstarter.token(NS, name),
      export: { power: { type: 'jumpstarter_driver_power.driver.MockPower' } },
      exitOnLeaseEnd,
    };
    return store.create(secretRt, NS, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `exporter-config-${name}` },
      data: { 'config.yaml': Buffer.from(stringify(config)).toString('base64') },
    });
  }

  /** An exporter Pod shaped as INTEROP §4 (owned by its Exporter, config mounted when `withConfig`). */
  function createPod(name: string, withConfig = true) {
    const owner = store.get(exporterRt, NS, name);
    return store.create(podRt, NS, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        labels: { 'exporterset.jumpstarter.dev/name': 'pool' },
        ownerReferences: [
          {
            apiVersion: 'jumpstarter.dev/v1alpha1',
            kind: 'Exporter',
            name,
            uid: owner.metadata.uid ?? '',
            controller: true,
          },
        ],
      },
      spec: {
        restartPolicy: 'Never',
        initContainers: [
          { name: 'copy-jumpstarter-exec', image: 'quay.io/jumpstarter-dev/jumpstarter:latest' },
          {
            name: 'target-runtime',
            image: 'quay.io/jumpstarter-dev/virtual/qemu-runtime:latest',
            restartPolicy: 'Always',
          },
        ],
        containers: [{ name: 'exporter', image: 'quay.io/jumpstarter-dev/jumpstarter:latest' }],
        volumes: withConfig
          ? [{ name: 'exporter-config', secret: { secretName: `exporter-config-${name}` } }]
          : [],
      },
    });
  }

  /** Exporter + config + Pod, booted: what one ready instance of a pool looks like. */
  async function instance(name: string, exitOnLeaseEnd = false, labels?: Record<string, string>) {
    createExporter(name, labels);
    await run();
    createConfig(name, exitOnLeaseEnd);
    createPod(name);
    await run(BOOT_MS);
  }

  const exporter = (name: string) => store.get(exporterRt, NS, name) as unknown as Exporter;
  const lease = (name: string) => store.get(leaseRt, NS, name) as unknown as Lease;
  const pod = (name: string) => store.get(podRt, NS, name);
  const exists = (type: ResourceType, name: string) =>
    store.list(type, NS).items.some((o) => o.metadata.name === name);
  const createLease = (name: string, spec: Omit<LeaseRequest, 'namespace' | 'name'> = {}) =>
    jumpstarter.leases.create({ namespace: NS, name, selector: { matchLabels: { board: 'rpi4' } }, ...spec });

  return {
    clock,
    clocks,
    store,
    jumpstarter,
    kubelet,
    run,
    createExporter,
    createConfig,
    createPod,
    instance,
    createLease,
    exporter,
    lease,
    pod,
    exists,
    exporterRt,
    leaseRt,
    podRt,
    secretRt,
  };
}

/** `type=status/reason` of a condition, for compact assertions. */
function cond(object: { status?: { conditions?: readonly Condition[] } } | KubeObject, type: string): string {
  const conditions = (object.status as { conditions?: Condition[] } | undefined)?.conditions ?? [];
  const c = conditions.find((x) => x.type === type);
  return c ? `${c.status}/${c.reason}` : 'absent';
}

describe('credentials', () => {
  it('issues each Exporter a JWT-shaped token in a Secret it owns and reports it in status', async () => {
    const w = world();
    const created = w.createExporter('e1');
    await w.run();

    const secret = w.store.get(w.secretRt, NS, 'e1-exporter');
    const token = Buffer.from((secret.data as Record<string, string>).token, 'base64').toString();
    expect(token.split('.')).toHaveLength(3);
    expect(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString())).toMatchObject({
      sub: 'lab:e1',
    });
    expect(secret.metadata.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'Exporter', name: 'e1', uid: created.metadata.uid, controller: true }),
    ]);
    expect(w.exporter('e1').status).toMatchObject({
      credential: { name: 'e1-exporter' },
      endpoint: 'grpc.jumpstarter.test:443',
    });
    expect(w.jumpstarter.token(NS, 'e1')).toBe(token);
  });

  it('rotates a token into the same Secret', async () => {
    const w = world();
    w.createExporter('e1');
    await w.run();
    const before = w.jumpstarter.token(NS, 'e1');

    const rotated = w.jumpstarter.rotateToken(NS, 'e1');
    await w.run();

    expect(rotated).not.toBe(before);
    const secret = w.store.get(w.secretRt, NS, 'e1-exporter');
    expect(Buffer.from((secret.data as Record<string, string>).token, 'base64').toString()).toBe(rotated);
  });

  it('refuses an exporter process whose config carries a stale token: its Pod fails before it is ready', async () => {
    const w = world();
    w.createExporter('e1');
    await w.run();
    w.createConfig('e1', false, 'not.the.token');
    w.createPod('e1');
    await w.run(BOOT_MS);

    expect((w.pod('e1').status as { phase: string }).phase).toBe('Failed');
    expect(cond(w.exporter('e1'), 'Registered')).toBe('False/NotRegistered');
  });

  it('uses a configurable endpoint', async () => {
    const w = world({ jumpstarter: { endpoint: 'jumpstarter.example:8082' } });
    w.createExporter('e1');
    await w.run();
    expect(w.exporter('e1').status?.endpoint).toBe('jumpstarter.example:8082');
  });
});

describe('Registered and Online', () => {
  it('keeps an Exporter without a Pod (a standby) unregistered and offline', async () => {
    const w = world();
    w.createExporter('standby');
    await w.run(60_000);

    const status = w.exporter('standby').status;
    expect(cond(w.exporter('standby'), 'Registered')).toBe('False/NotRegistered');
    expect(cond(w.exporter('standby'), 'Online')).toBe('False/Seen');
    expect(status?.exporterStatus).toBe('Offline');
    expect(status?.lastSeen).toBeUndefined();
  });

  it('reports the exporter online once its Pod runs and the process registers, not before', async () => {
    const w = world();
    w.createExporter('e1');
    await w.run();
    w.createConfig('e1', false);
    w.createPod('e1');
    await w.run(BOOT_MS - 1);
    expect(cond(w.exporter('e1'), 'Online')).toBe('False/Seen');

    await w.run(1);
    const exporter = w.exporter('e1');
    expect(cond(exporter, 'Registered')).toBe('True/Registered');
    expect(cond(exporter, 'Online')).toBe('True/Seen');
    expect(exporter.status).toMatchObject({
      exporterStatus: 'Available',
      lastSeen: new Date(w.clock.now()).toISOString(),
      devices: [expect.objectContaining({ labels: { 'jumpstarter.dev/name': 'power' } })],
    });
  });

  it('reports Offline when the exporter Pod is deleted', async () => {
    const w = world();
    await w.instance('e1');
    w.store.delete(w.podRt, NS, 'e1');
    await w.run();

    expect(cond(w.exporter('e1'), 'Online')).toBe('False/Offline');
    expect(cond(w.exporter('e1'), 'Registered')).toBe('False/Unregistered');
    expect(w.exporter('e1').status?.exporterStatus).toBe('Offline');
  });

  it('keeps a crashed exporter online until it has not been seen for 60 s, then Seen', async () => {
    const w = world();
    await w.instance('e1');
    w.kubelet.crash(NS, 'e1');
    await w.run();
    expect((w.pod('e1').status as { phase: string }).phase).toBe('Failed');
    expect(cond(w.exporter('e1'), 'Online')).toBe('True/Seen');

    await w.run(60_000);
    expect(cond(w.exporter('e1'), 'Online')).toBe('False/Seen');
    expect(w.exporter('e1').status?.exporterStatus).toBe('Offline');
  });

  it.each([
    ['behind', -600_000],
    ['ahead', 600_000],
  ])(
    'keeps a crashed exporter online for 60 s of its own time with the API server 10 min %s',
    async (_, offset) => {
      const w = world({ clockOffsets: { apiServer: offset, kubelet: offset } });
      await w.instance('e1');
      w.kubelet.crash(NS, 'e1');
      await w.run();
      expect(cond(w.exporter('e1'), 'Online')).toBe('True/Seen');

      await w.run(59_000);
      expect(cond(w.exporter('e1'), 'Online')).toBe('True/Seen');
      await w.run(1_000);
      expect(cond(w.exporter('e1'), 'Online')).toBe('False/Seen');
    },
  );

  it('reports online the next Pod of an Exporter created before the API server clock was set back 10 min', async () => {
    const w = world({ clockOffsets: {} });
    await w.instance('e1');
    w.clocks.apiServer.setOffsetMs(-600_000);
    w.clocks.kubelet.setOffsetMs(-600_000);
    w.store.delete(w.podRt, NS, 'e1');
    await w.run();
    expect(cond(w.exporter('e1'), 'Online')).toBe('False/Offline');

    w.createPod('e1');
    await w.run(BOOT_MS);
    expect(cond(w.exporter('e1'), 'Registered')).toBe('True/Registered');
    expect(cond(w.exporter('e1'), 'Online')).toBe('True/Seen');
  });

  it('ignores a process still registered for an earlier Exporter of the same name', async () => {
    const w = world();
    w.createExporter('e1');
    await w.run();
    w.jumpstarter.processes.register({ namespace: NS, exporter: 'e1' });
    await w.run();
    expect(cond(w.exporter('e1'), 'Online')).toBe('True/Seen');

    w.store.delete(w.exporterRt, NS, 'e1');
    await w.run();
    w.createExporter('e1');
    await w.run();
    expect(cond(w.exporter('e1'), 'Registered')).toBe('False/NotRegistered');
    expect(cond(w.exporter('e1'), 'Online')).toBe('False/Seen');
  });

  it('never registers the exporter of a Pod injected never-ready', async () => {
    const w = world();
    w.kubelet.injectFault({ name: 'e1' }, { kind: 'never-ready' });
    await w.instance('e1');
    await w.run(10_000);

    expect((w.pod('e1').status as { phase: string }).phase).toBe('Running');
    expect(cond(w.exporter('e1'), 'Registered')).toBe('False/NotRegistered');
    expect(cond(w.exporter('e1'), 'Online')).toBe('False/Seen');
  });

  it('never registers the exporter of a Pod that crashes at boot', async () => {
    const w = world();
    w.kubelet.injectFault(
      { image: 'quay.io/jumpstarter-dev/virtual/qemu-runtime:latest' },
      { kind: 'crash' },
    );
    await w.instance('e1');

    expect((w.pod('e1').status as { phase: string }).phase).toBe('Failed');
    expect(cond(w.exporter('e1'), 'Online')).toBe('False/Seen');
  });
});

describe('lease assignment', () => {
  it('serves Exporters stored before it started, and forgets deleted ones', async () => {
    const w = world({
      before: (store) => {
        const exporterRt = store.registry.byKind('jumpstarter.dev/v1alpha1', 'Exporter')!;
        store.create(exporterRt, NS, {
          apiVersion: 'jumpstarter.dev/v1alpha1',
          kind: 'Exporter',
          metadata: { name: 'early', labels: { board: 'rpi4' } },
          spec: {},
        });
      },
    });
    await w.run();
    expect(w.exporter('early').status?.credential).toEqual({ name: 'early-exporter' });

    w.store.delete(w.exporterRt, NS, 'early');
    w.createLease('l1');
    await w.run();
    expect(cond(w.lease('l1'), 'Unsatisfiable')).toBe('True/NoAccess');
  });

  it('ends a lease that matches no Exporter Unsatisfiable/NoAccess at once', async () => {
    const w = world();
    w.createExporter('other', { board: 'sa8295' });
    w.createLease('l1');
    await w.run(); // no clock advance: it ends in the first pass

    const lease = w.lease('l1');
    expect(cond(lease, 'Unsatisfiable')).toBe('True/NoAccess');
    expect(lease.status).toMatchObject({ ended: true, endTime: new Date(w.clock.now()).toISOString() });
    expect(lease.metadata.labels).toMatchObject({ 'jumpstarter.dev/lease-ended': 'true' });
    expect(cond(lease, 'Pending')).toBe('absent');
  });

  it('ends a lease pinned to a disabled Exporter Unsatisfiable/ExporterDisabled', async () => {
    const w = world();
    w.createExporter('e1', { board: 'rpi4' }, false);
    w.createLease('l1', { selector: {}, exporterRef: 'e1' });
    await w.run();
    expect(cond(w.lease('l1'), 'Unsatisfiable')).toBe('True/ExporterDisabled');
    expect(w.lease('l1').status?.ended).toBe(true);
  });

  it('keeps a lease Pending/Offline while its Exporter is a standby, assigns it once the exporter is online, and never sets Pending back to False', async () => {
    const w = world();
    w.createExporter('e1');
    w.createLease('l1');
    await w.run();
    expect(cond(w.lease('l1'), 'Pending')).toBe('True/Offline');
    expect(w.lease('l1').status?.exporterRef).toBeUndefined();

    w.createConfig('e1', false);
    w.createPod('e1');
    await w.run(BOOT_MS);

    const lease = w.lease('l1');
    const exporter = w.exporter('e1');
    expect(lease.status).toMatchObject({
      exporterRef: { name: 'e1' },
      ended: false,
      beginTime: expect.any(String),
    });
    expect(cond(lease, 'Ready')).toBe('True/Acquired');
    expect(cond(lease, 'Pending')).toBe('True/Offline');
    expect(lease.metadata.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'Exporter', name: 'e1', uid: exporter.metadata.uid, controller: true }),
    ]);
    expect(exporter.status).toMatchObject({ leaseRef: { name: 'l1' }, exporterStatus: 'LeaseReady' });

    await w.run(120_000);
    expect(cond(w.lease('l1'), 'Pending')).toBe('True/Offline');
  });

  it('waits for a future beginTime without any condition, then assigns', async () => {
    const w = world();
    await w.instance('e1');
    w.createLease('l1', { beginTime: new Date(w.clock.now() + 5000) });
    await w.run(4999);
    expect(w.lease('l1').status).toBeUndefined();

    await w.run(1);
    expect(w.lease('l1').status?.exporterRef).toEqual({ name: 'e1' });
  });

  it('assigns waiting leases oldest first and leaves the rest Pending/NotAvailable', async () => {
    const w = world();
    await w.instance('e1');
    w.createLease('first');
    w.createLease('a-second');
    await w.run();

    expect(w.lease('first').status?.exporterRef).toEqual({ name: 'e1' });
    expect(cond(w.lease('a-second'), 'Pending')).toBe('True/NotAvailable');
  });

  it('retries a Pending lease after 1 s, doubling to 30 s', async () => {
    const passes: number[] = [];
    let start = 0;
    const w = world({
      jumpstarter: { onPass: (namespace) => namespace === NS && passes.push(w.clock.now() - start) },
    });
    start = w.clock.now();
    w.createExporter('e1');
    w.createLease('l1');
    await w.run();
    passes.length = 0;

    for (let t = 0; t < 130_000; t += 500) await w.run(500);
    expect(passes).toEqual([1000, 3000, 7000, 15000, 31000, 61000, 91000, 121000]);
  });

  it('re-evaluates a Pending lease at once when an Exporter changes', async () => {
    const w = world();
    await w.instance('e1', false, { board: 'other' });
    w.createExporter('standby');
    w.createLease('l1');
    await w.run();
    expect(cond(w.lease('l1'), 'Pending')).toBe('True/Offline');

    w.store.patch(w.exporterRt, NS, 'e1', 'merge', { metadata: { labels: { board: 'rpi4' } } });
    await w.run(); // no clock advance: not the backoff timer

    expect(w.lease('l1').status?.exporterRef).toEqual({ name: 'e1' });
  });
});

describe('lease ends', () => {
  it('ends a released lease Ready=False/Released with the ended label, and the exporter is available again', async () => {
    const w = world();
    await w.instance('e1');
    w.createLease('l1');
    await w.run();
    w.jumpstarter.leases.release(NS, 'l1');
    await w.run();

    const lease = w.lease('l1');
    expect(cond(lease, 'Ready')).toBe('False/Released');
    expect(lease.status?.ended).toBe(true);
    expect(lease.metadata.labels).toMatchObject({ 'jumpstarter.dev/lease-ended': 'true' });
    expect(w.exporter('e1').status?.leaseRef).toBeUndefined();
    expect(w.exporter('e1').status?.exporterStatus).toBe('Available');
  });

  it('expires a lease at begin + duration', async () => {
    const w = world();
    await w.instance('e1');
    w.createLease('l1', { duration: '10s' });
    await w.run(9999);
    expect(w.lease('l1').status?.ended).toBe(false);

    await w.run(1);
    expect(cond(w.lease('l1'), 'Ready')).toBe('False/Expired');
    expect(w.lease('l1').status).toMatchObject({
      ended: true,
      endTime: new Date(w.clock.now()).toISOString(),
    });
  });

  it('with exitOnLeaseEnd, the exporter exits when its lease ends: Pod Succeeded, Exporter Offline', async () => {
    const w = world();
    await w.instance('e1', true);
    w.createLease('l1');
    await w.run();
    w.jumpstarter.leases.release(NS, 'l1');
    await w.run();

    expect((w.pod('e1').status as { phase: string }).phase).toBe('Succeeded');
    expect(cond(w.exporter('e1'), 'Online')).toBe('False/Offline');
    expect(w.exporter('e1').status?.exporterStatus).toBe('Offline');
  });

  it('without exitOnLeaseEnd (InPlaceReuse), the exporter serves the next lease in the same Pod', async () => {
    const w = world();
    await w.instance('e1', false);
    w.createLease('l1');
    w.createLease('l2');
    await w.run();
    expect(cond(w.lease('l2'), 'Pending')).toBe('True/NotAvailable');

    const podUid = w.pod('e1').metadata.uid;
    w.jumpstarter.leases.release(NS, 'l1');
    await w.run();

    expect(w.lease('l2').status?.exporterRef).toEqual({ name: 'e1' });
    expect(w.pod('e1').metadata.uid).toBe(podUid);
    expect((w.pod('e1').status as { phase: string }).phase).toBe('Running');
  });

  it('garbage-collects the leases of a deleted Exporter, ended ones too', async () => {
    const w = world();
    await w.instance('e1');
    w.createLease('old');
    await w.run();
    w.jumpstarter.leases.release(NS, 'old');
    await w.run();
    w.createLease('current');
    await w.run();
    expect(w.lease('current').status?.exporterRef).toEqual({ name: 'e1' });

    w.store.delete(w.exporterRt, NS, 'e1');
    await w.run();

    expect(w.exists(w.leaseRt, 'old')).toBe(false);
    expect(w.exists(w.leaseRt, 'current')).toBe(false);
    expect(w.exists(w.secretRt, 'e1-exporter')).toBe(false);
  });
});

describe('quiet and converging', () => {
  it('writes nothing while nothing changes', async () => {
    const w = world();
    await w.instance('e1');
    w.createExporter('standby');
    w.createLease('l1');
    w.createLease('l2', { selector: { matchLabels: { board: 'rpi4' } } });
    await w.run(1000);
    const version = w.store.resourceVersion();

    await w.run(10 * 60_000);
    expect(w.store.resourceVersion()).toBe(version);
  });

  it('records no errors in a busy scenario', async () => {
    const w = world();
    for (const name of ['a', 'b', 'c']) await w.instance(name, name !== 'c');
    for (let i = 0; i < 6; i++) w.createLease(`l${i}`, { duration: `${i + 1}s` });
    await w.run(30_000);
    expect(w.jumpstarter.errors).toEqual([]);
    expect(w.kubelet.errors).toEqual([]);
  });
});
