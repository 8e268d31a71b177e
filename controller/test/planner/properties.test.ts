import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Annotations, instanceOrdinal, type Lease } from 'virtual-exporters/internal';
import { applyPlan } from './applier';
import {
  plan,
  statusEquals,
  type InstanceSnapshot,
  type Plan,
  type PlannerSnapshot,
} from '../../src/planner';
import { DEFAULT_PLANNER_OPTIONS } from '../../src/planner';
import { bootAll, settle } from './applier';
import { at, instance, lease, makeClass, makeSet, ofType, snapshot, SET, type Shape } from './builders';

const SHAPES: readonly Shape[] = [
  'available',
  'starting',
  'unrendered',
  'new',
  'standby',
  'offline',
  'exited',
  'failed',
  'crashed',
];

interface InstanceSeed {
  readonly shape: Shape;
  readonly outdated: boolean;
  readonly disabled: 'no' | 'byHand' | 'byUs';
  readonly detached: boolean;
  readonly deleting: boolean;
  readonly lease: 'none' | 'active' | 'ended';
  readonly leaseRef: boolean;
  readonly age: number;
}

const instanceSeed: fc.Arbitrary<InstanceSeed> = fc.record({
  shape: fc.constantFrom(...SHAPES),
  outdated: fc.boolean(),
  disabled: fc.constantFrom('no', 'no', 'no', 'byHand', 'byUs'),
  detached: fc.constantFrom(false, false, false, true),
  deleting: fc.constantFrom(false, false, false, false, true),
  lease: fc.constantFrom('none', 'none', 'active', 'ended'),
  leaseRef: fc.constantFrom(false, false, false, true),
  age: fc.integer({ min: 10_000, max: 3_600_000 }),
});

const world = fc.record({
  minReplicas: fc.integer({ min: 0, max: 6 }),
  maxReplicas: fc.integer({ min: 0, max: 10 }),
  minAvailable: fc.integer({ min: 0, max: 6 }),
  cooldown: fc.constantFrom('0s', '5m'),
  inPlace: fc.boolean(),
  wffc: fc.boolean(),
  retain: fc.boolean(),
  invalid: fc.constantFrom(false, false, false, true),
  instances: fc.array(instanceSeed, { maxLength: 12 }),
  ordinalGap: fc.integer({ min: 0, max: 3 }),
  pending: fc.integer({ min: 0, max: 5 }),
  creating: fc.array(fc.boolean(), { maxLength: 4 }),
  deletingInFlight: fc.integer({ min: 0, max: 3 }),
  nextOrdinal: fc.integer({ min: 0, max: 30 }),
  window: fc.option(
    fc.record({ ago: fc.integer({ min: 0, max: 600_000 }), target: fc.integer({ min: 0, max: 8 }) }),
  ),
  failures: fc.integer({ min: 0, max: 3 }),
  maxBurst: fc.integer({ min: 1, max: 6 }),
});

type World = typeof world extends fc.Arbitrary<infer W> ? W : never;

function build(w: World): PlannerSnapshot {
  const leases: Lease[] = [];
  const instances: InstanceSnapshot[] = w.instances.map((seed, i) => {
    const ordinal = i * (1 + w.ordinalGap);
    const name = `${SET}-${ordinal}`;
    if (seed.lease !== 'none')
      leases.push(lease(`l-${name}`, { exporter: name, ended: seed.lease === 'ended' }));
    return instance(ordinal, seed.shape, {
      ...(seed.outdated ? { revision: 'old' } : {}),
      ...(seed.disabled !== 'no' ? { enabled: false } : {}),
      ...(seed.disabled === 'byUs' ? { retiring: 'scale-down' } : {}),
      detached: seed.detached,
      deleting: seed.deleting,
      createdAt: -seed.age,
      ...(seed.leaseRef ? { leaseRef: `l-${name}` } : {}),
    });
  });
  for (let p = 0; p < w.pending; p++) leases.push(lease(`pending-${p}`));
  const creating = w.creating.map((standby, i) => ({ name: `${SET}-${100 + i}`, standby }));
  const deleting = instances.slice(0, w.deletingInFlight).map((i) => i.exporter.metadata?.name ?? '');
  const set = makeSet(
    {
      minReplicas: w.minReplicas,
      maxReplicas: w.maxReplicas,
      minAvailableReplicas: w.minAvailable,
      scaleDownCooldown: w.cooldown,
      recycleStrategy: w.inPlace ? 'InPlaceReuse' : 'ExitAndReplace',
      ...(w.invalid ? { parameters: { arch: 'mips' } } : {}),
    },
    {
      status: {
        nextOrdinal: w.nextOrdinal,
        startupFailures: w.failures,
        ...(w.failures > 0 ? { lastStartupFailureTime: at(-30_000) } : {}),
        ...(w.window ? { scaleDownWindowStart: at(-w.window.ago), scaleDownTarget: w.window.target } : {}),
      },
    },
  );
  return snapshot({
    set,
    cls: makeClass({
      bindingMode: w.wffc ? 'WaitForFirstConsumer' : 'Immediate',
      reclaimPolicy: w.retain ? 'Retain' : 'Delete',
    }),
    instances,
    leases,
    inFlight: { creating, deleting },
    options: { maxBurst: w.maxBurst },
  });
}

const leasedNames = (s: PlannerSnapshot): Set<string> =>
  new Set(
    s.leases
      .filter((l) => l.status?.exporterRef && !l.status.ended)
      .map((l) => l.status?.exporterRef?.name ?? ''),
  );

const ownedNotDeleting = (s: PlannerSnapshot): InstanceSnapshot[] => {
  const deleting = new Set(s.inFlight?.deleting ?? []);
  return s.instances.filter(
    (i) =>
      (i.exporter.metadata?.ownerReferences ?? []).some((r) => r.controller) &&
      !i.exporter.metadata?.deletionTimestamp &&
      !deleting.has(i.exporter.metadata?.name ?? ''),
  );
};

const STARTUP_TIMEOUT_MS = DEFAULT_PLANNER_OPTIONS.startupTimeoutMs;
const RUNS = { numRuns: Number(process.env.PLANNER_RUNS ?? 200) };

describe('planner properties', () => {
  it('never deletes, disables, releases or replaces the Pod of a leased instance', () => {
    fc.assert(
      fc.property(world, (w) => {
        const s = build(w);
        const leased = leasedNames(s);
        const touched = plan(s).actions.filter(
          (a) =>
            a.type === 'DeleteExporter' ||
            a.type === 'DisableExporter' ||
            a.type === 'ReleaseExporter' ||
            a.type === 'DeletePod',
        );
        expect(touched.filter((a) => leased.has(a.name))).toEqual([]);
      }),
      RUNS,
    );
  });

  // A Pod-less standby may take the place of instances the same plan removes (so a waiting lease never
  // finds the pool empty); anything that runs counts against the ceiling before any removal.
  it('never exceeds maxReplicas, counting creates in flight', () => {
    fc.assert(
      fc.property(world, (w) => {
        const s = build(w);
        const result = plan(s);
        const creates = ofType(result, 'CreateExporter');
        if (w.maxReplicas === 0 || creates.length === 0) return;
        const known = new Set(s.instances.map((i) => i.exporter.metadata?.name));
        const inFlight = (s.inFlight?.creating ?? []).filter((c) => !known.has(c.name)).length;
        const owned = ownedNotDeleting(s).length;
        const realised = creates.filter((c) => !c.standby).length;
        // (A pool already above a lowered ceiling may still get its standby: only Pods are held here.)
        if (realised > 0) expect(owned + inFlight + realised).toBeLessThanOrEqual(w.maxReplicas);
        const removedNames = new Set(
          result.actions
            .filter(
              (a) =>
                a.type === 'DeleteExporter' || a.type === 'DisableExporter' || a.type === 'ReleaseExporter',
            )
            .map((a) => (a as { name: string }).name),
        );
        // SPEC (QEMU choices): a Pod-less standby may exist beyond the ceiling while the instances filling
        // it are disabled on their way out (retiring); they leave once no lease names them.
        const retiring = ownedNotDeleting(s).filter(
          (i) =>
            i.exporter.metadata?.annotations?.[Annotations.retiring] !== undefined &&
            !removedNames.has(i.exporter.metadata?.name ?? ''),
        ).length;
        const excused = creates.every((c) => c.standby) ? retiring : 0;
        expect(owned - removedNames.size - excused + inFlight + creates.length).toBeLessThanOrEqual(
          w.maxReplicas,
        );
      }),
      RUNS,
    );
  });

  it('never plans twins: fresh names, strictly increasing ordinals above every one seen', () => {
    fc.assert(
      fc.property(world, (w) => {
        const s = build(w);
        const result = plan(s);
        const creates = ofType(result, 'CreateExporter');
        const taken = new Set([
          ...s.instances.map((i) => i.exporter.metadata?.name ?? ''),
          ...(s.inFlight?.creating ?? []).map((c) => c.name),
        ]);
        const highest = Math.max(
          -1,
          ...[...taken, ...s.leases.map((l) => l.status?.exporterRef?.name ?? '')].map(
            (n) => instanceOrdinal(SET, n) ?? -1,
          ),
        );
        const ordinals = creates.map((c) => c.ordinal);
        expect(new Set(creates.map((c) => c.name)).size).toBe(creates.length);
        for (const c of creates) {
          expect(taken.has(c.name)).toBe(false);
          expect(c.name).toBe(`${SET}-${c.ordinal}`);
          expect(c.ordinal).toBeGreaterThan(highest);
          expect(c.ordinal).toBeGreaterThanOrEqual(w.nextOrdinal);
        }
        ordinals.forEach((o, i) => i > 0 && expect(o).toBeGreaterThan(ordinals[i - 1]));
        expect(result.status?.nextOrdinal).toBe(Math.max(w.nextOrdinal, highest + 1) + creates.length);
      }),
      RUNS,
    );
  });

  it('never has more than maxBurst creates in flight', () => {
    fc.assert(
      fc.property(world, (w) => {
        const s = build(w);
        const creates = ofType(plan(s), 'CreateExporter').length;
        expect(creates + w.creating.length).toBeLessThanOrEqual(Math.max(w.maxBurst, w.creating.length));
      }),
      RUNS,
    );
  });

  it('never acts on detached instances or instances being deleted', () => {
    fc.assert(
      fc.property(world, (w) => {
        const s = build(w);
        const owned = new Set(ownedNotDeleting(s).map((i) => i.exporter.metadata?.name));
        for (const action of plan(s).actions) {
          if (action.type === 'CreateExporter' || !('name' in action)) continue;
          expect(owned.has(action.name)).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('is idempotent: applying the plan and planning again settles, then plans nothing', () => {
    fc.assert(
      fc.property(world, (w) => {
        const { snapshot: settled } = settle({ ...build(w), inFlight: {} }, 25);
        if (settled.gone) return;
        const again = plan(settled);
        expect(again.actions).toEqual([]);
        expect(statusEquals(again.status, settled.set.status)).toBe(true);
      }),
      RUNS,
    );
  });

  it('converges in a live world (instances boot at once) to a pool that meets the floor, the buffer and the demand', () => {
    fc.assert(
      fc.property(world, (w) => {
        let current: PlannerSnapshot = { ...build(w), inFlight: {} };
        const leased = leasedNames(current);
        let last: Plan | undefined;
        for (let pass = 0; pass < 40; pass++) {
          last = plan(current);
          for (const a of last.actions) {
            if (a.type === 'DeleteExporter' || a.type === 'DisableExporter' || a.type === 'ReleaseExporter') {
              expect(leased.has(a.name)).toBe(false);
            }
          }
          const quiet = last.actions.length === 0 && statusEquals(last.status, current.set.status);
          current = bootAll(applyPlan(current, last));
          if (quiet) break;
        }
        const final = plan(current);
        expect(final.actions).toEqual([]);
        // A starting instance past the startup timeout fails in the first pass (§3.9) and backs off, like a
        // failed one; so does one whose credential never came within it (§3.18: 'new' has none).
        const timedOut = (i: InstanceSeed) =>
          (i.shape === 'starting' || i.shape === 'new') && i.age >= STARTUP_TIMEOUT_MS;
        const gated =
          w.invalid || w.failures > 0 || w.instances.some((i) => i.shape === 'failed' || timedOut(i));
        if (gated || w.maxReplicas > 0 || !final.status) return;
        const { availableReplicas, standbyReplicas = 0, pendingLeases = 0 } = final.status;
        if (w.wffc) {
          expect(availableReplicas).toBeGreaterThanOrEqual(pendingLeases);
          expect(availableReplicas + standbyReplicas).toBeGreaterThanOrEqual(w.minAvailable + pendingLeases);
        } else {
          expect(availableReplicas).toBeGreaterThanOrEqual(w.minAvailable + pendingLeases);
        }
        expect(final.status.replicas).toBeGreaterThanOrEqual(w.minReplicas);
      }),
      RUNS,
    );
  });
});
