/**
 * §3.10 names after lost status writes: the create of `pool-1` landed but the status write of that pass
 * was lost (the controller died right after its writes, or the API answered 500), so `status.nextOrdinal`
 * still says 1; the instance is on its way out and every status write still fails. Once it is deleted
 * nothing else remembers its name, so its ordinal must be on record before the delete is sent, or the
 * next instance takes the name again.
 */
import { describe, expect, it } from '@jest/globals';
import { Annotations, type ExporterSet } from 'virtual-exporters/internal';
import { desiredExporter } from '../../src/planner';
import {
  CONTROLLER,
  NS,
  createClass,
  createSet,
  getSet,
  instancesOf,
  patchSetSpec,
  scenarioPerTest,
  until,
} from '../scenarios/support';

const startScenario = scenarioPerTest();

describe('§3.10 names when the status writes are lost', () => {
  it('never issues the name of a deleted instance again', async () => {
    const { cluster } = await startScenario({ speedUp: 50 });
    const names = () => instancesOf(cluster, 'pool').map((e) => e.metadata?.name);
    createClass(cluster);
    createSet(cluster, 'pool', { minAvailableReplicas: 0 });
    await until('the standby pool-0 on record', () => getSet(cluster, 'pool')?.status?.nextOrdinal === 1);
    expect(names()).toEqual(['pool-0']);

    const statusWrites = cluster.faults.add({
      kind: 'error',
      code: 500,
      verb: 'patch',
      resource: 'exportersets',
      subresource: 'status',
      identity: CONTROLLER,
    });
    // What the lost pass left: pool-1, disabled on its way out, its ordinal on record nowhere.
    const set = getSet(cluster, 'pool') as ExporterSet;
    const leaving = desiredExporter(set, 'pool-1', 1, set.status?.templateRevision ?? '', false);
    const exportersRt = cluster.registry.get('jumpstarter.dev', 'v1alpha1', 'exporters')!;
    cluster.store.create(exportersRt, NS, {
      ...leaving,
      metadata: {
        ...leaving.metadata,
        annotations: { ...leaving.metadata?.annotations, [Annotations.retiring]: 'scale-down' },
      },
      spec: { ...leaving.spec, enabled: false },
    } as never);

    // Unfixed, pool-1 is deleted and the status write after it fails; fixed, the delete waits.
    await until(
      'pool-1 deleted or held',
      () =>
        (!names().includes('pool-1') && cluster.faults.hits(statusWrites) > 0) ||
        cluster.faults.hits(statusWrites) >= 3,
    );
    cluster.faults.clear();
    await until('pool-1 gone', () => !names().includes('pool-1'));

    patchSetSpec(cluster, 'pool', { minAvailableReplicas: 2 });
    await until('a new instance', () => names().some((n) => n !== 'pool-0'));
    const made = names().filter((n) => n !== 'pool-0');
    expect(made).not.toContain('pool-1');
    expect(made[0]).toBe('pool-2');
  });
});
