/**
 * Upstream's status dialect (INTEROP §1.3), one row per rule of its table: instances described by what
 * upstream's rules read (Online, spec.enabled, leased, Pod phase) go through the whole planner, and
 * the set's status must carry upstream's counter values and upstream's condition status, reason and
 * message, character for character, with observedGeneration. Standbys (ours, SPEC §3.6) are the one
 * judged deviation: never in unavailableReplicas, in replicas and exportersOffline.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { ExporterConditionTypes, type ExporterSetSpec, type Lease } from 'virtual-exporters/internal';
import { plan, type InstanceSnapshot, type StatusCounters } from '../../src/planner';
import { instance, lease, makeSet, snapshot, SET } from './builders';

type Phase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';

/** One Exporter as upstream's rules see it. */
interface Described {
  readonly online: boolean;
  /** Registered=True; default: as online. Upstream's counters never read it. */
  readonly registered?: boolean;
  /** spec.enabled; default true. */
  readonly enabled?: boolean;
  /** A non-ended Lease holds it. */
  readonly leased?: boolean;
  /** Its Pod's phase; undefined: no Pod. */
  readonly pod?: Phase;
  /** Our standby: the standby label and no Pod. */
  readonly standby?: boolean;
}

function build(list: readonly Described[]): { instances: InstanceSnapshot[]; leases: Lease[] } {
  const leases: Lease[] = [];
  const instances = list.map((d, i) => {
    const shape = d.standby ? 'standby' : d.pod === undefined ? 'unrendered' : 'available';
    const base = instance(i, shape, d.enabled === false ? { enabled: false, manuallyDisabled: true } : {});
    const conditions = (base.exporter.status?.conditions ?? []).map((c) =>
      c.type === ExporterConditionTypes.Online
        ? { ...c, status: d.online ? 'True' : 'False' }
        : c.type === ExporterConditionTypes.Registered
          ? { ...c, status: (d.registered ?? d.online) ? 'True' : 'False' }
          : c,
    ) as NonNullable<NonNullable<InstanceSnapshot['exporter']['status']>['conditions']>;
    if (d.leased) leases.push(lease(`l-${i}`, { exporter: `${SET}-${i}` }));
    return {
      ...base,
      exporter: { ...base.exporter, status: { ...base.exporter.status, conditions } },
      ...(base.pod && d.pod ? { pod: { ...base.pod, status: { ...base.pod.status, phase: d.pod } } } : {}),
    } as InstanceSnapshot;
  });
  return { instances, leases };
}

const GENERATION = 7;

function statusOf(list: readonly Described[], spec: Partial<ExporterSetSpec> = {}, classMissing = false) {
  const { instances, leases } = build(list);
  const result = plan(
    snapshot({
      set: makeSet(spec, { generation: GENERATION }),
      instances,
      leases,
      ...(classMissing ? { cls: null } : {}),
    }),
  );
  return result.status!;
}

// Shorthands for the rows.
const ONLINE: Described = { online: true, pod: 'Running' };
const LEASED: Described = { online: true, pod: 'Running', leased: true };
const PENDING: Described = { online: false, pod: 'Pending' };
const RUNNING_OFFLINE: Described = { online: false, pod: 'Running' };
const NO_POD: Described = { online: false };
const FAILED: Described = { online: false, pod: 'Failed' };
const STANDBY: Described = { online: false, standby: true };
const times = (n: number, d: Described): Described[] => Array.from({ length: n }, () => d);

interface ConditionRow {
  readonly rule: string;
  readonly instances: readonly Described[];
  readonly spec?: Partial<ExporterSetSpec>;
  readonly classMissing?: boolean;
  readonly status: 'True' | 'False';
  readonly reason: string;
  readonly message: string;
}

const TABLE: Readonly<Record<'Available' | 'Progressing' | 'Degraded' | 'ScalingLimited', ConditionRow[]>> = {
  Available: [
    {
      rule: 'NoReplicasRequired: minReplicas == 0 && replicas == 0',
      instances: [],
      status: 'True',
      reason: 'NoReplicasRequired',
      message: 'No minimum replicas configured',
    },
    {
      rule: 'MinimumReplicasAvailable: readyReplicas >= minReplicas',
      instances: times(3, ONLINE),
      spec: { minReplicas: 2 },
      status: 'True',
      reason: 'MinimumReplicasAvailable',
      message: '3/2 replicas ready',
    },
    {
      rule: 'MinimumReplicasAvailable: minReplicas 0 with instances (NoReplicasRequired needs replicas == 0)',
      instances: [ONLINE, PENDING],
      status: 'True',
      reason: 'MinimumReplicasAvailable',
      message: '1/0 replicas ready',
    },
    {
      rule: 'MinimumReplicasAvailable: ready is Online alone (a leased or unregistered one counts)',
      instances: [LEASED, { online: true, registered: false, pod: 'Running' }],
      spec: { minReplicas: 2 },
      status: 'True',
      reason: 'MinimumReplicasAvailable',
      message: '2/2 replicas ready',
    },
    {
      rule: 'MinimumReplicasAvailable: the warm buffer plays no part',
      instances: [LEASED],
      spec: { minReplicas: 1, minAvailableReplicas: 3 },
      status: 'True',
      reason: 'MinimumReplicasAvailable',
      message: '1/1 replicas ready',
    },
    {
      rule: 'MinimumReplicasUnavailable: otherwise',
      instances: [ONLINE, PENDING],
      spec: { minReplicas: 3 },
      status: 'False',
      reason: 'MinimumReplicasUnavailable',
      message: '1/2 replicas ready, need 3',
    },
    {
      rule: 'MinimumReplicasUnavailable: standbys are not ready',
      instances: [STANDBY],
      spec: { minReplicas: 1 },
      status: 'False',
      reason: 'MinimumReplicasUnavailable',
      message: '0/1 replicas ready, need 1',
    },
    {
      rule: 'VirtualTargetClassNotFound: class missing, overrides the rows above',
      instances: times(2, ONLINE),
      spec: { minReplicas: 1 },
      classMissing: true,
      status: 'False',
      reason: 'VirtualTargetClassNotFound',
      message: 'VirtualTargetClass "qemu-rpi4" not found',
    },
  ],
  Progressing: [
    {
      rule: 'PodsStarting: podsPending > 0 (before ReplicasNotReady)',
      instances: [PENDING, NO_POD, ONLINE],
      status: 'True',
      reason: 'PodsStarting',
      message: '1 pod(s) pending',
    },
    {
      rule: 'ReplicasNotReady: unavailableReplicas > 0',
      instances: [RUNNING_OFFLINE, NO_POD, ONLINE],
      status: 'True',
      reason: 'ReplicasNotReady',
      message: '2 replica(s) not yet ready',
    },
    {
      rule: 'AllReplicasReady: otherwise (a disabled instance is not unavailable)',
      instances: [ONLINE, LEASED, { ...RUNNING_OFFLINE, enabled: false }],
      status: 'False',
      reason: 'AllReplicasReady',
      message: 'All replicas are ready',
    },
    {
      rule: 'AllReplicasReady: a standby is not unavailable (our one deviation)',
      instances: [STANDBY],
      status: 'False',
      reason: 'AllReplicasReady',
      message: 'All replicas are ready',
    },
  ],
  Degraded: [
    {
      rule: 'PodsFailing: podsFailed > 0 (before ExportersOffline)',
      instances: [FAILED, RUNNING_OFFLINE],
      status: 'True',
      reason: 'PodsFailing',
      // Upstream's message, then the Pods and why they failed (status/pod-failures.ts).
      message:
        '1 pod(s) in Failed state: Pod pool-0 (no reason given); failed instances are replaced at once, and Degraded stays True while their failures are recent',
    },
    {
      rule: 'ExportersOffline: unavailableReplicas > 0 && podsPending == 0',
      instances: [RUNNING_OFFLINE, NO_POD, ONLINE],
      status: 'True',
      reason: 'ExportersOffline',
      message: '2 exporter(s) not ready with no pending pods',
    },
    {
      rule: 'AllReplicasHealthy: unavailable while a Pod is pending is not degraded',
      instances: [RUNNING_OFFLINE, PENDING],
      status: 'False',
      reason: 'AllReplicasHealthy',
      message: 'No degraded replicas',
    },
    {
      rule: 'AllReplicasHealthy: a standby is not degraded (our one deviation)',
      instances: [STANDBY, ONLINE],
      status: 'False',
      reason: 'AllReplicasHealthy',
      message: 'No degraded replicas',
    },
  ],
  ScalingLimited: [
    {
      rule: 'AtMaxReplicas: maxReplicas > 0 && replicas >= maxReplicas && availableReplicas < minAvailableReplicas',
      instances: [LEASED, ONLINE],
      spec: { maxReplicas: 2, minAvailableReplicas: 2 },
      status: 'True',
      reason: 'AtMaxReplicas',
      message: 'Cannot scale beyond 2 replicas; 1 available, need 2',
    },
    {
      rule: 'WithinLimits: maxReplicas 0 has no ceiling',
      instances: [LEASED, ONLINE],
      spec: { maxReplicas: 0, minAvailableReplicas: 2 },
      status: 'False',
      reason: 'WithinLimits',
      message: 'Scaling is not constrained',
    },
    {
      rule: 'WithinLimits: below maxReplicas',
      instances: [LEASED, ONLINE],
      spec: { maxReplicas: 3, minAvailableReplicas: 2 },
      status: 'False',
      reason: 'WithinLimits',
      message: 'Scaling is not constrained',
    },
    {
      rule: 'WithinLimits: at maxReplicas with the warm buffer met',
      instances: [LEASED, ONLINE, ONLINE],
      spec: { maxReplicas: 3, minAvailableReplicas: 2 },
      status: 'False',
      reason: 'WithinLimits',
      message: 'Scaling is not constrained',
    },
  ],
};

describe('upstream conditions (INTEROP §1.3)', () => {
  for (const [type, rows] of Object.entries(TABLE)) {
    describe(type, () => {
      it.each(rows.map((row): [string, ConditionRow] => [row.rule, row]))('%s', (_rule, row) => {
        const status = statusOf(row.instances, row.spec, row.classMissing);
        expect(status.conditions?.find((c) => c.type === type)).toEqual({
          type,
          status: row.status,
          reason: row.reason,
          message: row.message,
          lastTransitionTime: expect.any(String),
          observedGeneration: GENERATION,
        });
      });
    });
  }
});

type Counted = Omit<StatusCounters, 'startingReplicas' | 'updatedReplicas'>;

const ZERO: Counted = {
  replicas: 1,
  readyReplicas: 0,
  availableReplicas: 0,
  unavailableReplicas: 0,
  leasedReplicas: 0,
  exportersActive: 0,
  exportersIdle: 0,
  exportersDisabled: 0,
  exportersOffline: 0,
  podsPending: 0,
  podsRunning: 0,
  podsFailed: 0,
  podsUnknown: 0,
  standbyReplicas: 0,
};

/** One instance each: the counters it moves (everything else stays 0; replicas is 1). */
const COUNTERS: readonly [string, Described, Partial<Counted>][] = [
  [
    'online, enabled, not leased: ready, available, idle',
    ONLINE,
    { readyReplicas: 1, availableReplicas: 1, exportersIdle: 1, podsRunning: 1 },
  ],
  [
    'online, enabled, leased: ready, leased, active',
    LEASED,
    { readyReplicas: 1, leasedReplicas: 1, exportersActive: 1, podsRunning: 1 },
  ],
  [
    'online but not registered: ready and available all the same',
    { online: true, registered: false, pod: 'Running' },
    { readyReplicas: 1, availableReplicas: 1, exportersIdle: 1, podsRunning: 1 },
  ],
  [
    'not online, enabled, Pod Running: unavailable, offline',
    RUNNING_OFFLINE,
    { unavailableReplicas: 1, exportersOffline: 1, podsRunning: 1 },
  ],
  [
    'not online, enabled, leased: leased, unavailable, offline (not active)',
    { online: false, pod: 'Running', leased: true },
    { leasedReplicas: 1, unavailableReplicas: 1, exportersOffline: 1, podsRunning: 1 },
  ],
  [
    'disabled, online, not leased: ready, disabled (not available, not idle)',
    { ...ONLINE, enabled: false },
    { readyReplicas: 1, exportersDisabled: 1, podsRunning: 1 },
  ],
  [
    'disabled, online, leased: ready, leased, disabled (not active)',
    { ...LEASED, enabled: false },
    { readyReplicas: 1, leasedReplicas: 1, exportersDisabled: 1, podsRunning: 1 },
  ],
  [
    'disabled, not online: disabled only (not unavailable)',
    { ...RUNNING_OFFLINE, enabled: false },
    { exportersDisabled: 1, podsRunning: 1 },
  ],
  [
    'Pod Pending: unavailable, offline, pending',
    PENDING,
    { unavailableReplicas: 1, exportersOffline: 1, podsPending: 1 },
  ],
  ['no Pod yet: unavailable, offline', NO_POD, { unavailableReplicas: 1, exportersOffline: 1 }],
  [
    'Pod Failed: unavailable, offline, failed',
    FAILED,
    { unavailableReplicas: 1, exportersOffline: 1, podsFailed: 1 },
  ],
  [
    'Pod Succeeded: counted as Unknown, as upstream does',
    { online: false, pod: 'Succeeded' },
    { unavailableReplicas: 1, exportersOffline: 1, podsUnknown: 1 },
  ],
  [
    'Pod Unknown',
    { online: false, pod: 'Unknown' },
    { unavailableReplicas: 1, exportersOffline: 1, podsUnknown: 1 },
  ],
  [
    'standby (ours): offline and in replicas, never unavailable',
    STANDBY,
    { exportersOffline: 1, standbyReplicas: 1 },
  ],
];

const counted = (status: StatusCounters): Counted => {
  const {
    startingReplicas: _s,
    updatedReplicas: _u,
    ...rest
  } = status as StatusCounters & Record<string, unknown>;
  return Object.fromEntries(Object.keys(ZERO).map((k) => [k, rest[k as keyof typeof rest]])) as Counted;
};

describe('upstream counters (INTEROP §1.3)', () => {
  it.each(COUNTERS)('%s', (_what, described, moved) => {
    expect(counted(statusOf([described]))).toEqual({ ...ZERO, ...moved });
  });

  it('adds up over a pool of all of them', () => {
    const status = statusOf(COUNTERS.map(([, d]) => d));
    const sum = Object.fromEntries(
      Object.keys(ZERO).map((k) => [
        k,
        COUNTERS.reduce((n, [, , moved]) => n + ((moved as Record<string, number>)[k] ?? 0), 0),
      ]),
    );
    expect(counted(status)).toEqual({ ...sum, replicas: COUNTERS.length });
  });

  it('puts every instance in exactly one of exportersActive, Idle, Disabled and Offline', () => {
    const described: fc.Arbitrary<Described> = fc.record({
      online: fc.boolean(),
      registered: fc.boolean(),
      enabled: fc.boolean(),
      leased: fc.boolean(),
      pod: fc.constantFrom(undefined, 'Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'),
      standby: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(described, { maxLength: 10 }), (list) => {
        // A standby has no Pod by definition; a Pod-less instance cannot be online.
        const real = list.map((d) =>
          d.standby || d.pod === undefined ? { ...d, pod: undefined, online: false } : d,
        );
        const s = statusOf(real);
        expect(s.exportersActive + s.exportersIdle + s.exportersDisabled + s.exportersOffline).toBe(
          s.replicas,
        );
        expect(s.replicas).toBe(list.length);
        // The deviation: unavailable = offline minus the enabled standbys.
        const standbys = real.filter((d) => d.standby && d.enabled !== false).length;
        expect(s.unavailableReplicas).toBe(s.exportersOffline - standbys);
      }),
      { numRuns: 100 },
    );
  });
});
