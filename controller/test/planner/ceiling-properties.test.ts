/**
 * §3.4 the ceiling as a class: whatever rule asks (floor, buffer, demand, standby, rollout and recycle
 * replacements under every update strategy, a set standing still; the forecast's raise:
 * forecast-buffer.test.ts), no plan starts an instance that runs while the instances that count toward
 * `maxReplicas` fill it; and a pool above its ceiling comes down to it — the surplus leaves (never a
 * leased instance), no rule waiting for a replacement the ceiling forbids. Counted as the simulation's
 * `ceiling` invariant counts: SPEC §2 lets a Pod-less standby stand beyond the ceiling while every
 * instance filling it is on its way out.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Annotations, type Lease, type UpdateStrategyType } from 'virtual-exporters/internal';
import { plan, type InstanceSnapshot, type PlannerSnapshot } from '../../src/planner';
import { applyPlan, bootAll, isStandby } from './applier';
import { T0, instance, lease, makeClass, makeSet, ofType, snapshot, SET, type Shape } from './builders';

const SHAPES: readonly Shape[] = [
  'available',
  'starting',
  'unrendered',
  'standby',
  'offline',
  'exited',
  'failed',
];

const instanceSeed = fc.record({
  shape: fc.constantFrom(...SHAPES),
  outdated: fc.boolean(),
  recycleMarked: fc.constantFrom(false, false, true),
  retiring: fc.constantFrom(false, false, false, true),
  leased: fc.constantFrom(false, false, false, true),
  podRefused: fc.constantFrom(false, false, true),
  age: fc.integer({ min: 10_000, max: 1_200_000 }),
});

const world = fc.record({
  minReplicas: fc.integer({ min: 0, max: 3 }),
  maxReplicas: fc.integer({ min: 1, max: 4 }),
  minAvailable: fc.integer({ min: 0, max: 4 }),
  update: fc.constantFrom<UpdateStrategyType>('Proactive', 'Opportunistic', 'Unmanaged'),
  inPlace: fc.boolean(),
  wffc: fc.boolean(),
  retain: fc.boolean(),
  /** Pods boot at once (bootAll), or never. */
  boot: fc.boolean(),
  /** Pinned to a revision never recorded, or the class missing: the set stands still. */
  still: fc.constantFrom('no', 'no', 'pin', 'class'),
  /** A scale-down window opened 5 s ago, with this target. */
  windowTarget: fc.option(fc.integer({ min: 0, max: 12 })),
  pending: fc.integer({ min: 0, max: 3 }),
  failures: fc.integer({ min: 0, max: 2 }),
  instances: fc.array(instanceSeed, { maxLength: 12 }),
});

type World = typeof world extends fc.Arbitrary<infer W> ? W : never;

function build(w: World): PlannerSnapshot {
  const leases: Lease[] = [];
  const instances = w.instances.map((seed, ordinal): InstanceSnapshot => {
    const name = `${SET}-${ordinal}`;
    if (seed.leased) leases.push(lease(`l-${name}`, { exporter: name }));
    const base = instance(ordinal, seed.shape, {
      ...(seed.outdated ? { revision: 'old' } : {}),
      ...(seed.retiring ? { enabled: false, retiring: 'scale-down' } : {}),
      createdAt: -seed.age,
    });
    const annotations = {
      ...base.exporter.metadata?.annotations,
      ...(seed.recycleMarked ? { [Annotations.recycleRequested]: 'op' } : {}),
    };
    return {
      ...base,
      exporter: { ...base.exporter, metadata: { ...base.exporter.metadata, annotations } },
      ...(seed.podRefused && seed.shape === 'unrendered'
        ? { podWriteFailure: { since: T0 - 30_000, reason: 'FailedCreatePod', message: 'forbidden' } }
        : {}),
    };
  });
  for (let p = 0; p < w.pending; p++) leases.push(lease(`pending-${p}`));
  const set = makeSet(
    {
      minReplicas: Math.min(w.minReplicas, w.maxReplicas),
      maxReplicas: w.maxReplicas,
      minAvailableReplicas: Math.min(w.minAvailable, w.maxReplicas),
      scaleDownCooldown: '20s',
      recycleStrategy: w.inPlace ? 'InPlaceReuse' : 'ExitAndReplace',
      updateStrategy: { type: w.update },
      ...(w.still === 'pin' ? { pinnedRevision: 'never-recorded' } : {}),
    },
    {
      status: {
        startupFailures: w.failures,
        ...(w.windowTarget !== null
          ? { scaleDownWindowStart: new Date(T0 - 5_000).toISOString(), scaleDownTarget: w.windowTarget }
          : {}),
        ...(w.failures > 0 ? { lastStartupFailureTime: new Date(T0 - 5_000).toISOString() } : {}),
      },
    },
  );
  const cls = makeClass({
    bindingMode: w.wffc ? 'WaitForFirstConsumer' : 'Immediate',
    reclaimPolicy: w.retain ? 'Retain' : 'Delete',
  });
  return {
    ...snapshot({ set, cls: w.still === 'class' ? null : cls, instances, leases }),
    ...(w.still === 'pin' ? { revisions: [] } : {}),
  };
}

/** Leased by a Lease that has not ended. */
const leasedNames = (s: PlannerSnapshot): Set<string> =>
  new Set(s.leases.filter((l) => !l.status?.ended).map((l) => l.status?.exporterRef?.name ?? ''));

/**
 * Owned instances that run or may run, as the simulation's `ceiling` invariant counts them: not being
 * deleted, not a Pod-less standby, not disabled on their way out, Pod not ended.
 */
function running(s: PlannerSnapshot): InstanceSnapshot[] {
  return s.instances.filter(
    (i) =>
      !i.exporter.metadata?.deletionTimestamp &&
      !(isStandby(i) && !i.pod) &&
      i.exporter.metadata?.annotations?.[Annotations.retiring] === undefined &&
      !['Failed', 'Succeeded'].includes(i.pod?.status?.phase ?? ''),
  );
}

describe('§3.4 the ceiling as a class (properties)', () => {
  it('no plan starts an instance that runs while the counted instances fill maxReplicas', () => {
    fc.assert(
      fc.property(world, (w) => {
        const s = build(w);
        const result = plan(s);
        const starts =
          ofType(result, 'CreateExporter').filter((c) => !c.standby).length +
          ofType(result, 'PromoteStandby').length;
        if (starts > 0) expect(running(s).length + starts).toBeLessThanOrEqual(w.maxReplicas);
      }),
      { numRuns: 300 },
    );
  });

  it('a pool above its ceiling comes down to it in a live world; leased instances are never removed', () => {
    fc.assert(
      fc.property(world, (w) => {
        let s = build(w);
        const leased = leasedNames(s);
        for (let pass = 0; pass < 40; pass++) {
          const result = plan(s);
          for (const a of result.actions) {
            if (a.type === 'DeleteExporter' || a.type === 'DisableExporter' || a.type === 'DeletePod') {
              expect(leased.has(a.name)).toBe(false);
            }
          }
          const applied = applyPlan(s, result);
          s = { ...(w.boot ? bootAll(applied) : applied), now: s.now + 5_000 };
        }
        const stillLeased = running(s).filter((i) => leased.has(i.exporter.metadata?.name ?? ''));
        expect(running(s).length).toBeLessThanOrEqual(Math.max(w.maxReplicas, stillLeased.length));
      }),
      { numRuns: 150 },
    );
  });
});
