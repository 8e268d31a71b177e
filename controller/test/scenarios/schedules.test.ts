/**
 * Scheduled warm buffers (issue 17) on the test cluster, on a manual clock that moves only when the
 * test says so: a working-hours window in Europe/Berlin opens warm — before its lead time the pool
 * holds its static buffer, from the lead time on it boots the raised buffer so that all of it is
 * available when the window opens, and after the window closes the surplus leaves only once
 * scaleDownCooldown has passed.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import {
  manualClock,
  startTestCluster,
  type ManualClock,
  type TestCluster,
} from 'virtual-exporters-test-cluster';
import type { Manager } from '../../src/manager';
import {
  CONTROLLER,
  NS,
  createClass,
  createSet,
  eventsOf,
  getSet,
  instancesOf,
  launchController,
} from './support';

const S = 1_000;
const MIN = 60 * S;
const WRITE_VERBS = ['create', 'update', 'patch', 'delete', 'deletecollection'] as const;

// Monday 1 June 2026, 07:00 in Berlin (CEST): the window opens at 08:00 (06:00Z), its raise at 07:58.
const START = Date.parse('2026-06-01T05:00:00Z');
const WARM_FROM = Date.parse('2026-06-01T05:58:00Z');
const OPENS = Date.parse('2026-06-01T06:00:00Z');
const CLOSES = Date.parse('2026-06-01T06:30:00Z');
const BOOT_MS = 30 * S;
const COOLDOWN_MS = MIN;

let cluster: TestCluster | undefined;
let manager: Manager | undefined;
afterEach(async () => {
  await manager?.stop();
  await cluster?.stop();
  manager = undefined;
  cluster = undefined;
});

/**
 * Waits (wall clock) until the simulators are idle and the controller has written nothing for a
 * while: the cluster has done all it does at the clock's time.
 */
async function quiet(c: TestCluster): Promise<void> {
  const writes = () => c.counters.total({ identity: CONTROLLER, verb: WRITE_VERBS });
  let seen = writes();
  let since = Date.now();
  const deadline = Date.now() + 20_000;
  for (;;) {
    await c.settle();
    await new Promise((resolve) => setTimeout(resolve, 10));
    if (writes() !== seen) [seen, since] = [writes(), Date.now()];
    else if (Date.now() - since >= 80) return;
    if (Date.now() > deadline) throw new Error('the cluster did not settle');
  }
}

/** Moves the clock to `to` in steps of `stepMs`, letting the cluster settle after each. */
async function runUntil(c: TestCluster, clock: ManualClock, to: number, stepMs: number): Promise<void> {
  while (clock.now() < to) {
    clock.advance(Math.min(stepMs, to - clock.now()));
    await quiet(c);
  }
}

const available = (c: TestCluster) =>
  instancesOf(c, 'work').filter(
    (e) =>
      e.spec?.enabled !== false &&
      e.status?.conditions?.some((cond) => cond.type === 'Online' && cond.status === 'True'),
  ).length;

describe('scheduled warm buffers on the test cluster (manual clock)', () => {
  it('opens a window warm and returns to the static buffer after the cooldown', async () => {
    const clock = manualClock(START);
    cluster = await startTestCluster({
      namespaces: [NS],
      clock,
      jumpstarter: true,
      kubelet: { bootDelayMs: BOOT_MS },
    });
    const c = cluster;
    manager = await launchController(c, CONTROLLER);
    createClass(c);
    createSet(c, 'work', {
      minAvailableReplicas: 1,
      maxReplicas: 6,
      scaleDownCooldown: '1m',
      schedules: [
        {
          name: 'office-hours',
          cron: '0 8 * * 1-5',
          timeZone: 'Europe/Berlin',
          duration: '30m',
          leadTime: '2m',
          minAvailableReplicas: 4,
        },
      ],
    });
    const status = () => getSet(c, 'work')?.status;
    const gauge = async () => {
      const line = (await manager!.metrics.render())
        .split('\n')
        .find((l) => l.startsWith('jumpstarter_exporterset_effective_min_available_replicas{'));
      return line === undefined ? undefined : Number(line.split(' ').pop());
    };

    // The static buffer: one instance, booted.
    await runUntil(c, clock, START + 2 * MIN, 10 * S);
    expect(available(c)).toBe(1);
    expect(status()?.schedules?.next).toEqual({
      name: 'office-hours',
      opensAt: '2026-06-01T06:00:00.000Z',
      closesAt: '2026-06-01T06:30:00.000Z',
      warmFrom: '2026-06-01T05:58:00.000Z',
    });

    // Idle until just before the lead time: nothing changes, however far the clock moves.
    await runUntil(c, clock, WARM_FROM - S, 10 * MIN);
    expect(instancesOf(c, 'work')).toHaveLength(1);
    expect(status()?.effectiveMinAvailableReplicas).toBeUndefined();

    // From the lead time on, the raised buffer boots; all of it is available when the window opens.
    expect(await gauge()).toBe(1);
    await runUntil(c, clock, WARM_FROM, S);
    expect(status()?.effectiveMinAvailableReplicas).toBe(4);
    expect(await gauge()).toBe(4);
    expect(instancesOf(c, 'work')).toHaveLength(4);
    await runUntil(c, clock, OPENS - S, 5 * S);
    expect(available(c)).toBe(4);
    expect(eventsOf(c, 'work').filter((e) => e.reason === 'ScheduleWindowOpened')).toEqual([]);
    await runUntil(c, clock, OPENS, S);
    expect(status()?.schedules?.active).toEqual([
      { name: 'office-hours', opensAt: '2026-06-01T06:00:00.000Z', closesAt: '2026-06-01T06:30:00.000Z' },
    ]);
    expect(eventsOf(c, 'work').filter((e) => e.reason === 'ScheduleWindowOpened')).toHaveLength(1);

    // The window closes: no scale-in before the cooldown, then back to the static buffer.
    await runUntil(c, clock, CLOSES, MIN);
    expect(status()?.effectiveMinAvailableReplicas).toBeUndefined();
    expect(eventsOf(c, 'work').filter((e) => e.reason === 'ScheduleWindowClosed')).toHaveLength(1);
    expect(instancesOf(c, 'work')).toHaveLength(4);
    await runUntil(c, clock, CLOSES + COOLDOWN_MS - S, 5 * S);
    expect(instancesOf(c, 'work')).toHaveLength(4);
    await runUntil(c, clock, CLOSES + COOLDOWN_MS + 30 * S, 5 * S);
    expect(instancesOf(c, 'work')).toHaveLength(1);
    expect(available(c)).toBe(1);
    expect(await gauge()).toBe(1);
    expect(status()?.schedules?.next?.opensAt).toBe('2026-06-02T06:00:00.000Z');
    // Each transition was announced once.
    expect(
      eventsOf(c, 'work')
        .filter((e) => e.reason.startsWith('ScheduleWindow'))
        .map((e) => e.reason)
        .sort(),
    ).toEqual(['ScheduleWindowClosed', 'ScheduleWindowOpened']);
  });
});
