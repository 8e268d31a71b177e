/**
 * Applying one action: AlreadyExists on a create and NotFound on a delete mean the write had already
 * happened (names are never reused); any other error is a failure carrying the API server's message.
 */
import { describe, expect, it } from '@jest/globals';
import { API_VERSION, type Exporter, type ExporterSet } from 'virtual-exporters/internal';
import type { KubeClients } from '../../src/kube/clients';
import type { Action } from '../../src/planner';
import { applyAction } from '../../src/reconciler/apply-action';
import type { SetWorld } from '../../src/reconciler/snapshot';

const set = {
  apiVersion: API_VERSION,
  kind: 'ExporterSet',
  metadata: { name: 'pool', namespace: 'lab' },
} as ExporterSet;

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

function clientsAnswering(answer: () => Promise<unknown>) {
  const calls: unknown[][] = [];
  const clients = {
    exporters: {
      create: (...args: unknown[]) => (calls.push(['create', ...args]), answer()),
      delete: (...args: unknown[]) => (calls.push(['delete', ...args]), answer()),
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

  it('takes AlreadyExists on a create and NotFound on a delete as done already', async () => {
    const exists = clientsAnswering(() => Promise.reject(apiError(409, 'AlreadyExists', 'exists')));
    expect(await applyAction(create, exists.clients, world)).toEqual({ kind: 'done-already' });
    const gone = clientsAnswering(() => Promise.reject(apiError(404, 'NotFound', 'not found')));
    expect(await applyAction(remove, gone.clients, world)).toEqual({ kind: 'done-already' });
  });

  it("fails with the API server's message otherwise, a 409 Conflict included", async () => {
    const quota = clientsAnswering(() => Promise.reject(apiError(403, 'Forbidden', 'exceeded quota')));
    expect(await applyAction(create, quota.clients, world)).toMatchObject({
      kind: 'failed',
      message: 'exceeded quota',
    });
    const moved = clientsAnswering(() =>
      Promise.reject(apiError(409, 'Conflict', 'the object has been modified')),
    );
    expect(await applyAction(remove, moved.clients, world)).toMatchObject({
      kind: 'failed',
      message: 'the object has been modified',
    });
  });
});
