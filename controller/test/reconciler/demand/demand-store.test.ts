/**
 * The demand recorder against a fake ConfigMap API: one GET per set, writes only for lease facts (at
 * the first pass of a new hour, or after 25 facts; never for an idle pool), the history continued by a
 * restarted controller, an object the set does not control left alone, a malformed one replaced, and
 * the served leases counted warm or cold in the metrics, with the lease name as the wait's exemplar.
 */
import { describe, expect, it } from '@jest/globals';
import type { Lease } from 'virtual-exporters/internal';
import { createLogger } from '../../../src/process/logger';
import { ControllerMetrics } from '../../../src/process/metrics';
import type { PlannerSnapshot } from '../../../src/planner';
import { DEMAND_DATA_KEY, parseDemand } from '../../../src/reconciler/demand/demand-config-map';
import {
  DemandRecorder,
  WRITE_AFTER_CHANGES,
  type DemandRecorderDeps,
} from '../../../src/reconciler/demand/demand-store';
import { T0, at, instance, lease, makeSet, snapshot } from '../../planner/builders';

const H = 3_600_000;
const KEY = 'lab/pool';
const REF = { namespace: 'lab', name: 'pool' };

interface Stored {
  metadata: { name: string; namespace: string; ownerReferences?: unknown[]; labels?: Record<string, string> };
  data?: Record<string, string>;
}

/** A ConfigMap API over a map, counting requests by verb. */
function fakeCore(initial: Stored[] = [], failReads = 0) {
  const store = new Map(
    initial.map((o) => [`${o.metadata.namespace}/${o.metadata.name}`, structuredClone(o)]),
  );
  const calls = { get: 0, create: 0, patch: 0 };
  let readFailures = failReads;
  const notFound = () => Object.assign(new Error('not found'), { code: 404 });
  const core = {
    readNamespacedConfigMap: async ({ namespace, name }: { namespace: string; name: string }) => {
      calls.get++;
      if (readFailures-- > 0) throw Object.assign(new Error('unavailable'), { code: 503 });
      const found = store.get(`${namespace}/${name}`);
      if (!found) throw notFound();
      return structuredClone(found);
    },
    createNamespacedConfigMap: async ({ namespace, body }: { namespace: string; body: Stored }) => {
      calls.create++;
      const key = `${namespace}/${body.metadata.name}`;
      if (store.has(key))
        throw Object.assign(new Error('exists'), { code: 409, body: { reason: 'AlreadyExists' } });
      store.set(key, structuredClone(body));
      return body;
    },
    patchNamespacedConfigMap: async ({
      namespace,
      name,
      body,
    }: {
      namespace: string;
      name: string;
      body: Stored;
    }) => {
      calls.patch++;
      const found = store.get(`${namespace}/${name}`);
      if (!found) throw notFound();
      const merged = {
        metadata: { ...found.metadata, ...body.metadata },
        data: { ...found.data, ...body.data },
      };
      store.set(`${namespace}/${name}`, merged);
      return merged;
    },
  };
  return { core: core as unknown as DemandRecorderDeps['core'], store, calls };
}

function recorder(core: DemandRecorderDeps['core'], clock: { now: number }, lines: string[] = []) {
  const metrics = new ControllerMetrics();
  const logger = createLogger({
    level: 'warn',
    destination: { write: (line: string) => void lines.push(line) },
  });
  const r = new DemandRecorder({
    core,
    clock: { now: () => clock.now, setTimeout: () => () => undefined },
    logger,
    metrics,
  });
  return { r, metrics };
}

/** A pass: observe, then flush, as the reconciler does. */
async function pass(r: DemandRecorder, s: PlannerSnapshot) {
  const recorded = await r.observe(KEY, REF, s);
  await r.flush(KEY, s.set);
  return recorded;
}

const arriving = (name: string, createdMs: number, options: Parameters<typeof lease>[1] = {}): Lease => {
  const l = lease(name, options);
  return { ...l, metadata: { ...l.metadata, uid: `uid-${name}`, creationTimestamp: at(createdMs) } };
};
const assigned = (
  name: string,
  exporter: string,
  createdMs: number,
  beginMs: number,
  waited: boolean,
): Lease => {
  const l = arriving(name, createdMs, { exporter, pending: waited });
  return {
    ...l,
    status: { ...l.status!, beginTime: at(beginMs), conditions: waited ? l.status!.conditions : [] },
  };
};
const stored = (store: Map<string, Stored>) => store.get('lab/pool-demand');

describe('the demand recorder', () => {
  it('never writes for an idle pool, however long it runs', async () => {
    const { core, calls } = fakeCore();
    const clock = { now: T0 };
    const { r } = recorder(core, clock);
    const instances = [instance(0, 'available'), instance(1, 'available')];
    for (let hour = 0; hour < 30; hour++) {
      clock.now = T0 + hour * H;
      const recorded = await pass(r, snapshot({ instances, now: hour * H }));
      expect(recorded.startupP95Ms).toBeDefined();
    }
    expect(calls).toEqual({ get: 1, create: 0, patch: 0 });
    expect(r.dueIn(KEY, clock.now)).toBeUndefined();
  });

  it('asks for a pass at the next hour while facts await their write or leases are in the window', async () => {
    const { core } = fakeCore();
    const clock = { now: T0 + 20 * 60_000 };
    const { r } = recorder(core, clock);
    const instances = [instance(0, 'available')];
    const leases = [assigned('a', 'pool-0', 10 * 60_000, 10 * 60_000, false)];
    await pass(r, snapshot({ instances, leases, now: 20 * 60_000 }));
    expect(r.dueIn(KEY, clock.now)).toBe(40 * 60_000 + 1_000);
    // Written at the next hour; the lease still in the window keeps the hourly wake-up, a day later none.
    clock.now = T0 + H + 1_000;
    await pass(r, snapshot({ instances, leases, now: H + 1_000 }));
    expect(r.dueIn(KEY, clock.now)).toBe(H);
    clock.now = T0 + 26 * H;
    await pass(r, snapshot({ instances, now: 26 * H }));
    clock.now = T0 + 27 * H;
    await pass(r, snapshot({ instances, now: 27 * H }));
    expect(r.dueIn(KEY, clock.now)).toBeUndefined();
  });

  it('writes lease facts at the first pass of the next hour, or once 25 accumulated', async () => {
    const { core, store, calls } = fakeCore();
    const clock = { now: T0 + 2_000 };
    const { r } = recorder(core, clock);
    const leases = [arriving('a', 1_000)]; // in the running hour (one in an hour over is written at once)
    await pass(r, snapshot({ leases, now: 2_000 }));
    clock.now = T0 + 10 * 60_000;
    await pass(r, snapshot({ leases, now: 10 * 60_000 }));
    expect(calls.create + calls.patch).toBe(0);
    // The next hour: written once, then nothing new, nothing written.
    const next = H - (T0 % H) + 60_000;
    clock.now = T0 + next;
    await pass(r, snapshot({ leases, now: next }));
    expect(calls.create).toBe(1);
    const written = parseDemand(stored(store)?.data, clock.now).record;
    expect(written.history.buckets.reduce((n, b) => n + b.arrivals, 0)).toBe(1);
    await pass(r, snapshot({ leases, now: next + 1_000 }));
    // A burst within the hour: written when 25 facts accumulated, not per pass.
    const burst: Lease[] = [];
    for (let i = 0; i < WRITE_AFTER_CHANGES; i++) {
      burst.push(arriving(`b${i}`, next + 2_000 + i * 1_000));
      clock.now = T0 + next + 3_000 + i * 1_000;
      await pass(r, snapshot({ leases: [...leases, ...burst], now: next + 3_000 + i * 1_000 }));
    }
    expect(calls.patch).toBe(1);
    expect(stored(store)?.metadata.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'ExporterSet', name: 'pool', uid: 'uid-pool', controller: true }),
    ]);
  });

  it('writes at once an arrival counted into an hour already over, so the object holds what the forecast read', async () => {
    const { core, store, calls } = fakeCore();
    // Ten minutes into an hour; the lease was created (by a clock behind ours, or before a restart)
    // in the hour before, which the forecast reads as a complete hour.
    const into = 10 * 60_000 - (T0 % H);
    const clock = { now: T0 + into };
    const { r } = recorder(core, clock);
    const late = [arriving('late', into - 15 * 60_000)];
    await pass(r, snapshot({ leases: late, now: into }));
    expect(calls.create).toBe(1);
    const written = parseDemand(stored(store)?.data, clock.now).record;
    const buckets = written.history.buckets;
    expect(buckets[buckets.length - 2]?.arrivals).toBe(1);
    expect(buckets[buckets.length - 1]?.arrivals).toBe(0);
    // An arrival in the running hour waits for the hour's end as before.
    clock.now = T0 + into + 60_000;
    await pass(r, snapshot({ leases: [...late, arriving('now', into + 30_000)], now: into + 60_000 }));
    expect(calls.create + calls.patch).toBe(1);
  });

  it('retries a failed write of past-hour arrivals when allowed, not at the next hour', async () => {
    const { core, calls } = fakeCore();
    let failWrites = 1;
    const failing = {
      ...core,
      createNamespacedConfigMap: async (
        args: Parameters<DemandRecorderDeps['core']['createNamespacedConfigMap']>[0],
      ) => {
        if (failWrites-- > 0) throw Object.assign(new Error('unavailable'), { code: 503 });
        return core.createNamespacedConfigMap(args);
      },
    } as DemandRecorderDeps['core'];
    const into = 10 * 60_000 - (T0 % H);
    const clock = { now: T0 + into };
    const { r } = recorder(failing, clock);
    const late = [arriving('late', into - 15 * 60_000)];
    await pass(r, snapshot({ leases: late, now: into }));
    expect(calls.create).toBe(0);
    expect(r.dueIn(KEY, clock.now)).toBe(60_000);
    clock.now += 60_000;
    await pass(r, snapshot({ leases: late, now: into + 60_000 }));
    expect(calls.create).toBe(1);
  });

  it('is continued by a restarted controller, counting no lease twice', async () => {
    const { core, store } = fakeCore();
    const clock = { now: T0 };
    const leases = [arriving('a', -2_000), arriving('b', -1_000)];
    const first = recorder(core, clock);
    await pass(first.r, snapshot({ leases }));
    clock.now = T0 + H;
    await pass(first.r, snapshot({ leases, now: H }));
    const before = parseDemand(stored(store)?.data, clock.now).record;
    // A new process: reads the object, sees the same leases and one more.
    const second = recorder(core, clock);
    const more = [...leases, arriving('c', H - 500)];
    const recorded = await second.r.observe(KEY, REF, snapshot({ leases: more, now: H + 1_000 }));
    const arrivals = recorded.demandHistory!.buckets.reduce((n, b) => n + b.arrivals, 0);
    expect(before.history.buckets.reduce((n, b) => n + b.arrivals, 0)).toBe(2);
    expect(arrivals).toBe(3);
  });

  it('leaves alone an object of that name the set does not control, and says so', async () => {
    const squatted: Stored = {
      metadata: { name: 'pool-demand', namespace: 'lab', labels: { app: 'mine' } },
      data: { notes: 'do not touch' },
    };
    const { core, store, calls } = fakeCore([squatted]);
    const clock = { now: T0 };
    const lines: string[] = [];
    const { r } = recorder(core, clock, lines);
    const leases = [arriving('a', -1_000)];
    await pass(r, snapshot({ leases }));
    clock.now = T0 + 2 * H;
    const recorded = await pass(r, snapshot({ leases, now: 2 * H }));
    expect(recorded.demandHistory?.buckets.some((b) => b.arrivals === 1)).toBe(true);
    expect(stored(store)).toEqual(squatted);
    expect(calls.create + calls.patch).toBe(0);
    expect(lines.join('\n')).toContain('ConfigMap lab/pool-demand is not controlled by ExporterSet pool');
  });

  it('replaces a malformed object at its next write, naming the object and field', async () => {
    const owner = { apiVersion: 'x', kind: 'ExporterSet', name: 'pool', uid: 'uid-pool', controller: true };
    const { core, store } = fakeCore([
      {
        metadata: { name: 'pool-demand', namespace: 'lab', ownerReferences: [owner] },
        data: { [DEMAND_DATA_KEY]: '{"version":1,"intervalMs":3600000,"start":-5,"buckets":"x"}' },
      },
    ]);
    const clock = { now: T0 };
    const lines: string[] = [];
    const { r } = recorder(core, clock, lines);
    await pass(r, snapshot());
    expect(lines.join('\n')).toContain(`ConfigMap lab/pool-demand: data[\\"${DEMAND_DATA_KEY}\\"].start`);
    clock.now = T0 + H;
    await pass(r, snapshot({ now: H }));
    expect(parseDemand(stored(store)?.data, clock.now).findings).toEqual([]);
  });

  it('plans without history while the object cannot be read, and reads it again later', async () => {
    const { core, calls } = fakeCore([], 1);
    const clock = { now: T0 };
    const { r } = recorder(core, clock);
    expect(await pass(r, snapshot())).toEqual({});
    expect(await pass(r, snapshot({ now: 1_000 }))).toEqual({});
    expect(calls.get).toBe(1);
    clock.now = T0 + 31_000;
    expect((await pass(r, snapshot({ now: 31_000 }))).servedLeases).toEqual([]);
    expect(calls.get).toBe(2);
  });

  it('counts served leases warm or cold once, with the lease name as the exemplar of the wait', async () => {
    const { core } = fakeCore();
    const clock = { now: T0 };
    const { r, metrics } = recorder(core, clock);
    const instances = [instance(0, 'available'), instance(1, 'available')];
    // pool-0 was Online long before; pool-1 came Online (at its creation, -599 999) after 'cold' was created.
    const leases = [
      assigned('warm-one', 'pool-0', -300_000, -300_000, false),
      assigned('cold-one', 'pool-1', -650_000, -590_000, true),
    ];
    for (let i = 0; i < 3; i++) await pass(r, snapshot({ instances, leases, now: i * 1_000 }));
    const text = await metrics.render();
    const set = 'namespace="lab",exporterset="pool"';
    expect(text).toContain(`jumpstarter_exporterset_leases_served_total{${set},start="warm"} 1`);
    expect(text).toContain(`jumpstarter_exporterset_leases_served_total{${set},start="cold"} 1`);
    expect(text).toContain(`jumpstarter_exporterset_lease_wait_seconds_count{${set}} 1`);
    expect(text).not.toContain('# {lease=');
    const open = await metrics.render(true);
    expect(open).toMatch(
      /jumpstarter_exporterset_lease_wait_seconds_bucket\{le="60",.*\} 1 # \{lease="cold-one"\} 60 /,
    );
    const recorded = await r.observe(KEY, REF, snapshot({ instances, leases, now: 4_000 }));
    expect(recorded.servedLeases?.map((s) => [s.uid, s.warm])).toEqual([
      ['uid-cold-one', false],
      ['uid-warm-one', true],
    ]);
  });

  it('starts over for a set recreated under the same name', async () => {
    const { core, calls } = fakeCore();
    const clock = { now: T0 };
    const { r } = recorder(core, clock);
    await pass(r, snapshot({ leases: [arriving('a', -1_000)] }));
    const recreated = makeSet();
    const again = { ...recreated, metadata: { ...recreated.metadata, uid: 'uid-pool-2' } };
    const recorded = await r.observe(KEY, REF, snapshot({ set: again, now: 1_000 }));
    expect(recorded.demandHistory?.buckets.reduce((n, b) => n + b.arrivals, 0)).toBe(0);
    expect(calls.get).toBe(2);
  });
});
