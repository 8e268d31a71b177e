/**
 * The simulation's invariant monitor catches each violation it exists for — a leased instance
 * deleted, an instance beyond the ceiling, a name used twice or one an old Lease names, creates
 * without a bound, a refused write no set reports — and stays silent on the legitimate versions of
 * the same moves.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { API_VERSION, JUMPSTARTER_API_VERSION, Labels } from 'virtual-exporters/internal';
import {
  CREATE_LOOP_LIMIT,
  reportedReasons,
  startInvariantMonitor,
  type InvariantMonitor,
  type Violation,
} from '../../src/simulation/invariants';
import { refusalSteps } from '../../src/simulation/refusals';
import { replicaFailureOf } from 'virtual-exporters-controller/internal';
import {
  manualClock,
  startTestCluster,
  type ManualClock,
  type TestCluster,
} from 'virtual-exporters-test-cluster';
import type { PassesInFlight } from '../../src/simulation/passes';

const NS = 'lab';
let cluster: TestCluster | undefined;
let monitor: InvariantMonitor | undefined;
afterEach(async () => {
  monitor?.stop();
  await cluster?.stop();
  cluster = undefined;
  monitor = undefined;
});

async function setUp(maxReplicas = 0) {
  cluster = await startTestCluster({ namespaces: [NS] });
  const c = cluster;
  const rt = (group: string, plural: string) => c.registry.get(group, group ? 'v1alpha1' : 'v1', plural)!;
  const sets = rt('virtualtarget.jumpstarter.dev', 'exportersets');
  const exporters = rt('jumpstarter.dev', 'exporters');
  const leases = rt('jumpstarter.dev', 'leases');
  const set = c.store.create(sets, NS, {
    apiVersion: API_VERSION,
    kind: 'ExporterSet',
    metadata: { name: 'pool' },
    spec: {
      virtualTargetClassName: 'qemu',
      maxReplicas,
      selector: { matchLabels: { board: 'x' } },
      template: { metadata: { labels: { board: 'x' } } },
    },
  });
  monitor = startInvariantMonitor(c, { namespace: NS });
  const instance = (n: number) =>
    c.store.create(exporters, NS, {
      apiVersion: JUMPSTARTER_API_VERSION,
      kind: 'Exporter',
      metadata: {
        name: `pool-${n}`,
        labels: { [Labels.exporterSetName]: 'pool', board: 'x' },
        ownerReferences: [
          {
            apiVersion: API_VERSION,
            kind: 'ExporterSet',
            name: 'pool',
            uid: set.metadata.uid!,
            controller: true,
          },
        ],
      },
      spec: {},
    });
  const lease = (name: string, exporter: string, ended = false) => {
    c.store.create(leases, NS, {
      apiVersion: JUMPSTARTER_API_VERSION,
      kind: 'Lease',
      metadata: { name },
      spec: { clientRef: { name: 'ci' }, selector: { matchLabels: { board: 'x' } }, duration: '1h' },
    });
    c.store.patch(
      leases,
      NS,
      name,
      'merge',
      { status: { exporterRef: { name: exporter }, ended } },
      'status',
    );
  };
  /** A lease that arrives and waits (it selects the set's instances). */
  const waiting = (name: string) =>
    c.store.create(leases, NS, {
      apiVersion: JUMPSTARTER_API_VERSION,
      kind: 'Lease',
      metadata: { name },
      spec: { clientRef: { name: 'ci' }, selector: { matchLabels: { board: 'x' } }, duration: '1h' },
    });
  const remove = (n: number) => c.store.delete(exporters, NS, `pool-${n}`);
  const resize = (maxReplicas: number) => c.store.patch(sets, NS, 'pool', 'merge', { spec: { maxReplicas } });
  // The status a controller writes must carry every counter the CRD requires.
  const counters = Object.fromEntries(
    ['replicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'leasedReplicas']
      .concat(['exportersActive', 'exportersDisabled', 'exportersIdle', 'exportersOffline'])
      .concat(['podsFailed', 'podsPending', 'podsRunning', 'podsUnknown'])
      .map((k) => [k, 0]),
  );
  const observe = () => {
    const current = c.store.get(sets, NS, 'pool');
    const status = { ...counters, observedGeneration: current.metadata.generation };
    c.store.patch(sets, NS, 'pool', 'merge', { status }, 'status');
  };

  /** The status a controller writes when a write of the set failed with `reason`. */
  const failing = (reason: string) => {
    const current = c.store.get(sets, NS, 'pool');
    const condition = { type: 'ReplicaFailure', status: 'True', reason, message: 'refused' };
    const status = {
      ...counters,
      observedGeneration: current.metadata.generation,
      conditions: [{ ...condition, lastTransitionTime: new Date(c.clock.now()).toISOString() }],
    };
    c.store.patch(sets, NS, 'pool', 'merge', { status }, 'status');
  };

  /** A status write of `status.nextOrdinal` (the controller's, or a tamper's). */
  const nextOrdinal = (value: number) => {
    const current = c.store.get(sets, NS, 'pool');
    const status = { ...counters, observedGeneration: current.metadata.generation, nextOrdinal: value };
    c.store.patch(sets, NS, 'pool', 'merge', { status }, 'status');
  };

  return {
    cluster: c,
    nextOrdinal,
    instance,
    lease,
    waiting,
    remove,
    resize,
    observe,
    failing,
    violations: () => monitor!.violations.map((v) => v.invariant),
  };
}

/** After `observe`: instance pool-0, labelled standby, with a Pod in `phase`; and the label's setter. */
function standbyWithPod(lab: Awaited<ReturnType<typeof setUp>>, phase: string) {
  const c = lab.cluster;
  const exporters = c.registry.get('jumpstarter.dev', 'v1alpha1', 'exporters')!;
  const pods = c.registry.get('', 'v1', 'pods')!;
  const labelStandby = (name: string, standby: boolean) =>
    c.store.patch(exporters, NS, name, 'merge', {
      metadata: { labels: { [Labels.standby]: standby ? 'true' : null } },
    });
  lab.observe();
  lab.instance(0);
  labelStandby('pool-0', true);
  c.store.create(pods, NS, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pool-0' }, spec: {} });
  c.store.patch(pods, NS, 'pool-0', 'merge', { status: { phase } }, 'status');
  return { labelStandby };
}

describe('simulation › invariants', () => {
  it('flags a leased instance deleted, not one whose lease ended', async () => {
    const lab = await setUp();
    lab.instance(0);
    lab.instance(1);
    lab.lease('done', 'pool-1', true);
    lab.remove(1);
    expect(lab.violations()).toEqual([]);
    lab.lease('live', 'pool-0');
    lab.remove(0);
    expect(lab.violations()).toEqual(['leased-deleted']);
  });

  it('flags an instance beyond maxReplicas', async () => {
    const lab = await setUp(2);
    lab.instance(0);
    lab.instance(1);
    expect(lab.violations()).toEqual([]);
    lab.instance(2);
    expect(lab.violations()).toEqual(['ceiling']);
  });

  it('judges a create by the ceilings the controller may have planned with', async () => {
    const lab = await setUp(3);
    lab.observe();
    lab.instance(0);
    lab.instance(1);
    lab.resize(2);
    lab.instance(2); // planned before the controller saw the lower ceiling
    expect(lab.violations()).toEqual([]);
    lab.remove(2);
    lab.observe(); // the controller reported on the new generation: 2 is the ceiling now
    lab.instance(3);
    expect(lab.violations()).toEqual(['ceiling']);
  });

  it('counts a standby whose Pod runs as running: its promotion starts nothing, a create beyond it does', async () => {
    const lab = await setUp(3);
    const { labelStandby } = standbyWithPod(lab, 'Running'); // its promotion began; the label patch was refused
    lab.instance(1);
    lab.instance(2);
    expect(lab.violations()).toEqual([]);
    lab.resize(2);
    lab.observe();
    labelStandby('pool-0', false); // the refused patch goes through: nothing new runs
    expect(lab.violations()).toEqual([]);

    lab.instance(3);
    expect(lab.violations()).toEqual(['ceiling']);
  });

  it('does not count the promotion of a standby whose Pod ended as a start: nothing runs', async () => {
    const lab = await setUp(3);
    const { labelStandby } = standbyWithPod(lab, 'Failed');
    lab.instance(1);
    lab.instance(2);
    lab.instance(3);
    lab.resize(2);
    lab.observe();
    labelStandby('pool-0', false); // a promotion's refused label patch goes through after its Pod failed
    expect(lab.violations()).toEqual([]);
  });

  it('flags a name made twice by one set, and a name an old Lease names', async () => {
    const lab = await setUp();
    lab.instance(0);
    lab.remove(0);
    lab.instance(0);
    expect(lab.violations()).toEqual(['name-reused']);
    lab.lease('old', 'pool-7', true);
    lab.instance(7);
    expect(lab.violations()).toEqual(['name-reused', 'name-reused']);
  });

  it('does not hold a name against the controller once a status writer rewound the counter below it', async () => {
    const lab = await setUp();
    lab.nextOrdinal(5);
    lab.instance(5);
    lab.instance(6);
    lab.nextOrdinal(7);
    lab.remove(6);
    lab.nextOrdinal(5); // tampered: the only record of pool-6 is gone with it
    lab.instance(6);
    expect(lab.violations()).toEqual([]);
    // A rewind that stays above the name's ordinal leaves it counted.
    lab.instance(9);
    lab.nextOrdinal(12);
    lab.remove(9);
    lab.nextOrdinal(10);
    lab.instance(9);
    expect(lab.violations()).toEqual(['name-reused']);
  });

  it('flags a set that makes more instances within the window than any rule wants', async () => {
    const lab = await setUp();
    for (let n = 0; n < CREATE_LOOP_LIMIT; n += 1) lab.instance(n);
    expect(lab.violations()).toEqual([]);
    lab.instance(CREATE_LOOP_LIMIT);
    lab.instance(CREATE_LOOP_LIMIT + 1);
    expect(lab.violations()).toEqual(['create-loop']);
  });

  it('counts each lease that arrived in the window as demand for one instance, not as a loop', async () => {
    const lab = await setUp();
    for (let n = 0; n < 10; n += 1) lab.waiting(`burst-${n}`);
    for (let n = 0; n < CREATE_LOOP_LIMIT + 10; n += 1) lab.instance(n);
    expect(lab.violations()).toEqual([]);
    lab.instance(CREATE_LOOP_LIMIT + 10);
    lab.instance(CREATE_LOOP_LIMIT + 11);
    expect(lab.violations()).toEqual(['create-loop']);
  });

  /** Judges one refused Secret create: `before` runs before the lift, `during` while the judgment waits. */
  async function judgeRefusal(
    lab: Awaited<ReturnType<typeof setUp>>,
    before: (cluster: TestCluster) => void,
    passes: { inFlight?: () => { key: string; forMs: number }[]; during?: () => void } = {},
    stops: (() => void)[] = [],
  ): Promise<Violation[]> {
    const found: Violation[] = [];
    const refusal = { code: 403, resource: 'secrets', verb: 'create', fromMs: 0, toMs: 30_000 } as const;
    const steps = refusalSteps(
      lab.cluster,
      [refusal],
      () => 0,
      monitor!,
      { violate: (v) => found.push(v), count: () => undefined },
      passes.inFlight,
      (listener) => stops.push(listener),
    );
    await steps[0].run();
    // The controller's Secret create, refused.
    const refused = lab.cluster.faults.errorFor({
      identity: 'controller',
      verb: 'create',
      group: '',
      version: 'v1',
      resource: 'secrets',
      subresource: '',
      namespace: NS,
      name: '',
      path: '',
    });
    expect(refused?.code).toBe(403);
    before(lab.cluster);
    await steps[1].run();
    const lift = steps[2].run();
    passes.during?.();
    await lift;
    return found;
  }

  it('flags a write refused for a stretch that no set reported, not one a set reported', async () => {
    const lab = await setUp();
    expect((await judgeRefusal(lab, () => undefined)).map((v) => v.invariant)).toEqual([
      'failure-unreported',
    ]);
    expect(await judgeRefusal(lab, () => lab.failing('FailedCreateSecret'))).toEqual([]);
  });

  /** A pass of set `pool` refused before the lift and still running at it (a loaded machine). */
  function slowPass() {
    let running = true;
    return {
      inFlight: () => (running ? [{ key: `${NS}/pool`, forMs: 0 }] : []),
      end: () => (running = false),
    };
  }

  it('waits for the pass running at the lift: a report it writes after the lift counts', async () => {
    const lab = await setUp();
    const pass = slowPass();
    const found = await judgeRefusal(lab, () => undefined, {
      inFlight: pass.inFlight,
      during: () =>
        setTimeout(() => {
          lab.failing('FailedCreateSecret');
          pass.end();
        }, 20),
    });
    expect(found).toEqual([]);
  });

  it('flags the refusal when the pass running at the lift ends without reporting it', async () => {
    const lab = await setUp();
    const pass = slowPass();
    const found = await judgeRefusal(lab, () => undefined, {
      inFlight: pass.inFlight,
      during: () => setTimeout(pass.end, 20),
    });
    expect(found.map((v) => v.invariant)).toEqual(['failure-unreported']);
  });

  it('judges only what the running controller met: a process stopped before reporting is gone with its report', async () => {
    const lab = await setUp();
    const stops: (() => void)[] = [];
    // Refused, then the controller stopped (what it had in flight lost); its successor never wrote it.
    const found = await judgeRefusal(lab, () => stops.forEach((stopped) => stopped()), {}, stops);
    expect(found).toEqual([]);
    // Refused again after the restart (the successor still wants the write): judged.
    const again: (() => void)[] = [];
    const refusedAgain = await judgeRefusal(
      lab,
      (cluster) => {
        const hitsBefore = cluster.faults.rules().find((r) => r.kind === 'error')?.hits ?? 0;
        again.forEach((stopped) => stopped());
        expect(hitsBefore).toBe(1);
        cluster.faults.errorFor({
          identity: 'controller',
          verb: 'create',
          group: '',
          version: 'v1',
          resource: 'secrets',
          subresource: '',
          namespace: NS,
          name: '',
          path: '',
        });
      },
      {},
      again,
    );
    expect(refusedAgain.map((v) => v.invariant)).toEqual(['failure-unreported']);
  });
});

describe('simulation › invariants › lease-double-boot', () => {
  /** Two sets whose instances one shared lease selects, a pending lease, and VMs booted in them. */
  async function overlapping(options: { clock?: ManualClock; passesInFlight?: PassesInFlight } = {}) {
    cluster = await startTestCluster({
      namespaces: [NS],
      ...(options.clock ? { clock: options.clock } : {}),
    });
    const c = cluster;
    const rt = (group: string, plural: string) => c.registry.get(group, group ? 'v1alpha1' : 'v1', plural)!;
    const uids: Record<string, string> = {};
    for (const name of ['a', 'b']) {
      const labels = { board: name, pool: 'shared' };
      uids[name] = c.store.create(rt('virtualtarget.jumpstarter.dev', 'exportersets'), NS, {
        apiVersion: API_VERSION,
        kind: 'ExporterSet',
        metadata: { name },
        spec: {
          virtualTargetClassName: 'qemu',
          selector: { matchLabels: { board: name } },
          template: { metadata: { labels } },
        },
      }).metadata.uid!;
    }
    monitor = startInvariantMonitor(c, {
      namespace: NS,
      overlapSets: ['a', 'b'],
      ...(options.passesInFlight ? { passesInFlight: options.passesInFlight } : {}),
    });
    c.store.create(rt('jumpstarter.dev', 'leases'), NS, {
      apiVersion: JUMPSTARTER_API_VERSION,
      kind: 'Lease',
      metadata: { name: 'shared' },
      spec: { clientRef: { name: 'ci' }, selector: { matchLabels: { pool: 'shared' } }, duration: '1h' },
    });
    /** An instance of `set` with its Pod: one VM booting. */
    const boot = (set: string, ordinal = 0) => {
      const name = `${set}-${ordinal}`;
      const owner = {
        apiVersion: API_VERSION,
        kind: 'ExporterSet',
        name: set,
        uid: uids[set],
        controller: true,
      };
      const labels = { [Labels.exporterSetName]: set };
      c.store.create(rt('jumpstarter.dev', 'exporters'), NS, {
        apiVersion: JUMPSTARTER_API_VERSION,
        kind: 'Exporter',
        metadata: { name, labels, ownerReferences: [owner] },
        spec: {},
      });
      c.store.create(rt('', 'pods'), NS, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, labels },
        spec: { containers: [{ name: 'exporter', image: 'x' }] },
      });
    };
    const lease = (name: string) =>
      c.store.create(rt('jumpstarter.dev', 'leases'), NS, {
        apiVersion: JUMPSTARTER_API_VERSION,
        kind: 'Lease',
        metadata: { name },
        spec: { clientRef: { name: 'ci' }, selector: { matchLabels: { pool: 'shared' } }, duration: '1h' },
      });
    const pause = (set: string) =>
      c.store.patch(rt('virtualtarget.jumpstarter.dev', 'exportersets'), NS, set, 'merge', {
        spec: { paused: true },
      });
    const remove = (name: string) => c.store.delete(rt('jumpstarter.dev', 'leases'), NS, name);
    /** A window open at every moment, raising the set's warm buffer to `minAvailable`. */
    const window = (set: string, minAvailable: number) =>
      c.store.patch(rt('virtualtarget.jumpstarter.dev', 'exportersets'), NS, set, 'merge', {
        spec: {
          schedules: [
            { name: 'always', cron: '* * * * *', duration: '60s', minAvailableReplicas: minAvailable },
          ],
        },
      });
    return { boot, lease, pause, remove, window };
  }

  it('stays silent when one set boots a VM for the lease', async () => {
    const { boot } = await overlapping();
    boot('a');
    expect(monitor!.violations).toEqual([]);
  });

  it('catches the second set booting a VM for the same lease', async () => {
    const { boot } = await overlapping();
    boot('a');
    boot('b');
    expect(monitor!.violations.map((v) => v.invariant)).toEqual(['lease-double-boot']);
  });

  it('lets the other set boot for every lease a pause handed over, and no more', async () => {
    const { boot, lease, pause } = await overlapping();
    lease('shared-2');
    boot('a', 0);
    boot('a', 1);
    pause('a');
    boot('b', 0);
    boot('b', 1);
    expect(monitor!.violations).toEqual([]);
    boot('b', 2);
    expect(monitor!.violations.map((v) => v.invariant)).toEqual(['lease-double-boot']);
  });

  it('lets each set boot for the window that raises its buffer, and no more', async () => {
    const { boot, window } = await overlapping();
    window('a', 1);
    window('b', 2);
    boot('a', 0); // the shared lease's
    boot('a', 1); // a's window
    boot('b', 0);
    boot('b', 1); // b's window
    expect(monitor!.violations).toEqual([]);
    boot('b', 2);
    expect(monitor!.violations.map((v) => v.invariant)).toEqual(['lease-double-boot']);
    expect(monitor!.violations[0]?.message).toContain('3 raised by windows');
  });

  it('lets a VM boot for a lease deleted just now (its Pod was held up), and no more', async () => {
    const { boot, remove } = await overlapping();
    remove('shared'); // the lease ended and went while the instance's Pod could not be made
    boot('a', 0);
    expect(monitor!.violations).toEqual([]);
    boot('b', 0);
    expect(monitor!.violations.map((v) => v.invariant)).toEqual(['lease-double-boot']);
  });

  it('explains a boot by a lease that went before the pass still running began, however long ago', async () => {
    // A loaded machine: the pass that creates the VM began while the lease waited, and ran 45 s of
    // cluster time (a cluster second is a few wall milliseconds).
    const clock = manualClock();
    let running: { key: string; forMs: number }[] = [];
    const { boot, remove } = await overlapping({ clock, passesInFlight: () => running });
    remove('shared');
    clock.advance(40_000);
    running = [{ key: `${NS}/a`, forMs: 45_000 }];
    boot('a', 0);
    expect(monitor!.violations).toEqual([]);
    // The same boot with no pass that long: nothing explains it.
    running = [];
    boot('b', 0);
    expect(monitor!.violations.map((v) => v.invariant)).toEqual(['lease-double-boot']);
  });
});

describe('simulation › invariants › reported write failures', () => {
  it("takes every kind a ReplicaFailure names as reported: its reason and the message's others", () => {
    const failure = replicaFailureOf(
      new Map([
        ['FailedCreateSecret', 'instance a-0: secrets is invalid'],
        ['FailedDelete', 'exporters "a-1" is forbidden: cannot delete; FailedX: in an API message'],
        ['FailedCreatePod', `instance a-2: ${'z'.repeat(5_000)}`],
      ] as never),
    )!;
    expect([...reportedReasons(failure.reason, failure.message)].sort()).toEqual([
      'FailedCreatePod',
      'FailedCreateSecret',
      'FailedDelete',
    ]);
    expect([...reportedReasons('FailedPatch', 'forbidden')]).toEqual(['FailedPatch']);
  });
});
