/**
 * Two replicas with `--leader-elect`: both keep warm caches, only the leader writes to
 * pools; when the leader shuts down it releases the election Lease and the other replica takes over
 * and goes on serving.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { Manager } from '../../src/manager';
import {
  CONTROLLER,
  NS,
  TEMPLATE_LABELS,
  createClass,
  createSet,
  getSet,
  launchController,
  startScenario,
  until,
  untilStored,
  type Scenario,
} from './support';

let scenario: Scenario | undefined;
let second: Manager | undefined;
afterEach(async () => {
  await second?.stop();
  await scenario?.stop();
  second = undefined;
  scenario = undefined;
});

const POOL_WRITES = {
  verb: ['create', 'update', 'patch', 'delete'] as const,
  group: ['', 'jumpstarter.dev', 'virtualtarget.jumpstarter.dev'] as const,
};

/**
 * Election timings (cluster ms) far wider than the test: the failover here is the stopping leader's
 * release, taken at the follower's next retry, never a lease running out. With the defaults (a 10 s
 * renew deadline is half a wall second at speedUp 20) a loaded machine can miss a renewal, and a
 * leader that loses its lease stops for good, as the process would exit — and then nothing serves.
 * Expiry and the renew deadline are the election's own tests (controller/test/process/leader-election.test.ts).
 */
const WIDE_ELECTION = { leaseDurationMs: 600_000, renewDeadlineMs: 400_000, retryPeriodMs: 2_000 };

describe('leader election: two replicas', () => {
  it('lets only the leader act and fails over when it stops', async () => {
    scenario = await startScenario({
      speedUp: 20,
      controller: { leaderElect: true },
      leaderElection: WIDE_ELECTION,
    });
    const { cluster } = scenario;
    second = await launchController(cluster, 'controller-b', { leaderElect: true }, WIDE_ELECTION);
    const replicas: Record<string, Manager> = { [CONTROLLER]: scenario.manager, 'controller-b': second };
    const leaderId = await until('a leader', () => {
      const leading = Object.entries(replicas).filter(([, m]) => m.isLeader());
      return leading.length === 1 ? leading[0][0] : undefined;
    });
    const followerId = leaderId === CONTROLLER ? 'controller-b' : CONTROLLER;

    createClass(cluster);
    createSet(cluster, 'ha', { minAvailableReplicas: 2 });
    const status = () => getSet(cluster, 'ha')?.status;
    await untilStored(cluster, 'the pool', () => status()?.availableReplicas === 2);
    expect(Object.values(replicas).filter((m) => m.isLeader())).toHaveLength(1);
    expect(cluster.counters.total({ identity: leaderId, ...POOL_WRITES })).toBeGreaterThan(0);
    expect(cluster.counters.total({ identity: followerId, ...POOL_WRITES })).toBe(0);
    // Each replica's leader gauge says which one leads (the ops pack's LeaderMissing alert reads it).
    const leaderGauge = async (m: Manager) =>
      (await m.metrics.render()).split('\n').find((l) => l.startsWith('jumpstarter_exporterset_leader{'));
    expect(await leaderGauge(replicas[leaderId])).toMatch(
      /^jumpstarter_exporterset_leader\{provisioner="[^"]+"\} 1$/,
    );
    expect(await leaderGauge(replicas[followerId])).toMatch(/ 0$/);

    // The leader shuts down; the follower takes over and serves.
    await replicas[leaderId].stop();
    await until('the failover', () => replicas[followerId].isLeader());
    cluster.jumpstarter!.leases.create({
      namespace: NS,
      name: 'after-failover',
      selector: { matchLabels: { ...TEMPLATE_LABELS } },
      duration: '1h',
    });
    await cluster.jumpstarter!.leases.waitFor(
      NS,
      'after-failover',
      (l) => Boolean(l.status?.exporterRef?.name),
      20_000,
    );
    await untilStored(
      cluster,
      'the refill by the new leader',
      () => status()?.availableReplicas === 2 && status()?.leasedReplicas === 1,
    );
    expect(cluster.counters.total({ identity: followerId, ...POOL_WRITES })).toBeGreaterThan(0);
  });
});
