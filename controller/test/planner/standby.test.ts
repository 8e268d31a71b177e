import { describe, expect, it } from '@jest/globals';
import { ConditionTypes } from 'virtual-exporters/internal';
import { plan } from '../../src/planner';
import { applyPlan, isStandby, settle } from './applier';
import { conditionOf, instance, lease, makeClass, makeSet, namesOf, ofType, snapshot } from './builders';

describe('standby (scale from zero)', () => {
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

describe('WaitForFirstConsumer', () => {
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
