/**
 * Leader election against the test cluster with durations scaled down 40×: of two candidates only
 * one leads; a stopping leader releases the lease and the standby takes over at its next retry; a
 * leader whose renewals fail steps down before the standby takes over, and the standby does so
 * within the lease duration. Plus the naming helpers.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoordinationV1Api, KubeConfig } from '@kubernetes/client-node';
import { controllerNamespace, defaultIdentity, leaderElectionId } from '../../src/process/election-names';
import { LeaderElector } from '../../src/process/leader-election';
import { startTestCluster, type TestCluster } from 'virtual-exporters-test-cluster';

const NS = 'ops';
const TIMING = { leaseDurationMs: 400, renewDeadlineMs: 250, retryPeriodMs: 50 } as const;

let cluster: TestCluster;
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
  /** `start`/`stop` transitions with their wall-clock time. */
  transitions: { what: 'start' | 'stop'; at: number }[];
}

function candidate(identity: string, lease: string): Candidate {
  const transitions: Candidate['transitions'] = [];
  const elector = new LeaderElector({
    coordination: cluster.kubeConfigFor(identity).makeApiClient(CoordinationV1Api),
    namespace: NS,
    name: lease,
    identity,
    ...TIMING,
    onStartedLeading: () => transitions.push({ what: 'start', at: Date.now() }),
    onStoppedLeading: () => transitions.push({ what: 'stop', at: Date.now() }),
  });
  electors.push(elector);
  return { elector, transitions };
}

async function until(what: string, check: () => boolean, timeoutMs = 3000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return Date.now();
}

const readLease = (name: string) =>
  cluster.kubeConfig.makeApiClient(CoordinationV1Api).readNamespacedLease({ name, namespace: NS });

describe('leader election', () => {
  it('lets exactly one of two candidates lead, and both agree who', async () => {
    const a = candidate('replica-a', 'one-leader');
    const b = candidate('replica-b', 'one-leader');
    a.elector.start();
    b.elector.start();
    await until('someone leads', () => a.elector.isLeader() || b.elector.isLeader());
    for (let i = 0; i < 30; i++) {
      expect(Number(a.elector.isLeader()) + Number(b.elector.isLeader())).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const [leader, follower] = a.elector.isLeader() ? [a, b] : [b, a];
    const lease = await readLease('one-leader');
    expect(lease.spec?.holderIdentity).toBe(leader.elector.identity);
    expect(lease.spec?.leaseDurationSeconds).toBe(1);
    // MicroTime: a real API server parses exactly six fractional digits.
    expect(String(lease.spec?.renewTime)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(follower.elector.currentLeader()).toBe(leader.elector.identity);
    expect(follower.transitions).toEqual([]);
  });

  it('releases the lease on stop, so the standby takes over at its next retry', async () => {
    const a = candidate('replica-a', 'release');
    a.elector.start();
    await until('a leads', () => a.elector.isLeader());
    const b = candidate('replica-b', 'release');
    b.elector.start();
    await until('b has seen a', () => b.elector.currentLeader() === 'replica-a');

    const stoppedAt = Date.now();
    await a.elector.stop();
    const released = await readLease('release');
    expect(released.spec?.holderIdentity).toBeUndefined();
    const tookOver = await until('b leads', () => b.elector.isLeader());
    expect(tookOver - stoppedAt).toBeLessThan(TIMING.leaseDurationMs); // did not wait for expiry
    expect(a.transitions.map((t) => t.what)).toEqual(['start']); // stop() is not a loss
    const lease = await readLease('release');
    expect(lease.spec?.holderIdentity).toBe('replica-b');
    expect(lease.spec?.leaseTransitions).toBe(1);
  });

  it('steps down when renewals fail, before the standby takes over within the lease duration', async () => {
    const a = candidate('replica-a', 'failover');
    a.elector.start();
    await until('a leads', () => a.elector.isLeader());
    const b = candidate('replica-b', 'failover');
    b.elector.start();
    await until('b has seen a', () => b.elector.currentLeader() === 'replica-a');

    // From now on every request of a fails: it can neither renew nor release.
    cluster.faults.add({ kind: 'error', code: 503, identity: 'replica-a' });
    const failedAt = Date.now();
    await until('b leads', () => b.elector.isLeader());
    const aStopped = a.transitions.find((t) => t.what === 'stop');
    const bStarted = b.transitions.find((t) => t.what === 'start')!;
    expect(aStopped).toBeDefined();
    expect(aStopped!.at).toBeLessThanOrEqual(bStarted.at); // never two leaders
    expect(aStopped!.at - failedAt).toBeLessThan(TIMING.renewDeadlineMs + 3 * TIMING.retryPeriodMs);
    // b waits out the lease from a's last renewal (at most one retry period before the faults).
    expect(bStarted.at - failedAt).toBeGreaterThanOrEqual(TIMING.leaseDurationMs - 2 * TIMING.retryPeriodMs);
    expect(bStarted.at - failedAt).toBeLessThan(TIMING.leaseDurationMs + 5 * TIMING.retryPeriodMs);

    // a recovers but b renews: a stays a follower.
    cluster.faults.clear();
    await new Promise((resolve) => setTimeout(resolve, 3 * TIMING.retryPeriodMs));
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
