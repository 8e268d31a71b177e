/**
 * §3.4 ceiling and §3.5 burst: never more than maxReplicas instances, counting creates in flight; a
 * lowered ceiling caps the warm buffer; a promoted standby needs room under the ceiling like a create;
 * creates in flight plus this pass's never exceed maxBurst; a set that stands still comes down to its
 * ceiling too.
 */
import { describe, expect, it } from '@jest/globals';
import {
  Annotations,
  ConditionReasons,
  ConditionTypes,
  type ExporterSetSpec,
} from 'virtual-exporters/internal';
import { plan, type InstanceSnapshot } from '../../src/planner';
import { settle } from './applier';
import { T0, at, conditionOf, instance, lease, makeSet, namesOf, ofType, snapshot } from './builders';

describe('§3.4 ceiling', () => {
  it('never creates beyond maxReplicas, counting creates in flight', () => {
    const result = plan(
      snapshot({
        set: makeSet({ maxReplicas: 4, minAvailableReplicas: 4 }),
        instances: [instance(0, 'available'), instance(1, 'available')],
        inFlight: { creating: [{ name: 'pool-2', standby: false }] },
        leases: [lease('a'), lease('b')],
      }),
    );
    expect(namesOf(result, 'CreateExporter')).toEqual(['pool-3']);
  });

  it('reports Scaling=False/MaxReplicasReached when the buffer and demand need more than maxReplicas', () => {
    const result = plan(
      snapshot({
        set: makeSet({ maxReplicas: 2, minAvailableReplicas: 2 }),
        instances: [instance(0, 'available'), instance(1, 'available')],
        leases: [lease('a')],
      }),
    );
    expect(ofType(result, 'CreateExporter')).toEqual([]);
    expect(conditionOf(result, ConditionTypes.Scaling)).toMatchObject({
      status: 'False',
      reason: ConditionReasons.MaxReplicasReached,
      message: 'the floor, the warm buffer and pending leases need 3 instances but maxReplicas is 2',
    });
    // Upstream's rule counts no pending lease: the warm buffer (2 available) is met.
    expect(conditionOf(result, ConditionTypes.ScalingLimited)).toMatchObject({
      status: 'False',
      reason: ConditionReasons.WithinLimits,
    });
  });

  it('reports ScalingLimited=True/AtMaxReplicas when the warm buffer is short at maxReplicas', () => {
    const result = plan(
      snapshot({
        set: makeSet({ maxReplicas: 2, minAvailableReplicas: 2 }),
        instances: [instance(0, 'available'), instance(1, 'available')],
        leases: [lease('a', { exporter: 'pool-0' })],
      }),
    );
    expect(conditionOf(result, ConditionTypes.ScalingLimited)).toMatchObject({
      status: 'True',
      reason: ConditionReasons.AtMaxReplicas,
      message: 'Cannot scale beyond 2 replicas; 1 available, need 2',
    });
  });

  it('reports ScalingLimited False while the rules fit under maxReplicas', () => {
    const result = plan(snapshot({ set: makeSet({ maxReplicas: 3, minAvailableReplicas: 2 }) }));
    expect(conditionOf(result, ConditionTypes.ScalingLimited)?.status).toBe('False');
  });

  it('counts instances on their way out until they are deleted', () => {
    const result = plan(
      snapshot({
        set: makeSet({ maxReplicas: 2, minAvailableReplicas: 2 }),
        instances: [
          instance(0, 'available'),
          instance(1, 'available', { enabled: false, retiring: 'scale-down' }),
        ],
      }),
    );
    expect(ofType(result, 'CreateExporter')).toEqual([]);
    expect(namesOf(result, 'DeleteExporter')).toEqual(['pool-1']);
  });

  it('does not count instances being deleted', () => {
    const result = plan(
      snapshot({
        set: makeSet({ maxReplicas: 2, minAvailableReplicas: 2 }),
        instances: [instance(0, 'available'), instance(1, 'available', { deleting: true })],
      }),
    );
    expect(namesOf(result, 'CreateExporter')).toEqual(['pool-2']);
  });
});

describe('§3.5 burst', () => {
  it('creates at most maxBurst instances in one pass', () => {
    const result = plan(snapshot({ set: makeSet({ minReplicas: 100 }) }));
    expect(ofType(result, 'CreateExporter')).toHaveLength(50);
    expect(conditionOf(result, ConditionTypes.Scaling)?.message).toContain(
      '50 more instances wanted, held back by maxReplicas, the burst limit',
    );
  });

  it('never has more than maxBurst creates in flight', () => {
    const creating = Array.from({ length: 45 }, (_, i) => ({ name: `pool-${i}`, standby: false }));
    const result = plan(
      snapshot({ set: makeSet({ minReplicas: 100 }), inFlight: { creating }, options: { maxBurst: 50 } }),
    );
    expect(namesOf(result, 'CreateExporter')).toEqual([
      'pool-45',
      'pool-46',
      'pool-47',
      'pool-48',
      'pool-49',
    ]);
  });

  it('reaches 100 instances from zero in bursts without twins', () => {
    const { snapshot: final, plans } = settle(snapshot({ set: makeSet({ minReplicas: 100 }) }));
    const created = plans.flatMap((p) => namesOf(p, 'CreateExporter'));
    expect(new Set(created).size).toBe(100);
    expect(final.instances).toHaveLength(100);
    expect(plans.every((p) => ofType(p, 'CreateExporter').length <= 50)).toBe(true);
  });
});

/**
 * When maxReplicas drops below the pool, idle instances above it are surplus even though the warm
 * buffer would want them — the ceiling caps the buffer — and they go through the scale-down window like
 * any surplus; a leased instance never does.
 */
const MINUTE = 60_000;

describe('§3.4 a lowered ceiling', () => {
  const instances = [instance(0, 'available'), instance(1, 'available'), instance(2, 'available')];
  const leases = [lease('ci', { exporter: 'pool-0' })];

  it('opens the window for the idle instances above maxReplicas', () => {
    const result = plan(
      snapshot({ set: makeSet({ minAvailableReplicas: 2, maxReplicas: 2 }), instances, leases }),
    );
    expect(result.actions.filter((a) => a.type !== 'AddFinalizer')).toEqual([]);
    expect(result.status).toMatchObject({ scaleDownWindowStart: at(0), scaleDownTarget: 2 });
    expect(result.status?.conditions?.find((c) => c.type === 'Scaling')).toMatchObject({
      status: 'False',
      reason: 'ScaleDownPending',
    });
  });

  it('removes them once the window lasted the cooldown, keeping the leased one', () => {
    const set = makeSet(
      { minAvailableReplicas: 2, maxReplicas: 2 },
      { status: { scaleDownWindowStart: at(-5 * MINUTE), scaleDownTarget: 2 } },
    );
    const result = plan(snapshot({ set, instances, leases }));
    expect(namesOf(result, 'DisableExporter')).toEqual(['pool-2']);
    expect(namesOf(result, 'DisableExporter')).not.toContain('pool-0');
  });

  it('does not let a window opened before the ceiling was lowered hold the pool above it', () => {
    const set = makeSet(
      { minAvailableReplicas: 2, maxReplicas: 2 },
      { status: { scaleDownWindowStart: at(-5 * MINUTE), scaleDownTarget: 3 } },
    );
    const result = plan(snapshot({ set, instances, leases }));
    expect(namesOf(result, 'DisableExporter')).toEqual(['pool-2']);
  });

  it('takes nothing when the pool fits under the ceiling', () => {
    const set = makeSet({ minAvailableReplicas: 2, maxReplicas: 3 });
    const result = plan(snapshot({ set, instances, leases }));
    expect(result.status?.scaleDownWindowStart).toBeUndefined();
  });
});

/**
 * A standby that gets its Pod is an instance that runs, so a promotion needs room under maxReplicas
 * like a create. The standby can exist beyond the ceiling (it took the place of leaving instances, or
 * maxReplicas was lowered after it was made); promoting it while the instances that fill the ceiling
 * still run would put one Pod too many in the cluster.
 */
describe('§3.4 promoting a standby at the ceiling', () => {
  it('does not promote while the leased instances fill a lowered maxReplicas', () => {
    const result = plan(
      snapshot({
        set: makeSet({ maxReplicas: 3, minAvailableReplicas: 1 }),
        instances: [
          instance(0, 'available'),
          instance(1, 'available'),
          instance(2, 'available'),
          instance(3, 'standby'),
        ],
        leases: [
          lease('a', { exporter: 'pool-0' }),
          lease('b', { exporter: 'pool-1' }),
          lease('c', { exporter: 'pool-2' }),
          lease('waiting', { pending: true }),
        ],
      }),
    );
    expect(namesOf(result, 'PromoteStandby')).toEqual([]);
    expect(namesOf(result, 'RenderInstance')).toEqual([]);
    expect(namesOf(result, 'CreateExporter')).toEqual([]);
    expect(conditionOf(result, ConditionTypes.ScalingLimited)?.status).toBe('True');
  });

  it('does not promote while stuck instances that fill the ceiling are still running', () => {
    const result = plan(
      snapshot({
        set: makeSet({ maxReplicas: 2, minReplicas: 1, minAvailableReplicas: 1 }),
        instances: [instance(0, 'starting'), instance(1, 'starting'), instance(2, 'standby')],
        options: { startupTimeoutMs: 60_000 },
      }),
    );
    expect(namesOf(result, 'DisableExporter')).toEqual(['pool-0', 'pool-1']);
    expect(namesOf(result, 'PromoteStandby')).toEqual([]);
  });

  it('promotes once the instances it replaces no longer run', () => {
    const result = plan(
      snapshot({
        set: makeSet({ maxReplicas: 2, minReplicas: 1, minAvailableReplicas: 1 }),
        instances: [
          instance(0, 'crashed', { enabled: false, retiring: 'failed' }),
          instance(1, 'available', { enabled: false, retiring: 'scale-down' }),
          instance(2, 'standby'),
        ],
        leases: [lease('waiting', { pending: true })],
      }),
    );
    expect(namesOf(result, 'PromoteStandby')).toEqual(['pool-2']);
  });
});

/**
 * Simulation seed 39: a set pinned to a revision it never recorded stands still (nothing created,
 * replaced or rendered), and its ceiling dropped from none to 2 while it held 12 instances — outdated,
 * marked by Recycle operations, ended, or without a Pod after a refused Pod create. Standing still, it
 * kept all 12 for good (`Scaling=True/ScalingUp: 5 instances starting`). The ceiling holds for a set
 * that stands still too: the surplus leaves (never a leased instance), and nothing waits for a
 * replacement — none is made.
 */
describe('§3.4 a set standing still above its ceiling (simulation seed 39)', () => {
  const marked = (i: InstanceSnapshot): InstanceSnapshot => ({
    ...i,
    exporter: {
      ...i.exporter,
      metadata: {
        ...i.exporter.metadata,
        annotations: { ...i.exporter.metadata?.annotations, [Annotations.recycleRequested]: 'recycle-1' },
      },
    },
  });
  const refused = (n: number): InstanceSnapshot => ({
    ...instance(n, 'unrendered', { createdAt: -60_000 + n }),
    podWriteFailure: { since: T0 - 50_000, reason: 'FailedCreatePod', message: 'pods is forbidden' },
  });
  const world = (spec: Partial<ExporterSetSpec>) =>
    snapshot({
      set: makeSet({ maxReplicas: 2, minAvailableReplicas: 1, ...spec }),
      instances: [
        instance(0, 'available', { revision: 'old' }),
        instance(1, 'available', { revision: 'old' }),
        instance(2, 'available', { revision: 'old' }),
        marked(instance(3, 'available')),
        marked(instance(4, 'available', { revision: 'old' })),
        instance(5, 'exited', { revision: 'old' }),
        instance(6, 'exited'),
        ...[7, 8, 9, 10, 11].map(refused),
      ],
      leases: [lease('held', { exporter: 'pool-1' })],
    });
  const pinnedNowhere = { pinnedRevision: 'pool-never-recorded' };

  it('comes down to the ceiling, keeping the leased instance, creating and rendering nothing', () => {
    const result = plan({ ...world(pinnedNowhere), revisions: [] });
    expect(conditionOf(result, 'RevisionPinned')?.reason).toBe('PinnedRevisionNotFound');
    expect(ofType(result, 'CreateExporter')).toEqual([]);
    expect(ofType(result, 'RenderInstance')).toEqual([]);
    expect(ofType(result, 'PromoteStandby')).toEqual([]);
    const leaving = [...namesOf(result, 'DisableExporter'), ...namesOf(result, 'DeleteExporter')];
    expect(leaving).not.toContain('pool-1');
    expect(leaving).toHaveLength(10);
  });

  it('settles at the ceiling: the leased instance and one more', () => {
    const { snapshot: settled } = settle({ ...world(pinnedNowhere), revisions: [] });
    const names = settled.instances.map((i) => i.exporter.metadata?.name).sort();
    expect(names).toHaveLength(2);
    expect(names).toContain('pool-1');
  });

  it('does the same with the class missing', () => {
    const result = plan({ ...world({}), virtualTargetClass: undefined });
    expect(ofType(result, 'CreateExporter')).toEqual([]);
    const leaving = [...namesOf(result, 'DisableExporter'), ...namesOf(result, 'DeleteExporter')];
    expect(leaving).toHaveLength(10);
    expect(leaving).not.toContain('pool-1');
  });

  it('changes nothing while the pool fits under the ceiling', () => {
    const result = plan({ ...world({ ...pinnedNowhere, maxReplicas: 12 }), revisions: [] });
    expect(result.actions.filter((a) => a.type !== 'AddFinalizer')).toEqual([]);
  });
});
