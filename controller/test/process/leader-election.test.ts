/**
 * Leader election against the test cluster, on a manual clock the test moves one retry period at a
 * time, each step waiting for every candidate's request to finish: of two candidates only one leads;
 * a stopping leader releases the lease and the standby takes over at its next retry; a leader whose
 * renewals fail steps down before the standby takes over, and the standby does so within the lease
 * duration. Durations are read on that clock, so a slow request on a loaded machine stretches no
 * deadline and fails no bound. Plus the naming helpers.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoordinationV1Api, KubeConfig } from '@kubernetes/client-node';
import { controllerNamespace, defaultIdentity, leaderElectionId } from '../../src/process/election-names';
import { LeaderElector } from '../../src/process/leader-election';
import {
  manualClock,
  startTestCluster,
  type ManualClock,
  type TestCluster,
} from 'virtual-exporters-test-cluster';

const NS = 'ops';
const TIMING = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 } as const;

let cluster: TestCluster;
let clock: ManualClock;
let electors: LeaderElector[] = [];

beforeAll(async () => {
  cluster = await startTestCluster({ namespaces: [NS] });
});
afterEach(async () => {
  await Promise.all(electors.map((e) => e.stop()));
  electors = [];
  cluster.faults.clear();
});
afterAll(() => cluster.stop());

interface Candidate {
  elector: LeaderElector;
  /** `start`/`stop` transitions with their time on the test's clock. */
  transitions: { what: 'start' | 'stop'; at: number }[];
  stopped: boolean;
}

let candidates: Candidate[] = [];

function candidate(identity: string, lease: string): Candidate {
  const transitions: Candidate['transitions'] = [];
  const elector = new LeaderElector({
    coordination: cluster.kubeConfigFor(identity).makeApiClient(CoordinationV1Api),
    namespace: NS,
    name: lease,
    identity,
    ...TIMING,
    clock,
    random: () => 0,
    onStartedLeading: () => transitions.push({ what: 'start', at: clock.now() }),
    onStoppedLeading: () => transitions.push({ what: 'stop', at: clock.now() }),
  });
  electors.push(elector);
  const c: Candidate = { elector, transitions, stopped: false };
  candidates.push(c);
  return c;
}

/** Polls `check` on the wall clock (the requests are real): an answer, not a measured time. */
async function until(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Waits until every running candidate has finished its request and sleeps until its next retry: a
 * timer each, and the leader's renew deadline besides.
 */
function idle(): Promise<void> {
  return until('the candidates are idle', () => {
    const running = candidates.filter((c) => !c.stopped);
    return clock.pendingTimers() === running.length + running.filter((c) => c.elector.isLeader()).length;
  });
}

/** Moves the clock one retry period at a time until `check` holds; returns the clock's time then. */
async function stepUntil(what: string, check: () => boolean, maxMs = 10 * TIMING.leaseDurationMs) {
  const from = clock.now();
  await idle();
  while (!check()) {
    if (clock.now() - from > maxMs) throw new Error(`${what} did not happen within ${maxMs} ms of the clock`);
    clock.advance(TIMING.retryPeriodMs);
    await idle();
  }
  return clock.now();
}

function start(...cs: Candidate[]): void {
  for (const c of cs) c.elector.start();
}

async function stop(c: Candidate): Promise<void> {
  c.stopped = true;
  await c.elector.stop();
}

const readLease = (name: string) =>
  cluster.kubeConfig.makeApiClient(CoordinationV1Api).readNamespacedLease({ name, namespace: NS });

describe('leader election', () => {
  beforeEach(() => {
    clock = manualClock();
    candidates = [];
  });

  it('lets exactly one of two candidates lead, and both agree who', async () => {
    const a = candidate('replica-a', 'one-leader');
    const b = candidate('replica-b', 'one-leader');
    start(a, b);
    await stepUntil('someone leads', () => a.elector.isLeader() || b.elector.isLeader());
    // Through three lease durations of renewals and retries, never two leaders and never none.
    for (let i = 0; i < (3 * TIMING.leaseDurationMs) / TIMING.retryPeriodMs; i++) {
      expect(Number(a.elector.isLeader()) + Number(b.elector.isLeader())).toBe(1);
      clock.advance(TIMING.retryPeriodMs);
      await idle();
    }
    const [leader, follower] = a.elector.isLeader() ? [a, b] : [b, a];
    const lease = await readLease('one-leader');
    expect(lease.spec?.holderIdentity).toBe(leader.elector.identity);
    expect(lease.spec?.leaseDurationSeconds).toBe(15);
    // MicroTime: a real API server parses exactly six fractional digits.
    expect(String(lease.spec?.renewTime)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(follower.elector.currentLeader()).toBe(leader.elector.identity);
    expect(follower.transitions).toEqual([]);
    expect(leader.transitions.map((t) => t.what)).toEqual(['start']);
  });

  it('releases the lease on stop, so the standby takes over at its next retry', async () => {
    const a = candidate('replica-a', 'release');
    start(a);
    await stepUntil('a leads', () => a.elector.isLeader());
    const b = candidate('replica-b', 'release');
    start(b);
    await stepUntil('b has seen a', () => b.elector.currentLeader() === 'replica-a');

    const stoppedAt = clock.now();
    await stop(a);
    const released = await readLease('release');
    expect(released.spec?.holderIdentity).toBeUndefined();
    const tookOver = await stepUntil('b leads', () => b.elector.isLeader());
    expect(tookOver - stoppedAt).toBeLessThanOrEqual(TIMING.retryPeriodMs); // did not wait for expiry
    expect(a.transitions.map((t) => t.what)).toEqual(['start']); // stop() is not a loss
    const lease = await readLease('release');
    expect(lease.spec?.holderIdentity).toBe('replica-b');
    expect(lease.spec?.leaseTransitions).toBe(1);
  });

  it('steps down when renewals fail, before the standby takes over within the lease duration', async () => {
    const a = candidate('replica-a', 'failover');
    start(a);
    await stepUntil('a leads', () => a.elector.isLeader());
    const b = candidate('replica-b', 'failover');
    start(b);
    await stepUntil('b has seen a', () => b.elector.currentLeader() === 'replica-a');

    // From now on every request of a fails: it can neither renew nor release.
    cluster.faults.add({ kind: 'error', code: 503, identity: 'replica-a' });
    const failedAt = clock.now();
    await stepUntil('b leads', () => b.elector.isLeader());
    const aStopped = a.transitions.find((t) => t.what === 'stop');
    const bStarted = b.transitions.find((t) => t.what === 'start')!;
    expect(aStopped).toBeDefined();
    expect(aStopped!.at).toBeLessThan(bStarted.at); // never two leaders
    // a's last renewal was at failedAt: it stops at its renew deadline from then, to the retry.
    expect(aStopped!.at - failedAt).toBeGreaterThanOrEqual(TIMING.renewDeadlineMs - TIMING.retryPeriodMs);
    expect(aStopped!.at - failedAt).toBeLessThanOrEqual(TIMING.renewDeadlineMs);
    // b waits out the lease from the last change it saw (a's last renewal), to its next retry.
    expect(bStarted.at - failedAt).toBeGreaterThanOrEqual(TIMING.leaseDurationMs - TIMING.retryPeriodMs);
    expect(bStarted.at - failedAt).toBeLessThanOrEqual(TIMING.leaseDurationMs + TIMING.retryPeriodMs);

    // a recovers but b renews: a stays a follower.
    cluster.faults.clear();
    for (let i = 0; i < 3; i++) {
      clock.advance(TIMING.retryPeriodMs);
      await idle();
    }
    expect([a.elector.isLeader(), b.elector.isLeader()]).toEqual([false, true]);
    expect(a.elector.currentLeader()).toBe('replica-b');
  });

  it('rejects timings where the leader could still act after its lease expired', () => {
    const coordination = cluster.kubeConfig.makeApiClient(CoordinationV1Api);
    const base = { coordination, namespace: NS, name: 'bad' };
    expect(
      () => new LeaderElector({ ...base, leaseDurationMs: 100, renewDeadlineMs: 100, retryPeriodMs: 10 }),
    ).toThrow('leader election: leaseDuration must be greater than renewDeadline');
    expect(
      () => new LeaderElector({ ...base, leaseDurationMs: 300, renewDeadlineMs: 100, retryPeriodMs: 90 }),
    ).toThrow('leader election: renewDeadline must be greater than 1.2 × retryPeriod');
  });
});

describe('leader election › names', () => {
  it('names the lease after the provisioner', () => {
    expect(leaderElectionId('qemu.jumpstarter.dev')).toBe('exporter-set-controller-qemu.jumpstarter.dev');
  });

  it('makes a unique identity from the pod name', () => {
    const one = defaultIdentity({ POD_NAME: 'controller-7d9f' });
    const two = defaultIdentity({ POD_NAME: 'controller-7d9f' });
    expect(one).toMatch(/^controller-7d9f_[0-9a-f-]{36}$/);
    expect(one).not.toBe(two);
  });

  it('finds the controller namespace: NAMESPACE, then the service account, then the kubeconfig', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sa-'));
    const file = join(dir, 'namespace');
    writeFileSync(file, 'from-sa\n');
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromOptions({
      clusters: [{ name: 'c', server: 'http://127.0.0.1:1' }],
      users: [{ name: 'u' }],
      contexts: [{ name: 'ctx', cluster: 'c', user: 'u', namespace: 'from-kubeconfig' }],
      currentContext: 'ctx',
    });
    const missing = join(dir, 'missing');
    expect(controllerNamespace({ env: { NAMESPACE: 'from-env' }, serviceAccountNamespaceFile: file })).toBe(
      'from-env',
    );
    expect(controllerNamespace({ env: {}, serviceAccountNamespaceFile: file, kubeConfig })).toBe('from-sa');
    expect(controllerNamespace({ env: {}, serviceAccountNamespaceFile: missing, kubeConfig })).toBe(
      'from-kubeconfig',
    );
    expect(controllerNamespace({ env: {}, serviceAccountNamespaceFile: missing })).toBe('default');
  });
});
