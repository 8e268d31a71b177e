/**
 * Applying one action: AlreadyExists on a create of the set's own Exporter and NotFound on a delete
 * mean the write had already happened (names are never reused); AlreadyExists on an Exporter the set
 * does not own is a name taken (skipped); a delete is guarded by the Exporter the pass decided on, and
 * a 409 Conflict on it means the Exporter changed since (kept, looked at again); any other error is a
 * failure carrying the API server's message and the reason of the write that failed (§3.18).
 */
import { describe, expect, it } from '@jest/globals';
import { API_VERSION, type Exporter, type ExporterSet } from 'virtual-exporters/internal';
import type { KubeClients } from '../../src/kube/clients';
import type { Action } from '../../src/planner';
import { applyAction } from '../../src/reconciler/apply-action';
import type { SetLifecycle } from '../../src/reconciler/instance-lifecycle';
import type { SetWorld } from '../../src/reconciler/read-set-world';

const set = {
  apiVersion: API_VERSION,
  kind: 'ExporterSet',
  metadata: { name: 'pool', namespace: 'lab', uid: 'set-uid' },
} as ExporterSet;

/** An Exporter `pool-0` controlled by `owner`. */
const exporterOwnedBy = (owner: { name: string; uid: string }) =>
  ({
    apiVersion: 'jumpstarter.dev/v1alpha1',
    kind: 'Exporter',
    metadata: {
      name: 'pool-0',
      ownerReferences: [
        { apiVersion: API_VERSION, kind: 'ExporterSet', controller: true, name: owner.name, uid: owner.uid },
      ],
    },
  }) as Exporter;

const world: SetWorld = {
  key: 'lab/pool',
  snapshot: { set } as SetWorld['snapshot'],
  exporters: new Map([['pool-1', { metadata: { name: 'pool-1', uid: 'uid-1' } } as Exporter]]),
  render: () => Promise.reject(new Error('no renders in this test')),
};

/** An API error as client-node raises it. */
const apiError = (code: number, reason: string, message: string) =>
  Object.assign(new Error(`HTTP-Code: ${code} Message: Unknown API Status Code! Body: …`), {
    code,
    body: JSON.stringify({ kind: 'Status', reason, message }),
  });

const create: Action = {
  type: 'CreateExporter',
  name: 'pool-0',
  ordinal: 0,
  standby: false,
  revision: 'r1',
  reason: 'warm-buffer',
  exporter: { metadata: { name: 'pool-0' } } as Exporter,
};
const remove: Action = { type: 'DeleteExporter', name: 'pool-1', reason: 'scale-down' };

function clientsAnswering(answer: () => Promise<unknown>, existing?: Exporter) {
  const calls: unknown[][] = [];
  const clients = {
    exporters: {
      create: (...args: unknown[]) => (calls.push(['create', ...args]), answer()),
      delete: (...args: unknown[]) => (calls.push(['delete', ...args]), answer()),
      get: (...args: unknown[]) => (
        calls.push(['get', ...args]),
        existing ? Promise.resolve(existing) : Promise.reject(apiError(404, 'NotFound', 'not found'))
      ),
    },
  } as unknown as KubeClients;
  return { clients, calls };
}

describe('applying one action', () => {
  it('applies a create and a delete, the delete guarded by the cached uid', async () => {
    const { clients, calls } = clientsAnswering(() => Promise.resolve({}));
    expect(await applyAction(create, clients, world)).toEqual({ kind: 'applied' });
    expect(await applyAction(remove, clients, world)).toEqual({ kind: 'applied' });
    expect(calls).toEqual([
      ['create', 'lab', create.type === 'CreateExporter' && create.exporter],
      ['delete', 'lab', 'pool-1', { uid: 'uid-1' }],
    ]);
  });

  it("takes AlreadyExists on a create of the set's own Exporter and NotFound on a delete as done already", async () => {
    const exists = clientsAnswering(
      () => Promise.reject(apiError(409, 'AlreadyExists', 'exists')),
      exporterOwnedBy({ name: 'pool', uid: 'set-uid' }),
    );
    expect(await applyAction(create, exists.clients, world)).toEqual({ kind: 'done-already' });
    const gone = clientsAnswering(() => Promise.reject(apiError(404, 'NotFound', 'not found')));
    expect(await applyAction(remove, gone.clients, world)).toEqual({ kind: 'done-already' });
  });

  it("fails with the API server's message otherwise, a 409 Conflict on a create included", async () => {
    const quota = clientsAnswering(() => Promise.reject(apiError(403, 'Forbidden', 'exceeded quota')));
    expect(await applyAction(create, quota.clients, world)).toMatchObject({
      kind: 'failed',
      message: 'exceeded quota',
    });
    expect(await applyAction(remove, quota.clients, world)).toMatchObject({
      kind: 'failed',
      message: 'exceeded quota',
    });
    const moved = clientsAnswering(() =>
      Promise.reject(apiError(409, 'Conflict', 'the object has been modified')),
    );
    expect(await applyAction(create, moved.clients, world)).toMatchObject({
      kind: 'failed',
      message: 'the object has been modified',
    });
  });

  describe('a delete, guarded by the Exporter the pass decided on', () => {
    const seen = { metadata: { name: 'pool-1', uid: 'uid-1', resourceVersion: '7' } } as Exporter;
    const torn: string[] = [];
    const lifecycle = {
      teardown: (name: string) => (torn.push(name), Promise.resolve()),
    } as unknown as SetLifecycle;
    const guarded: SetWorld = { ...world, exporters: new Map([['pool-1', seen]]), lifecycle };

    it('sends its uid and resourceVersion as preconditions, then tears the instance down', async () => {
      torn.length = 0;
      const { clients, calls } = clientsAnswering(() => Promise.resolve({}));
      expect(await applyAction(remove, clients, guarded)).toEqual({ kind: 'applied' });
      expect(calls).toEqual([['delete', 'lab', 'pool-1', { uid: 'uid-1', resourceVersion: '7' }]]);
      expect(torn).toEqual(['pool-1']);
    });

    it('takes a 409 Conflict as the Exporter changed since: nothing deleted, nothing torn down', async () => {
      torn.length = 0;
      const moved = clientsAnswering(() =>
        Promise.reject(apiError(409, 'Conflict', 'the object might have been modified')),
      );
      expect(await applyAction(remove, moved.clients, guarded)).toEqual({
        kind: 'changed',
        message: 'the object might have been modified',
      });
      expect(torn).toEqual([]);
    });
  });

  it('takes AlreadyExists on an Exporter the set does not own as a name taken, at once', async () => {
    const alreadyExists = () => Promise.reject(apiError(409, 'AlreadyExists', 'exists'));
    const byHand = clientsAnswering(alreadyExists, { metadata: { name: 'pool-0' } } as Exporter);
    expect(await applyAction(create, byHand.clients, world)).toEqual({
      kind: 'taken',
      owner: 'controlled by nothing',
    });
    // Deleted between the create and the look-up: the name is not issued again either.
    const gone = clientsAnswering(alreadyExists);
    expect(await applyAction(create, gone.clients, world)).toEqual({ kind: 'taken', owner: 'deleted since' });
    // An earlier set of the same name (another uid) does not own it either.
    const earlier = clientsAnswering(alreadyExists, exporterOwnedBy({ name: 'pool', uid: 'old-uid' }));
    expect(await applyAction(create, earlier.clients, world)).toEqual({
      kind: 'taken',
      owner: 'controlled by ExporterSet pool',
    });
  });

  it('names the step of a render that failed: render, config Secret create or Pod create', async () => {
    const objects = [
      { kind: 'Secret', metadata: { name: 'exporter-config-pool-1' } },
      { kind: 'Pod', metadata: { name: 'pool-1' } },
    ];
    const render: Action = { type: 'RenderInstance', name: 'pool-1' };
    const rendering = (fails = false): SetWorld => ({
      ...world,
      render: () =>
        fails ? Promise.reject(new Error('parameters cannot be rendered')) : Promise.resolve({ objects }),
    });
    const clientsWith = (core: Record<string, () => Promise<unknown>>) =>
      ({ core }) as unknown as KubeClients;
    const forbidden = () => Promise.reject(apiError(403, 'Forbidden', 'secrets is forbidden'));
    const ok = () => Promise.resolve({});

    expect(await applyAction(render, clientsWith({}), rendering(true))).toMatchObject({
      kind: 'failed',
      reason: 'FailedRender',
      message: 'parameters cannot be rendered',
    });
    expect(
      await applyAction(render, clientsWith({ createNamespacedSecret: forbidden }), rendering()),
    ).toMatchObject({ kind: 'failed', reason: 'FailedCreateSecret', message: 'secrets is forbidden' });
    expect(
      await applyAction(
        render,
        clientsWith({
          createNamespacedSecret: ok,
          createNamespacedPod: () => Promise.reject(apiError(422, 'Invalid', 'Pod "pool-1" is invalid')),
        }),
        rendering(),
      ),
    ).toMatchObject({ kind: 'failed', reason: 'FailedCreatePod', message: 'Pod "pool-1" is invalid' });
  });
});
