/**
 * The clock invariants of the simulation catch what they exist for — a set creating Exporters without
 * a bound, a status time after the controller's clock — and stay silent on tampered values the
 * simulation wrote itself and on a write planned just before the controller's clock was set back.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { API_VERSION, JUMPSTARTER_API_VERSION, Labels, ourCrds } from 'virtual-exporters/internal';
import { manualClock, startTestCluster, type TestCluster } from 'virtual-exporters-test-cluster';
import { startClockMonitor, type ClockMonitor } from '../../src/simulation/clock-invariants';

const NS = 'lab';
let cluster: TestCluster | undefined;
let monitor: ClockMonitor | undefined;
afterEach(async () => {
  monitor?.stop();
  await cluster?.stop();
  cluster = undefined;
  monitor = undefined;
});

async function setUp() {
  const clock = manualClock();
  cluster = await startTestCluster({ namespaces: [NS], clock });
  const c = cluster;
  const sets = c.registry.get('virtualtarget.jumpstarter.dev', 'v1alpha1', 'exportersets')!;
  const exporters = c.registry.get('jumpstarter.dev', 'v1alpha1', 'exporters')!;
  const set = c.store.create(sets, NS, {
    apiVersion: API_VERSION,
    kind: 'ExporterSet',
    metadata: { name: 'pool' },
    spec: {
      virtualTargetClassName: 'qemu',
      selector: { matchLabels: { board: 'x' } },
      template: { metadata: { labels: { board: 'x' } } },
    },
  });
  monitor = startClockMonitor(c, {
    namespace: NS,
    controllerClock: c.clocks.controller,
    createsPerMinute: 5,
  });
  const create = (n: number) =>
    c.store.create(exporters, NS, {
      apiVersion: JUMPSTARTER_API_VERSION,
      kind: 'Exporter',
      metadata: {
        name: `pool-${n}`,
        labels: { [Labels.exporterSetName]: 'pool' },
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
      spec: {},
    });
  const counters = Object.fromEntries(REQUIRED_COUNTERS.map((k) => [k, 0]));
  const writeStatus = (status: Record<string, unknown>) =>
    c.store.patch(sets, NS, 'pool', 'merge', { status: { ...counters, ...status } }, 'status');
  return { clock, create, writeStatus, c };
}

/** The status counters the ExporterSet CRD requires, so a status written here is admitted. */
const REQUIRED_COUNTERS: readonly string[] =
  ourCrds.find((c) => c.spec.names.kind === 'ExporterSet')?.spec.versions[0].schema?.openAPIV3Schema
    ?.properties?.status?.required ?? [];
const iso = (ms: number) => new Date(ms).toISOString();

describe('simulation clock invariants', () => {
  it('unbounded-creates: more creates within a minute than the bound', async () => {
    const { clock, create } = await setUp();
    for (let n = 0; n < 5; n++) {
      create(n);
      clock.advance(20_000); // five creates over more than a minute: within the bound
    }
    expect(monitor!.violations).toEqual([]);
    for (let n = 5; n < 11; n++) create(n);
    expect(monitor!.violations.map((v) => v.invariant)).toEqual(['unbounded-creates']);
    expect(monitor!.peakCreatesPerMinute()).toBe(8);
  });

  it('timer-cap: a status time after the controller clock, unless the simulation wrote it', async () => {
    const { c, writeStatus } = await setUp();
    const ahead = iso(c.clocks.controller.now() + 3_600_000);
    monitor!.tampered(ahead);
    writeStatus({ scaleDownWindowStart: ahead });
    expect(monitor!.violations).toEqual([]);
    writeStatus({ lastStartupFailureTime: iso(c.clocks.controller.now() + 60_000) });
    expect(monitor!.violations.map((v) => v.invariant)).toEqual(['timer-cap']);
  });

  it('timer-cap: a write planned before the controller clock was set back is not blamed', async () => {
    const { c, clock, writeStatus } = await setUp();
    c.clocks.controller.setOffsetMs(600_000);
    const planned = iso(c.clocks.controller.now());
    monitor!.skewing();
    c.clocks.controller.setOffsetMs(0);
    clock.advance(1_000);
    writeStatus({ scaleDownWindowStart: planned });
    expect(monitor!.violations).toEqual([]);
  });
});
