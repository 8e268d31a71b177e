/**
 * The revision invariants of the simulation catch what they exist for — a recorded revision changed,
 * a revision deleted while an instance of its set runs it — and stay silent on a revision no instance
 * runs and on the revisions of a set being deleted.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { API_VERSION, JUMPSTARTER_API_VERSION, Labels } from 'virtual-exporters/internal';
import { manualClock, startTestCluster, type TestCluster } from 'virtual-exporters-test-cluster';
import { startRevisionMonitor, type RevisionMonitor } from '../../src/simulation/revision-invariants';

const NS = 'lab';
let cluster: TestCluster | undefined;
let monitor: RevisionMonitor | undefined;
afterEach(async () => {
  monitor?.stop();
  await cluster?.stop();
  cluster = undefined;
  monitor = undefined;
});

async function setUp() {
  cluster = await startTestCluster({ namespaces: [NS], clock: manualClock() });
  const c = cluster;
  const rt = {
    sets: c.registry.get('virtualtarget.jumpstarter.dev', 'v1alpha1', 'exportersets')!,
    exporters: c.registry.get('jumpstarter.dev', 'v1alpha1', 'exporters')!,
    revisions: c.registry.get('apps', 'v1', 'controllerrevisions')!,
  };
  c.store.create(rt.sets, NS, {
    apiVersion: API_VERSION,
    kind: 'ExporterSet',
    metadata: { name: 'pool', finalizers: ['example.com/hold'] },
    spec: {
      virtualTargetClassName: 'qemu',
      selector: { matchLabels: { board: 'x' } },
      template: { metadata: { labels: { board: 'x' } } },
    },
  });
  monitor = startRevisionMonitor(c, NS);
  const labels = (hash: string) => ({ [Labels.exporterSetName]: 'pool', [Labels.templateRevision]: hash });
  const revision = (hash: string, n: number) =>
    c.store.create(rt.revisions, NS, {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name: `pool-${hash}`, labels: labels(hash) },
      data: { template: {} },
      revision: n,
    });
  const instance = (name: string, hash: string) =>
    c.store.create(rt.exporters, NS, {
      apiVersion: JUMPSTARTER_API_VERSION,
      kind: 'Exporter',
      metadata: { name, labels: labels(hash) },
      spec: {},
    });
  return { c, rt, revision, instance, violations: () => monitor!.violations.map((v) => v.invariant) };
}

describe('simulation › revision invariants', () => {
  it('flags a recorded revision whose number changes', async () => {
    const { c, rt, revision, violations } = await setUp();
    revision('aaaaaaaaaa', 1);
    c.store.patch(rt.revisions, NS, 'pool-aaaaaaaaaa', 'merge', { metadata: { labels: { extra: 'x' } } });
    expect(violations()).toEqual([]);
    c.store.patch(rt.revisions, NS, 'pool-aaaaaaaaaa', 'merge', { revision: 5 });
    expect(violations()).toEqual(['revision-modified']);
  });

  it('flags a revision deleted while an instance runs it, not one no instance runs', async () => {
    const { c, rt, revision, instance, violations } = await setUp();
    revision('aaaaaaaaaa', 1);
    revision('bbbbbbbbbb', 2);
    instance('pool-0', 'aaaaaaaaaa');
    c.store.delete(rt.revisions, NS, 'pool-bbbbbbbbbb');
    expect(violations()).toEqual([]);
    c.store.delete(rt.revisions, NS, 'pool-aaaaaaaaaa');
    expect(monitor!.violations).toEqual([
      expect.objectContaining({
        invariant: 'revision-in-use-pruned',
        message: expect.stringContaining('pool-0') as unknown as string,
      }),
    ]);
  });

  it('stays silent on the revisions of a set being deleted', async () => {
    const { c, rt, revision, instance, violations } = await setUp();
    revision('aaaaaaaaaa', 1);
    instance('pool-0', 'aaaaaaaaaa');
    c.store.delete(rt.sets, NS, 'pool');
    c.store.delete(rt.revisions, NS, 'pool-aaaaaaaaaa');
    expect(violations()).toEqual([]);
  });
});
