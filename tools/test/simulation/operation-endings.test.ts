/**
 * The operation-endings oracle: operations on a set being deleted (under way at the delete, or made
 * after it) must end with a terminal state and a reason of the API's, and no write failure; a
 * finished operation never changes its state again.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { API_VERSION } from 'virtual-exporters/internal';
import { startTestCluster, type TestCluster } from 'virtual-exporters-test-cluster';
import { startOperationEndings, type OperationEndings } from '../../src/simulation/operation-endings';

const NS = 'lab';
let cluster: TestCluster | undefined;
let endings: OperationEndings | undefined;
afterEach(async () => {
  endings?.stop();
  await cluster?.stop();
  cluster = undefined;
  endings = undefined;
});

async function setUp() {
  cluster = await startTestCluster({ namespaces: [NS] });
  const c = cluster;
  const rt = c.registry.get('virtualtarget.jumpstarter.dev', 'v1alpha1', 'exporteroperations')!;
  endings = startOperationEndings(c, NS);
  const e = endings;
  const create = (name: string) => {
    c.store.create(rt, NS, {
      apiVersion: API_VERSION,
      kind: 'ExporterOperation',
      metadata: { name },
      spec: { operation: 'Recycle', exporterSetName: 'pool' },
    });
    e.created(name, 'pool');
  };
  const report = (name: string, state: string, reason: string, writeFailure = false) =>
    c.store.patch(
      rt,
      NS,
      name,
      'merge',
      {
        status: {
          state,
          reason,
          message: `${state} for the test`,
          ...(writeFailure
            ? {
                conditions: [
                  {
                    type: 'WriteFailure',
                    status: 'True',
                    reason: 'FailedExporterPatch',
                    message: 'refused',
                    lastTransitionTime: '2026-01-01T00:00:00Z',
                  },
                ],
              }
            : {}),
        },
      },
      'status',
    );
  const remove = (name: string) => c.store.delete(rt, NS, name);
  return { create, report, remove, endings: e };
}

describe('simulation › operation endings', () => {
  it('waits for the operations under way at the delete and those made after it, until each ends with a named reason', async () => {
    const { create, report, endings } = await setUp();
    create('before-done');
    report('before-done', 'Complete', 'Succeeded');
    create('before-open');
    report('before-open', 'InProgress', 'InstancesInProgress');
    endings.setDeleted('pool');
    create('after');
    expect(endings.counts()).toEqual({ pendingAtDelete: 1, afterDelete: 1 });
    expect(endings.unended()).toEqual([
      'ExporterOperation before-open on deleting set pool is InProgress (InstancesInProgress: InProgress for the test)',
      'ExporterOperation after on deleting set pool is without a state (undefined: undefined)',
    ]);
    report('before-open', 'Failed', 'ExporterSetDeleting');
    report('after', 'Failed', 'ExporterSetNotFound');
    expect(endings.unended()).toEqual([]);
    expect(endings.violations).toEqual([]);
  });

  it('does not take a reason the API does not name, or a write failure still reported, as an end', async () => {
    const { create, report, endings } = await setUp();
    endings.setDeleted('pool');
    create('odd');
    report('odd', 'Failed', 'SomethingElse');
    create('failing');
    report('failing', 'Complete', 'Succeeded', true);
    expect(endings.unended()).toEqual([
      "ExporterOperation odd on deleting set pool finished Failed with reason SomethingElse, not one of the API's",
      'ExporterOperation failing on deleting set pool finished Complete reporting WriteFailure=True',
    ]);
  });

  it('takes an operation deleted after its TTL as ended, though its failed first delete was reported on it', async () => {
    const { create, report, remove, endings } = await setUp();
    endings.setDeleted('pool');
    create('ttl');
    report('ttl', 'Failed', 'ExporterSetNotFound', true);
    remove('ttl');
    expect(endings.unended()).toEqual([]);
  });

  it('flags a finished operation that changes its state afterwards', async () => {
    const { create, report, endings } = await setUp();
    create('flip');
    report('flip', 'Failed', 'DeadlineExceeded');
    report('flip', 'Failed', 'DeadlineExceeded');
    expect(endings.violations).toEqual([]);
    report('flip', 'InProgress', 'WaitingForSet');
    expect(endings.violations.map((v) => v.invariant)).toEqual(['operation-reopened']);
  });
});
