/**
 * The executor's pass shape (SPEC §3.5): slow-start batches of Exporter creates with the window kept
 * across passes (doubling after a clean batch, back to one after a failure), renders sent while the
 * batches are in flight, and creates plus renders never more than `maxBurst` writes at once. The fake
 * API holds every write until the test lets it go, so what is in flight is counted, not timed.
 */
import { describe, expect, it } from '@jest/globals';
import { API_VERSION, type Exporter, type ExporterSet } from 'virtual-exporters/internal';
import type { KubeClients } from '../../src/kube/clients';
import type { Action, Plan } from '../../src/planner';
import type { Execution } from '../../src/reconciler/execution';
import { execute } from '../../src/reconciler/executor';
import { Expectations } from '../../src/reconciler/expectations';
import { SlowStart } from '../../src/reconciler/slow-start';
import type { SetWorld } from '../../src/reconciler/read-set-world';
import { manualClock } from 'virtual-exporters-test-cluster';

const KEY = 'lab/pool';
const set = {
  apiVersion: API_VERSION,
  kind: 'ExporterSet',
  metadata: { name: 'pool', namespace: 'lab' },
} as ExporterSet;

interface Write {
  readonly what: string;
  release(error?: Error): void;
}

/** An API whose writes wait in `held` until released. */
function heldApi() {
  const held: Write[] = [];
  const sent: string[] = [];
  const hold = (what: string) =>
    new Promise<void>((resolve, reject) => {
      sent.push(what);
      held.push({ what, release: (error) => (error ? reject(error) : resolve()) });
    });
  const clients = {
    exporters: { create: (_ns: string, body: Exporter) => hold(`exporter ${body.metadata?.name}`) },
    core: {
      createNamespacedSecret: ({ body }: { body: { metadata: { name: string } } }) =>
        hold(`secret ${body.metadata.name}`),
      createNamespacedPod: ({ body }: { body: { metadata: { name: string } } }) =>
        hold(`pod ${body.metadata.name}`),
    },
  } as unknown as KubeClients;
  /** Lets every held write go (failing those `fail` picks) until the pass resolves. */
  const drain = async (pass: Promise<Execution>, fail: (what: string) => boolean = () => false) => {
    let done = false;
    void pass.finally(() => (done = true));
    while (!done) {
      await settle();
      for (const write of held.splice(0))
        write.release(fail(write.what) ? new Error('quota exceeded') : undefined);
    }
    return pass;
  };
  return { clients, held, sent, drain };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

const create = (n: number): Action => ({
  type: 'CreateExporter',
  name: `pool-${n}`,
  ordinal: n,
  standby: false,
  revision: 'r1',
  reason: 'warm-buffer',
  exporter: { metadata: { name: `pool-${n}` } } as Exporter,
});
const render = (n: number): Action => ({ type: 'RenderInstance', name: `pool-${n}` });

function world(maxBurst: number): SetWorld {
  return {
    key: KEY,
    snapshot: { set, options: { maxBurst } } as SetWorld['snapshot'],
    exporters: new Map(),
    render: (name) =>
      Promise.resolve({
        objects: [
          { kind: 'Secret', metadata: { name: `${name}-config` } },
          { kind: 'Pod', metadata: { name } },
        ],
      } as Awaited<ReturnType<SetWorld['render']>>),
  };
}

const planOf = (actions: Action[]): Plan => ({ actions, events: [] });
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

describe('the executor pass shape', () => {
  it('goes on at the batch size the last pass reached, up to maxBurst', async () => {
    const api = heldApi();
    const slowStart = new SlowStart();
    const deps = { clients: api.clients, expectations: new Expectations(manualClock()), slowStart };
    const batches: number[] = [];
    // Each batch is held until the test releases it: count what is sent between releases.
    const pass = (actions: Action[]) => {
      const running = execute(world(10), planOf(actions), deps);
      return (async () => {
        let done = false;
        void running.finally(() => (done = true));
        while (!done) {
          await settle();
          if (api.held.length > 0) batches.push(api.held.length);
          for (const write of api.held.splice(0)) write.release();
        }
        return running;
      })();
    };
    await pass(range(0, 7).map(create));
    expect(batches).toEqual([1, 2, 4]);
    batches.length = 0;
    await pass(range(7, 30).map(create));
    expect(batches).toEqual([8, 10, 10, 2]);
    expect(deps.expectations.inFlight(KEY).creating).toHaveLength(37);
    // The burst is over (nothing planned, nothing in flight): the next one starts at one again.
    await execute(
      { ...world(10), snapshot: { set, options: { maxBurst: 10 } } as SetWorld['snapshot'] },
      planOf([]),
      deps,
    );
    expect(slowStart.windowOf(KEY)).toBe(1);
  });

  it('starts over at one after a failed batch and leaves the rest to the backoff', async () => {
    const api = heldApi();
    const slowStart = new SlowStart();
    const deps = { clients: api.clients, expectations: new Expectations(manualClock()), slowStart };
    await api.drain(execute(world(50), planOf([create(0)]), deps));
    await api.drain(execute(world(50), planOf([create(1), create(2)]), deps));
    expect(slowStart.windowOf(KEY)).toBe(4);

    const failed = await api.drain(execute(world(50), planOf(range(3, 10).map(create)), deps), (what) =>
      what.endsWith('pool-4'),
    );
    expect(failed.replicaFailure).toEqual({ reason: 'FailedCreate', message: 'quota exceeded' });
    expect(failed.applied.map((a) => a.type === 'CreateExporter' && a.name)).toEqual(
      expect.arrayContaining(['pool-3', 'pool-5', 'pool-6']),
    );
    expect(failed.applied).toHaveLength(3);
    expect(slowStart.windowOf(KEY)).toBe(1);
  });

  it('renders while the create batch is in flight, within maxBurst writes at once', async () => {
    const api = heldApi();
    const slowStart = new SlowStart();
    slowStart.succeeded(KEY, 2, 5); // a window of 4 from earlier passes
    const deps = { clients: api.clients, expectations: new Expectations(manualClock()), slowStart };
    const pass = execute(world(5), planOf([...range(10, 6).map(create), ...range(0, 3).map(render)]), deps);
    await settle();
    // The batch of 4 creates and one render's Secret, before any create has answered.
    expect(api.held.map((w) => w.what)).toEqual([
      'exporter pool-10',
      'exporter pool-11',
      'exporter pool-12',
      'exporter pool-13',
      'secret pool-0-config',
    ]);
    api.held.shift()!.release(); // one create answers: its slot goes to the next render
    await settle();
    expect(api.held.map((w) => w.what)).toContain('secret pool-1-config');
    expect(api.held).toHaveLength(5);
    await api.drain(pass);
    expect(api.sent.filter((w) => w.startsWith('pod'))).toHaveLength(3);
    expect([...(deps.expectations.inFlight(KEY).rendering ?? [])].sort()).toEqual([
      'pool-0',
      'pool-1',
      'pool-2',
    ]);
  });
});
