/**
 * The revision writes (revision-history.ts): a record is a create, never an update — AlreadyExists
 * means it is recorded (its name is its hash) — and a prune a delete guarded by the uid, NotFound
 * meaning it is gone; either found done already is not applied again (no second event), and a failed
 * one is reported under its own ReplicaFailure reason.
 */
import { describe, expect, it } from '@jest/globals';
import { API_VERSION, type ControllerRevision, type ExporterSet } from 'virtual-exporters/internal';
import type { KubeClients } from '../../src/kube/clients';
import { manualClock } from 'virtual-exporters-test-cluster';
import { actionEvents, type Action } from '../../src/planner';
import { applyAction } from '../../src/reconciler/apply-action';
import { ExecutionRecord } from '../../src/reconciler/execution-record';
import { Expectations } from '../../src/reconciler/expectations';
import type { SetWorld } from '../../src/reconciler/read-set-world';

const set = {
  apiVersion: API_VERSION,
  kind: 'ExporterSet',
  metadata: { name: 'pool', namespace: 'lab', uid: 'set-uid' },
} as ExporterSet;
const world: SetWorld = {
  key: 'lab/pool',
  snapshot: { set } as SetWorld['snapshot'],
  exporters: new Map(),
  render: () => Promise.reject(new Error('no renders in this test')),
};
const revision = {
  apiVersion: 'apps/v1',
  kind: 'ControllerRevision',
  metadata: {
    name: 'pool-0123456789',
    labels: { 'exporterset.jumpstarter.dev/template-revision': '0123456789' },
  },
  data: { template: {} },
  revision: 1,
} as ControllerRevision;
const record: Action = { type: 'RecordRevision', revision };
const prune: Action = { type: 'DeleteRevision', revisionName: 'pool-aaaaaaaaaa', uid: 'rev-uid' };

const apiError = (code: number, reason: string, message: string) =>
  Object.assign(new Error(`HTTP-Code: ${code}`), {
    code,
    body: JSON.stringify({ kind: 'Status', reason, message }),
  });

function answering(answer: () => Promise<unknown>) {
  const calls: unknown[][] = [];
  const clients = {
    controllerRevisions: {
      create: (...args: unknown[]) => (calls.push(['create', ...args]), answer()),
      delete: (...args: unknown[]) => (calls.push(['delete', ...args]), answer()),
      patch: () => Promise.reject(new Error('a recorded revision is never patched')),
    },
  } as unknown as KubeClients;
  return { clients, calls };
}

describe('revision writes', () => {
  it('records by create and prunes by a delete guarded by the uid', async () => {
    const { clients, calls } = answering(() => Promise.resolve({}));
    expect(await applyAction(record, clients, world)).toEqual({ kind: 'applied' });
    expect(await applyAction(prune, clients, world)).toEqual({ kind: 'applied' });
    expect(calls).toEqual([
      ['create', 'lab', revision],
      ['delete', 'lab', 'pool-aaaaaaaaaa', { uid: 'rev-uid' }],
    ]);
  });

  it('takes AlreadyExists and NotFound as done already, and does not apply (nor announce) them again', async () => {
    const exists = answering(() => Promise.reject(apiError(409, 'AlreadyExists', 'exists')));
    const gone = answering(() => Promise.reject(apiError(404, 'NotFound', 'not found')));
    const outcomes = [
      await applyAction(record, exists.clients, world),
      await applyAction(prune, gone.clients, world),
    ];
    expect(outcomes).toEqual([{ kind: 'done-already' }, { kind: 'done-already' }]);
    const execution = new ExecutionRecord('lab/pool', new Expectations(manualClock()));
    execution.add(record, outcomes[0]);
    execution.add(prune, outcomes[1]);
    const result = execution.result();
    expect(result.applied).toEqual([]);
    expect(actionEvents(result.applied)).toEqual([]);
    expect([...result.succeeded].sort()).toEqual(['FailedPruneRevision', 'FailedRecordRevision']);
  });

  it('reports a failed record under FailedRecordRevision with the API message', async () => {
    const forbidden = answering(() =>
      Promise.reject(apiError(403, 'Forbidden', 'controllerrevisions is forbidden')),
    );
    const outcome = await applyAction(record, forbidden.clients, world);
    expect(outcome).toMatchObject({ kind: 'failed', reason: 'FailedRecordRevision' });
    const execution = new ExecutionRecord('lab/pool', new Expectations(manualClock()));
    execution.add(record, outcome);
    expect(execution.result().replicaFailure).toEqual({
      reason: 'FailedRecordRevision',
      message: 'controllerrevisions is forbidden',
    });
  });
});
