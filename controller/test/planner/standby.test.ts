/**
 * §3.6 standby: a pool never leaves nothing enabled (upstream ends a lease at once when no enabled
 * Exporter matches it), so an empty pool keeps one standby; with WaitForFirstConsumer every instance
 * starts as a standby and is promoted when a lease waits for it.
 */
import { describe, expect, it } from '@jest/globals';
import { ConditionTypes } from 'virtual-exporters/internal';
import { plan } from '../../src/planner';
import { applyPlan, isStandby, settle } from './applier';
import { conditionOf, instance, lease, makeClass, makeSet, namesOf, ofType, snapshot } from './builders';

describe('§3.6 standby (scale from zero)', () => {
  it('keeps one standby Exporter in a pool that needs nothing', () => {
    const result = plan(snapshot());
    expect(ofType(result, 'CreateExporter').map((c) => [c.name, c.standby, c.reason])).toEqual([
      ['pool-0', true, 'standby'],
    ]);
    expect(ofType(result, 'CreateExporter')[0].exporter.metadata.labels).toMatchObject({
      'exporterset.jumpstarter.dev/standby': 'true',
    });
  });

  it('needs no standby while another enabled instance exists', () => {
    const result = plan(snapshot({ instances: [instance(0, 'starting')] }));
    expect(ofType(result, 'CreateExporter')).toEqual([]);
  });

  it('keeps a standby when the only other instance was disabled by hand', () => {
    const result = plan(snapshot({ instances: [instance(0, 'available', { enabled: false })] }));
    expect(ofType(result, 'CreateExporter').map((c) => c.standby)).toEqual([true]);
  });

  it('promotes the standby for a pending lease and renders its Pod', () => {
    const result = plan(snapshot({ instances: [instance(0, 'standby')], leases: [lease('l')] }));
    expect(namesOf(result, 'PromoteStandby')).toEqual(['pool-0']);
    expect(namesOf(result, 'RenderInstance')).toEqual(['pool-0']);
    expect(ofType(result, 'CreateExporter')).toEqual([]);
  });

  it('promotes a standby only once: the next pass sees the promotion in flight', () => {
    const first = snapshot({ instances: [instance(0, 'standby')], leases: [lease('l')] });
    const second = plan({ ...first, inFlight: { promoting: ['pool-0'], rendering: ['pool-0'] } });
    expect(second.actions).toEqual([]);
  });

  it('does not promote an outdated standby; a current instance is created instead', () => {
    const result = plan(
      snapshot({ instances: [instance(0, 'standby', { revision: 'old' })], leases: [lease('l')] }),
    );
    expect(ofType(result, 'PromoteStandby')).toEqual([]);
    expect(ofType(result, 'CreateExporter').map((c) => [c.name, c.standby])).toEqual([['pool-1', false]]);
  });

  it('reports standbys and does not count them as degraded or unavailable', () => {
    const result = plan(snapshot({ instances: [instance(0, 'standby')] }));
    expect(result.status).toMatchObject({ standbyReplicas: 1, unavailableReplicas: 0, replicas: 1 });
    expect(result.status).toMatchObject({ exportersOffline: 1, readyReplicas: 0 });
    expect(conditionOf(result, ConditionTypes.Degraded)).toMatchObject({
      status: 'False',
      reason: 'AllReplicasHealthy',
    });
    expect(conditionOf(result, ConditionTypes.Progressing)).toMatchObject({
      status: 'False',
      reason: 'AllReplicasReady',
    });
  });

  it('finishes a promotion whose label patch did not land', () => {
    const labelled = instance(0, 'starting');
    const exporter = {
      ...labelled.exporter,
      metadata: {
        ...labelled.exporter.metadata,
        labels: { ...labelled.exporter.metadata.labels, 'exporterset.jumpstarter.dev/standby': 'true' },
      },
    };
    const result = plan(snapshot({ instances: [{ ...labelled, exporter }], leases: [lease('l')] }));
    expect(namesOf(result, 'PromoteStandby')).toEqual(['pool-0']);
  });
});

describe('§3.6 WaitForFirstConsumer', () => {
  const cls = makeClass({ bindingMode: 'WaitForFirstConsumer' });

  it('makes every instance a standby: no Pods until a lease waits', () => {
    const { snapshot: final, plans } = settle(
      snapshot({ cls, set: makeSet({ minAvailableReplicas: 2, minReplicas: 3 }) }),
    );
    expect(final.instances).toHaveLength(3);
    expect(final.instances.every(isStandby)).toBe(true);
    expect(plans.flatMap((p) => ofType(p, 'RenderInstance'))).toEqual([]);
  });

  it('gives exactly one Pod per waiting lease and refills the standby buffer', () => {
    const result = plan(
      snapshot({
        cls,
        set: makeSet({ minAvailableReplicas: 2 }),
        instances: [instance(0, 'standby'), instance(1, 'standby'), instance(2, 'standby')],
        leases: [lease('a'), lease('b')],
      }),
    );
    expect(namesOf(result, 'PromoteStandby')).toEqual(['pool-0', 'pool-1']);
    expect(namesOf(result, 'RenderInstance')).toEqual(['pool-0', 'pool-1']);
    expect(ofType(result, 'CreateExporter').map((c) => c.standby)).toEqual([true]);
  });

  it('creates a realised instance for a waiting lease when no standby is left', () => {
    const result = plan(
      snapshot({
        cls,
        instances: [instance(0, 'available')],
        leases: [lease('busy', { exporter: 'pool-0' }), lease('a')],
      }),
    );
    expect(ofType(result, 'CreateExporter').map((c) => [c.standby, c.reason])).toEqual([[false, 'demand']]);
  });

  it('settles with a waiting lease served by a promoted standby', () => {
    const start = snapshot({
      cls,
      set: makeSet({ minAvailableReplicas: 1 }),
      instances: [instance(0, 'standby')],
      leases: [lease('a')],
    });
    const once = applyPlan(start, plan(start));
    const again = plan(once);
    expect(ofType(again, 'PromoteStandby')).toEqual([]);
    expect(ofType(again, 'RenderInstance')).toEqual([]);
  });
});

/**
 * When the only instances filling maxReplicas are leaving, the standby that keeps leases waiting takes
 * their place at once — it has no Pod — instead of a pass later, when a waiting lease would already
 * have found the pool empty and ended.
 */
describe('§3.6 the standby at a full ceiling', () => {
  it('replaces the last instance leaving a full pool with a standby in the same pass', () => {
    const result = plan(
      snapshot({
        set: makeSet({ maxReplicas: 1, minAvailableReplicas: 1 }, { status: { startupFailures: 0 } }),
        instances: [instance(0, 'crashed')],
        leases: [lease('waiting', { pending: true })],
      }),
    );
    expect(namesOf(result, 'DeleteExporter')).toEqual(['pool-0']);
    expect(ofType(result, 'CreateExporter').map((c) => [c.name, c.standby])).toEqual([['pool-1', true]]);
  });

  it('still never adds a Pod-carrying instance beyond the ceiling', () => {
    const result = plan(
      snapshot({
        set: makeSet({ maxReplicas: 1, minAvailableReplicas: 1 }),
        instances: [instance(0, 'crashed')],
      }),
    );
    expect(ofType(result, 'CreateExporter').every((c) => c.standby)).toBe(true);
    expect(ofType(result, 'RenderInstance')).toEqual([]);
  });
});

/**
 * A set whose parameters are invalid (a class broken, or fixed but not yet seen so) may create
 * nothing, not even the standby. If its last enabled instances left anyway — failed ones deleted, idle
 * ones disabled — a waiting lease would find no enabled Exporter and end at once. One of them stays
 * until a standby can be created.
 */
const invalid = { parameters: { arch: 'mips' } };

describe('§3.6 the last enabled instance while no standby can be created', () => {
  it('keeps the last failed instance when the parameters are invalid', () => {
    const result = plan(
      snapshot({
        set: makeSet({ ...invalid, minAvailableReplicas: 1 }),
        instances: [instance(0, 'failed'), instance(1, 'crashed')],
        leases: [lease('waiting', { pending: true })],
      }),
    );
    expect(ofType(result, 'CreateExporter')).toEqual([]);
    // One leaves; the other stays enabled for the waiting lease.
    expect(namesOf(result, 'DeleteExporter')).toHaveLength(1);
    expect(ofType(result, 'DisableExporter')).toEqual([]);
  });

  it('keeps the last idle instance that scale-down would remove', () => {
    const result = plan(
      snapshot({
        set: makeSet(
          { ...invalid, scaleDownCooldown: '0s' },
          { status: { scaleDownWindowStart: new Date(0).toISOString(), scaleDownTarget: 0 } },
        ),
        instances: [instance(0, 'available')],
      }),
    );
    expect(ofType(result, 'DisableExporter')).toEqual([]);
    expect(ofType(result, 'DeleteExporter')).toEqual([]);
  });

  it('lets it go once a standby is created in its place', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 0 }, { status: { startupFailures: 0 } }),
        instances: [instance(0, 'failed')],
      }),
    );
    expect(namesOf(result, 'DeleteExporter')).toEqual(['pool-0']);
    expect(ofType(result, 'CreateExporter').map((c) => c.standby)).toEqual([true]);
  });
});

/**
 * The only instance filling `maxReplicas` is leased and leaving, so the standby beside it keeps leases
 * waiting — but it runs an older template (its labels may no longer be what leases select), and a
 * rollout replacement finds no room under the ceiling. Two Pod-less standbys swap in one pass: the
 * current one is created, then the outdated one goes.
 */
describe('§3.6 an outdated standby at the ceiling', () => {
  const world = (revision: string | undefined) =>
    snapshot({
      set: makeSet({ maxReplicas: 1, minAvailableReplicas: 1 }, { status: { startupFailures: 0 } }),
      instances: [
        instance(0, 'available', { revision: 'old', enabled: false, retiring: 'rollout' }),
        instance(1, 'standby', revision === undefined ? {} : { revision }),
      ],
      leases: [lease('held', { exporter: 'pool-0' })],
    });

  it('is replaced by a current standby in the same pass while a leaving instance fills the ceiling', () => {
    const result = plan(world('old'));
    expect(ofType(result, 'CreateExporter').map((c) => [c.name, c.standby])).toEqual([['pool-2', true]]);
    expect([...namesOf(result, 'DisableExporter'), ...namesOf(result, 'DeleteExporter')]).toContain('pool-1');
    expect(namesOf(result, 'DeleteExporter')).not.toContain('pool-0');
    expect(ofType(result, 'RenderInstance')).toEqual([]);
    expect(ofType(result, 'PromoteStandby')).toEqual([]);
  });

  it('leaves a current standby alone', () => {
    const result = plan(world(undefined));
    expect(ofType(result, 'CreateExporter')).toEqual([]);
    expect(namesOf(result, 'DeleteExporter')).toEqual([]);
  });
});

/**
 * A scale-down victim that Jumpstarter leased at the instant it was disabled stays, disabled, until its
 * lease ends (§3.7). It runs, so it fills its place under `maxReplicas`; but it is on its way out, so a
 * Pod-less standby takes the place §3.6 needs (SPEC §2: a Pod-less standby may exist beyond the
 * ceiling while every instance filling it is disabled on its way out) — no running or ended instance is
 * kept enabled beyond the ceiling for as long as that lease lasts.
 */
describe('§3.6 a scale-down victim leased as it was disabled', () => {
  const held = instance(0, 'available', { enabled: false, retiring: 'scale-down' });
  const leases = [
    lease('held', { exporter: 'pool-0' }),
    lease('served', { exporter: 'pool-1', ended: true }),
    lease('waiting', { pending: true }),
  ];

  it('replaces an exited instance with a standby instead of keeping it enabled', () => {
    const result = plan(
      snapshot({
        set: makeSet({ maxReplicas: 1 }, { status: { startupFailures: 0 } }),
        instances: [held, instance(1, 'exited')],
        leases,
      }),
    );
    expect(ofType(result, 'CreateExporter').map((c) => [c.name, c.standby])).toEqual([['pool-2', true]]);
    expect(namesOf(result, 'DeleteExporter')).toEqual(['pool-1']);
    expect(ofType(result, 'RenderInstance')).toEqual([]);
    expect(ofType(result, 'PromoteStandby')).toEqual([]);
  });

  it('retires an idle instance above the ceiling, a standby taking its place', () => {
    const result = plan(
      snapshot({
        set: makeSet(
          { maxReplicas: 1, scaleDownCooldown: '1m' },
          { status: { scaleDownWindowStart: new Date(0).toISOString(), scaleDownTarget: 1 } },
        ),
        instances: [held, instance(1, 'available')],
        leases,
      }),
    );
    expect(ofType(result, 'CreateExporter').map((c) => [c.name, c.standby])).toEqual([['pool-2', true]]);
    expect(namesOf(result, 'DisableExporter')).toEqual(['pool-1']);
    expect(namesOf(result, 'DeleteExporter')).toEqual([]);
  });

  it('settles with the leased instance and one standby, nothing running beyond the ceiling', () => {
    const { snapshot: settled } = settle(
      snapshot({
        set: makeSet({ maxReplicas: 1 }, { status: { startupFailures: 0 } }),
        instances: [held, instance(1, 'exited')],
        leases,
      }),
    );
    const names = settled.instances.map((i) => [
      i.exporter.metadata?.name,
      isStandby(i),
      i.pod !== undefined,
    ]);
    expect(names).toEqual([
      ['pool-0', false, true],
      ['pool-2', true, false],
    ]);
  });
  it('keeps the standby standing in for it beside an instance disabled by hand: no delete and create every pass', () => {
    // Found by the planner properties: the ceiling (2) is filled by an instance disabled by hand and the
    // held victim; the standby beside them was taken as over the ceiling and made again in each pass.
    const start = snapshot({
      set: makeSet({ maxReplicas: 2, scaleDownCooldown: '0s' }, { status: { startupFailures: 0 } }),
      instances: [held, instance(1, 'available', { enabled: false })],
      leases: [lease('held', { exporter: 'pool-0' })],
    });
    const { snapshot: settled, passes } = settle(start);
    expect(passes).toBeLessThan(10);
    const again = plan(settled);
    expect(again.actions).toEqual([]);
    expect(settled.instances.filter((i) => isStandby(i)).map((i) => i.exporter.spec?.enabled)).toEqual([
      true,
    ]);
  });
});
