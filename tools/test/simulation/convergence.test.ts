/**
 * The convergence oracle's ceiling check: an end state above `maxReplicas` is reported, except the one
 * the controller keeps on purpose — a Pod-less standby beside instances that fill the ceiling and are
 * all disabled on their way out (held by leases until they end), which keeps new leases waiting
 * instead of ended by Jumpstarter (rule 6 before rule 4 for an object without a Pod).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { API_VERSION, JUMPSTARTER_API_VERSION, Labels } from 'virtual-exporters/internal';
import { unmet } from '../../src/simulation/convergence';
import { startTestCluster, type TestCluster } from 'virtual-exporters-test-cluster';

const NS = 'lab';
let cluster: TestCluster | undefined;
afterEach(async () => {
  await cluster?.stop();
  cluster = undefined;
});

async function lab(instances: readonly { readonly standby?: boolean; readonly enabled?: boolean }[]) {
  await cluster?.stop();
  cluster = await startTestCluster({ namespaces: [NS] });
  const c = cluster;
  const rt = (group: string, plural: string) => c.registry.get(group, group ? 'v1alpha1' : 'v1', plural)!;
  const set = c.store.create(rt('virtualtarget.jumpstarter.dev', 'exportersets'), NS, {
    apiVersion: API_VERSION,
    kind: 'ExporterSet',
    metadata: { name: 'pool' },
    spec: {
      virtualTargetClassName: 'qemu',
      maxReplicas: 1,
      selector: { matchLabels: { board: 'x' } },
      template: { metadata: { labels: { board: 'x' } } },
    },
  });
  instances.forEach(({ standby = false, enabled = true }, n) => {
    c.store.create(rt('jumpstarter.dev', 'exporters'), NS, {
      apiVersion: JUMPSTARTER_API_VERSION,
      kind: 'Exporter',
      metadata: {
        name: `pool-${n}`,
        labels: { [Labels.exporterSetName]: 'pool', ...(standby ? { [Labels.standby]: 'true' } : {}) },
        ownerReferences: [
          {
            apiVersion: API_VERSION,
            kind: 'ExporterSet',
            name: 'pool',
            uid: set.metadata.uid!,
            controller: true,
          },
        ],
      },
      spec: { enabled },
    });
  });
  return unmet(c, { namespace: NS, deletedSets: new Set(), probeLeases: [] }).filter((p) =>
    p.includes('above maxReplicas'),
  );
}

describe('the convergence ceiling check', () => {
  it('allows one standby beyond the ceiling while the instance filling it is disabled on its way out', async () => {
    expect(await lab([{ enabled: false }, { standby: true }])).toEqual([]);
  });

  it('reports a standby beyond the ceiling beside an enabled instance', async () => {
    expect(await lab([{}, { standby: true }])).toEqual([
      expect.stringContaining('2 instances above maxReplicas 1'),
    ]);
  });

  it('reports two standbys beyond the ceiling, and instances that are not standbys', async () => {
    expect(await lab([{ enabled: false }, { standby: true }, { standby: true }])).toHaveLength(1);
    expect(await lab([{ enabled: false }, {}])).toHaveLength(1);
  });
});
