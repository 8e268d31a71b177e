/**
 * The pool-operation fields of issue 16 in the planner: the scale-in policy (which idle instances go
 * first), the update strategy (how outdated instances are replaced) and the requested recycle (every
 * instance created before a time is replaced once).
 */
import { describe, expect, it } from '@jest/globals';
import {
  Annotations,
  ConditionTypes,
  EventReasons,
  type ExporterSetSpec,
  type IntOrPercent,
  type ScaleInBasePolicy,
} from 'virtual-exporters/internal';
import { plan, type InstanceSnapshot, type PlannerSnapshot } from '../../src/planner';
import { applyPlan, bootAll } from './applier';
import {
  at,
  conditionOf,
  instance,
  lease,
  makeSet,
  namesOf,
  ofType,
  revisionOf,
  snapshot,
  T0,
} from './builders';

const MINUTE = 60_000;
const OLD = 'old-rev';

/** A set whose scale-down window has lasted the cooldown: surplus goes this pass. */
const dueSet = (spec: Partial<ExporterSetSpec>, uid?: string) => {
  const set = makeSet(spec, { status: { scaleDownWindowStart: at(-5 * MINUTE), scaleDownTarget: 0 } });
  return uid === undefined ? set : { ...set, metadata: { ...set.metadata, uid } };
};

/** The instance with more labels on its Exporter. */
const labelled = (i: InstanceSnapshot, labels: Record<string, string>): InstanceSnapshot => ({
  ...i,
  exporter: {
    ...i.exporter,
    metadata: { ...i.exporter.metadata, labels: { ...i.exporter.metadata?.labels, ...labels } },
  },
});

const idle = (n: number) => Array.from({ length: n }, (_, i) => instance(i, 'available'));

/** The instance owned by a set of another uid. */
/** The instance with the requested-recycle annotation the controller writes on its creates. */
const stamped = (i: InstanceSnapshot, requestedAt: string): InstanceSnapshot => ({
  ...i,
  exporter: {
    ...i.exporter,
    metadata: {
      ...i.exporter.metadata,
      annotations: { ...i.exporter.metadata?.annotations, [Annotations.recycleRequestedAt]: requestedAt },
    },
  },
});

const ownedBy = (i: InstanceSnapshot, uid: string): InstanceSnapshot => ({
  ...i,
  exporter: {
    ...i.exporter,
    metadata: {
      ...i.exporter.metadata,
      ownerReferences: (i.exporter.metadata?.ownerReferences ?? []).map((ref) => ({ ...ref, uid })),
    },
  },
});
const victims = (s: PlannerSnapshot) => namesOf(plan(s), 'DisableExporter');

describe('scale-in policy › base policy', () => {
  it.each([
    [undefined, ['pool-2', 'pool-3']],
    ['Newest', ['pool-2', 'pool-3']],
    ['Oldest', ['pool-0', 'pool-1']],
  ] as [ScaleInBasePolicy | undefined, string[]][])(
    'basePolicy %s removes %j of four idle instances down to two',
    (basePolicy, expected) => {
      const set = dueSet({
        minAvailableReplicas: 2,
        ...(basePolicy ? { scaleInStrategy: { basePolicy } } : {}),
      });
      expect(victims(snapshot({ set, instances: idle(4) }))).toEqual(expected);
    },
  );

  it('Random: the same order on every pass and in every replica, a different one for another set uid', () => {
    const chosen = new Set<string>();
    for (let seed = 0; seed < 20; seed++) {
      const set = dueSet(
        { minAvailableReplicas: 5, scaleInStrategy: { basePolicy: 'Random' } },
        `uid-${seed}`,
      );
      const instances = idle(6).map((i) => ownedBy(i, `uid-${seed}`));
      const first = victims(snapshot({ set, instances }));
      expect(first).toHaveLength(1);
      expect(victims(snapshot({ set, instances: [...instances].reverse() }))).toEqual(first);
      chosen.add(first[0]);
    }
    // Newest-first would pick pool-5 every time.
    expect(chosen.size).toBeGreaterThan(2);
  });
});

describe('scale-in policy › selectors', () => {
  const canary = { tier: 'canary' };
  const pool = () => [
    instance(0, 'available'),
    labelled(instance(1, 'available'), canary),
    labelled(instance(2, 'available'), canary),
    instance(3, 'available'),
  ];

  it('removes instances matching the first selector first, in base-policy order among them', () => {
    const strategy = { selectors: [{ matchLabels: canary }] };
    expect(
      victims(
        snapshot({ set: dueSet({ minAvailableReplicas: 3, scaleInStrategy: strategy }), instances: pool() }),
      ),
    ).toEqual(['pool-2']);
    expect(
      victims(
        snapshot({
          set: dueSet({ minAvailableReplicas: 3, scaleInStrategy: { ...strategy, basePolicy: 'Oldest' } }),
          instances: pool(),
        }),
      ),
    ).toEqual(['pool-1']);
  });

  it('orders by the first matching selector, then the rest by the base policy', () => {
    const set = dueSet({
      minAvailableReplicas: 1,
      scaleInStrategy: {
        selectors: [
          { matchExpressions: [{ key: 'tier', operator: 'In', values: ['old-gen'] }] },
          { matchLabels: canary },
        ],
        basePolicy: 'Oldest',
      },
    });
    const instances = [
      labelled(instance(0, 'available'), canary),
      instance(1, 'available'),
      labelled(instance(2, 'available'), { tier: 'old-gen' }),
      instance(3, 'available'),
    ];
    // Three go: old-gen first, then the canary, then the oldest of the rest.
    expect(victims(snapshot({ set, instances }))).toEqual(['pool-0', 'pool-1', 'pool-2']);
    const kept = plan(snapshot({ set, instances }));
    expect(namesOf(kept, 'DisableExporter')).not.toContain('pool-3');
  });

  it('never takes a leased instance, and takes never-ready and outdated ones before any the selector matches', () => {
    const set = dueSet({
      minAvailableReplicas: 2,
      scaleInStrategy: { selectors: [{ matchLabels: canary }] },
    });
    const instances = [
      labelled(instance(0, 'available'), canary),
      instance(1, 'starting'),
      instance(2, 'available', { revision: OLD }),
      instance(3, 'available'),
      instance(4, 'available'),
    ];
    const leased = plan(snapshot({ set, instances, leases: [lease('held', { exporter: 'pool-0' })] }));
    // The canary is leased: the never-ready pool-1 and the outdated pool-2 go, never pool-0.
    expect(namesOf(leased, 'DisableExporter').concat(namesOf(leased, 'DeleteExporter'))).not.toContain(
      'pool-0',
    );
    const free = plan(snapshot({ set, instances }));
    const gone = [...namesOf(free, 'DisableExporter'), ...namesOf(free, 'DeleteExporter')].sort();
    expect(gone).toEqual(['pool-0', 'pool-1', 'pool-2']);
  });
});

const outdatedPool = (n: number) =>
  Array.from({ length: n }, (_, i) => instance(i, 'available', { revision: OLD }));

describe('update strategy › Proactive pacing', () => {
  it.each([
    [undefined, 1],
    [2, 2],
    ['50%', 2],
    ['100%', 4],
  ] as [IntOrPercent | undefined, number][])(
    'maxSurge %s starts %d replacements ahead in a pool of four',
    (maxSurge, expected) => {
      const result = plan(
        snapshot({
          set: makeSet({
            minAvailableReplicas: 4,
            ...(maxSurge !== undefined ? { updateStrategy: { maxSurge } } : {}),
          }),
          instances: outdatedPool(4),
        }),
      );
      expect(ofType(result, 'CreateExporter').map((c) => c.reason)).toEqual(Array(expected).fill('rollout'));
      expect(ofType(result, 'DisableExporter')).toEqual([]);
    },
  );

  it('maxSurge 0: outdated instances leave first, up to maxUnavailable, without a ceiling in the way', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 4, updateStrategy: { maxSurge: 0, maxUnavailable: 1 } }),
        instances: outdatedPool(4),
      }),
    );
    expect(ofType(result, 'CreateExporter')).toEqual([]);
    expect(ofType(result, 'DisableExporter').map((a) => [a.name, a.reason])).toEqual([['pool-3', 'rollout']]);
  });

  it.each([
    [undefined, 1],
    [2, 2],
    ['50%', 2],
    ['74%', 2],
    [0, 0],
  ] as [IntOrPercent | undefined, number][])(
    'at the ceiling maxUnavailable %s lets %d outdated instances leave first',
    (maxUnavailable, n) => {
      const result = plan(
        snapshot({
          set: makeSet({
            maxReplicas: 4,
            minAvailableReplicas: 4,
            ...(maxUnavailable !== undefined ? { updateStrategy: { maxUnavailable } } : {}),
          }),
          instances: outdatedPool(4),
        }),
      );
      expect(namesOf(result, 'DisableExporter')).toHaveLength(n);
      expect(ofType(result, 'CreateExporter')).toEqual([]);
    },
  );

  it('takes 1 unavailable when both percentages round to 0 in a small pool, so the rollout goes on', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 2, updateStrategy: { maxSurge: '0%', maxUnavailable: '10%' } }),
        instances: outdatedPool(2),
      }),
    );
    expect(ofType(result, 'CreateExporter')).toEqual([]);
    expect(namesOf(result, 'DisableExporter')).toHaveLength(1);
  });

  it('counts what is leaving and starting against maxUnavailable', () => {
    const result = plan(
      snapshot({
        set: makeSet({ maxReplicas: 4, minAvailableReplicas: 4, updateStrategy: { maxUnavailable: 2 } }),
        instances: [...outdatedPool(3), instance(3, 'starting')],
      }),
    );
    expect(namesOf(result, 'DisableExporter')).toHaveLength(1);
  });

  it.each([
    [{ maxSurge: 0, maxUnavailable: 1 }, 3],
    [{ maxUnavailable: 2 }, 2],
  ])(
    '%j: a whole rollout at the ceiling keeps the buffer above its target minus maxUnavailable',
    (strategy, floor) => {
      let current: PlannerSnapshot = snapshot({
        set: makeSet({ maxReplicas: 4, minAvailableReplicas: 4, updateStrategy: strategy }),
        instances: outdatedPool(4),
      });
      let minReady = Number.POSITIVE_INFINITY;
      for (let step = 0; step < 60; step++) {
        current = { ...current, now: T0 + step * 1_000 };
        current = bootAll(applyPlan(current, plan(current)));
        minReady = Math.min(minReady, plan(current).status?.availableReplicas ?? 0);
      }
      expect(
        current.instances.map(
          (i) => i.exporter.metadata?.labels?.['exporterset.jumpstarter.dev/template-revision'],
        ),
      ).toEqual(Array(4).fill(revisionOf()));
      expect(minReady).toBeGreaterThanOrEqual(floor);
    },
  );
});

describe('update strategy › Opportunistic and Unmanaged', () => {
  it.each(['Opportunistic', 'Unmanaged'] as const)(
    '%s replaces no idle outdated instance and reports no rollout',
    (type) => {
      const result = plan(
        snapshot({
          set: makeSet({ minAvailableReplicas: 2, updateStrategy: { type } }),
          instances: outdatedPool(2),
        }),
      );
      expect(result.actions).toEqual([]);
      expect(conditionOf(result, ConditionTypes.Scaling)?.reason).not.toBe('RollingOut');
      expect(result.status?.updatedReplicas).toBe(0);
    },
  );

  it.each(['Opportunistic', 'Unmanaged'] as const)(
    '%s keeps outdated surplus until the cooldown, like current surplus',
    (type) => {
      const set = makeSet({ minAvailableReplicas: 1, updateStrategy: { type } });
      const result = plan(
        snapshot({ set, instances: [instance(0, 'available'), instance(1, 'available', { revision: OLD })] }),
      );
      expect(ofType(result, 'DisableExporter')).toEqual([]);
      expect(result.status?.scaleDownWindowStart).toBe(at(0));
    },
  );

  it('Opportunistic with InPlaceReuse: an outdated instance whose Pod ended leaves instead of serving again', () => {
    const set = makeSet({
      minAvailableReplicas: 2,
      recycleStrategy: 'InPlaceReuse',
      updateStrategy: { type: 'Opportunistic' },
    });
    const result = plan(
      snapshot({ set, instances: [instance(0, 'exited', { revision: OLD }), instance(1, 'exited')] }),
    );
    expect(namesOf(result, 'DeletePod')).toEqual(['pool-1']);
    expect(ofType(result, 'DeleteExporter').map((a) => [a.name, a.reason])).toEqual([['pool-0', 'recycle']]);
    expect(ofType(result, 'CreateExporter')).toHaveLength(1);
  });

  it('Unmanaged with InPlaceReuse: an outdated instance serves again like any other', () => {
    const set = makeSet({
      minAvailableReplicas: 1,
      recycleStrategy: 'InPlaceReuse',
      updateStrategy: { type: 'Unmanaged' },
    });
    const result = plan(snapshot({ set, instances: [instance(0, 'exited', { revision: OLD })] }));
    expect(namesOf(result, 'DeletePod')).toEqual(['pool-0']);
    expect(ofType(result, 'DeleteExporter')).toEqual([]);
  });
});

describe('requested recycle', () => {
  // The default instances were created 10 minutes before T0.
  const requested = (ms: number, spec: Partial<ExporterSetSpec> = {}, status = {}) =>
    makeSet({ minAvailableReplicas: 2, recycleRequestedAt: at(ms), ...spec }, { status });

  it('marks every instance created before the time outdated and replaces it as a rollout does', () => {
    const result = plan(snapshot({ set: requested(-MINUTE), instances: idle(2) }));
    expect(ofType(result, 'CreateExporter').map((c) => c.reason)).toEqual(['rollout']);
    expect(result.status?.updatedReplicas).toBe(0);
    expect(conditionOf(result, ConditionTypes.Scaling)).toMatchObject({
      reason: 'RollingOut',
      message: `2 instances of 2 still to replace with revision ${revisionOf()}; the recycle requested at ${at(-MINUTE)} waits for 2 instances created before it`,
    });
    expect(result.events.map((e) => e.reason)).not.toContain(EventReasons.RecycleCompleted);
  });

  it('acts at once on a time ahead of the controller clock: the requester clock is not the controller clock', () => {
    const result = plan(snapshot({ set: requested(MINUTE), instances: idle(2) }));
    expect(ofType(result, 'CreateExporter').map((c) => c.reason)).toEqual(['rollout']);
    expect(result.requeueAfterMs).not.toBe(MINUTE);
  });

  it('completes when no instance created before it is left: status and one event', () => {
    const result = plan(snapshot({ set: requested(-11 * MINUTE), instances: idle(2) }));
    expect(result.actions).toEqual([]);
    expect(result.status?.lastCompletedRecycle).toBe(at(-11 * MINUTE));
    expect(result.events.filter((e) => e.reason === EventReasons.RecycleCompleted)).toEqual([
      {
        type: 'Normal',
        reason: 'RecycleCompleted',
        message: `requested recycle complete: no instance created before recycleRequestedAt ${at(-11 * MINUTE)} is left`,
      },
    ]);
  });

  it('runs once: a completed request marks nothing outdated, even an instance created before it', () => {
    const set = requested(-MINUTE, {}, { lastCompletedRecycle: at(-MINUTE) });
    const result = plan(snapshot({ set, instances: idle(2) }));
    expect(result.actions).toEqual([]);
    expect(result.status?.updatedReplicas).toBe(2);
    expect(result.status?.lastCompletedRecycle).toBe(at(-MINUTE));
    expect(result.events.map((e) => e.reason)).not.toContain(EventReasons.RecycleCompleted);
  });

  it('a newer request after a completed one starts again', () => {
    const set = requested(-MINUTE, {}, { lastCompletedRecycle: at(-20 * MINUTE) });
    expect(ofType(plan(snapshot({ set, instances: idle(2) })), 'CreateExporter')).toHaveLength(1);
  });

  it('follows the update strategy: Unmanaged replaces nothing for it', () => {
    const set = requested(-MINUTE, { updateStrategy: { type: 'Unmanaged' } });
    const result = plan(snapshot({ set, instances: idle(2) }));
    expect(result.actions).toEqual([]);
    expect(result.status?.lastCompletedRecycle).toBeUndefined();
  });

  it('stamps its replacements with the request, which no creation time can then make outdated', () => {
    const result = plan(snapshot({ set: requested(-MINUTE), instances: idle(2) }));
    const [create] = ofType(result, 'CreateExporter');
    expect(create.exporter.metadata?.annotations?.[Annotations.recycleRequestedAt]).toBe(at(-MINUTE));
    // An API server clock an hour behind stamps the replacement before the request: it stays current.
    const behind = stamped(instance(5, 'available', { createdAt: -60 * MINUTE }), at(-MINUTE));
    const later = plan(
      snapshot({ set: requested(-MINUTE, { minAvailableReplicas: 1 }), instances: [behind] }),
    );
    expect(later.actions).toEqual([]);
    expect(later.status?.updatedReplicas).toBe(1);
    expect(later.status?.lastCompletedRecycle).toBe(at(-MINUTE));
    // One made under an older request is recycled for a newer one.
    const older = stamped(instance(5, 'available', { createdAt: -60 * MINUTE }), at(-30 * MINUTE));
    const again = plan(
      snapshot({ set: requested(-MINUTE, { minAvailableReplicas: 1 }), instances: [older] }),
    );
    expect(ofType(again, 'CreateExporter').map((c) => c.reason)).toEqual(['rollout']);
  });

  it('stamps its creates with a standing request, completed or not, and without one stamps nothing', () => {
    const stampOf = (set: ReturnType<typeof requested>) =>
      ofType(plan(snapshot({ set })), 'CreateExporter')[0].exporter.metadata?.annotations?.[
        Annotations.recycleRequestedAt
      ];
    expect(stampOf(requested(MINUTE))).toBe(at(MINUTE));
    expect(stampOf(requested(-MINUTE, {}, { lastCompletedRecycle: at(-MINUTE) }))).toBe(at(-MINUTE));
    expect(stampOf(makeSet({ minAvailableReplicas: 1 }))).toBeUndefined();
  });

  it('leaves a leased instance alone and completes only after its lease and replacement', () => {
    const set = requested(-MINUTE, { minAvailableReplicas: 1 });
    const leased = lease('held', { exporter: 'pool-0' });
    let current: PlannerSnapshot = snapshot({ set, instances: idle(2), leases: [leased] });
    const completions: number[] = [];
    for (let step = 0; step < 30; step++) {
      current = { ...current, now: T0 + step * 1_000 };
      if (step === 15) current = { ...current, leases: [lease('held', { exporter: 'pool-0', ended: true })] };
      const result = plan(current);
      if (step < 15)
        expect(namesOf(result, 'DisableExporter').concat(namesOf(result, 'DeleteExporter'))).not.toContain(
          'pool-0',
        );
      if (result.events.some((e) => e.reason === EventReasons.RecycleCompleted)) completions.push(step);
      current = bootAll(applyPlan(current, result));
    }
    expect(completions).toHaveLength(1);
    expect(completions[0]).toBeGreaterThan(15);
    const created = current.instances.map((i) => Date.parse(String(i.exporter.metadata?.creationTimestamp)));
    expect(created.every((t) => t >= T0 - MINUTE)).toBe(true);
    expect(current.set.status?.lastCompletedRecycle).toBe(at(-MINUTE));
  });
});
