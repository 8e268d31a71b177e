/**
 * The ExporterOperation planner over a set's instances: the selector chooses once, one child operation
 * per instance, the results reported; child names and labels within Kubernetes' limits.
 */
import { describe, expect, it } from '@jest/globals';
import {
  API_VERSION,
  OperationLabels,
  type ExporterOperation,
  type ExporterOperationSpec,
  type ExporterOperationStatus,
  type OperationState,
} from 'virtual-exporters/internal';
import {
  childOperationName,
  planOperation,
  type OperationAction,
} from '../../src/exporter-operation/planner';
import { at } from '../planner/builders';
import { NS, describeAction, exporter, operation, summary, world } from './builders';

describe('ExporterOperation planner: a selector over a set', () => {
  const setOp = (status?: Partial<ExporterOperationStatus>, spec: Partial<ExporterOperationSpec> = {}) =>
    operation(
      {
        operation: 'Recycle',
        exporterSetName: 'pool',
        selector: { matchLabels: { board: 'rpi4' } },
        ...spec,
      },
      status,
      'all',
    );
  const instances = [
    exporter('pool-1'),
    exporter('pool-0'),
    exporter('pool-2', { labels: { board: 'other' } }),
    exporter('pool-3', { deleting: true }),
  ];
  const child = (
    exporterName: string,
    state?: OperationState,
    reason?: string,
    message?: string,
  ): ExporterOperation => ({
    ...operation(
      { operation: 'Recycle', exporterName },
      state ? { state, ...(reason ? { reason } : {}), ...(message ? { message } : {}) } : undefined,
      `all-${exporterName}`,
    ),
    metadata: {
      name: `all-${exporterName}`,
      namespace: NS,
      labels: { [OperationLabels.parent]: 'all' },
      ownerReferences: [
        { apiVersion: API_VERSION, kind: 'ExporterOperation', name: 'all', uid: 'uid-all', controller: true },
      ],
    },
  });
  const chosen = {
    state: 'InProgress' as OperationState,
    startTime: at(0),
    instances: [
      {
        exporterName: 'pool-0',
        uid: 'uid-pool-0',
        operationName: 'all-pool-0',
        state: 'Pending' as OperationState,
      },
      {
        exporterName: 'pool-1',
        uid: 'uid-pool-1',
        operationName: 'all-pool-1',
        state: 'Pending' as OperationState,
      },
    ],
  };

  it('chooses the matching instances once, in name order, and creates one owned child each', () => {
    const result = planOperation(
      world(setOp(undefined, { activeDeadlineSeconds: 100, parameters: { reason: 'firmware' } }), {
        instances,
        now: 0,
      }),
    );
    expect(summary(result)).toEqual({
      state: 'InProgress',
      reason: 'InstancesInProgress',
      actions: ['create all-pool-0 -> pool-0', 'create all-pool-1 -> pool-1'],
    });
    const [first] = result.actions as Extract<OperationAction, { type: 'CreateOperation' }>[];
    expect(first.operation).toEqual({
      apiVersion: API_VERSION,
      kind: 'ExporterOperation',
      metadata: {
        name: 'all-pool-0',
        namespace: NS,
        labels: { [OperationLabels.parent]: 'all' },
        ownerReferences: [
          {
            apiVersion: API_VERSION,
            kind: 'ExporterOperation',
            name: 'all',
            uid: 'uid-all',
            controller: true,
          },
        ],
      },
      spec: {
        operation: 'Recycle',
        exporterName: 'pool-0',
        parameters: { reason: 'firmware' },
        activeDeadlineSeconds: 100,
      },
    });
    expect(result.status?.instances?.map((i) => i.exporterName)).toEqual(['pool-0', 'pool-1']);
  });

  it('gives a child created late only what is left of the deadline', () => {
    const result = planOperation(
      world(setOp({ ...chosen, instances: [chosen.instances[0]] }, { activeDeadlineSeconds: 100 }), {
        instances,
        now: 30_500,
      }),
    );
    const [create] = result.actions as Extract<OperationAction, { type: 'CreateOperation' }>[];
    expect(create.operation.spec.activeDeadlineSeconds).toBe(70);
  });

  it('keeps its chosen instances: a new instance is not added', () => {
    const result = planOperation(
      world(setOp(chosen), {
        instances: [...instances, exporter('pool-7')],
        children: [child('pool-0'), child('pool-1')],
      }),
    );
    expect(result.actions).toEqual([]);
    expect(result.status?.instances?.map((i) => i.exporterName)).toEqual(['pool-0', 'pool-1']);
  });

  it.each([
    ['all children complete', ['Complete', 'Complete'], 'Complete', 'Succeeded', 'all 2 instances done'],
    [
      'one still working',
      ['Complete', 'InProgress'],
      'InProgress',
      'InstancesInProgress',
      '1 of 2 instances finished',
    ],
    [
      'one failed, one working',
      ['Failed', 'InProgress'],
      'InProgress',
      'InstancesInProgress',
      '1 of 2 instances finished',
    ],
    [
      'all finished, one failed',
      ['Complete', 'Failed'],
      'Failed',
      'InstancesFailed',
      '1 of 2 instances failed: pool-1 (DeadlineExceeded: too late)',
    ],
  ] as [string, [OperationState, OperationState], OperationState, string, string][])(
    'aggregates its children: %s',
    (_what, states, state, reason, message) => {
      const children = [
        child('pool-0', states[0], states[0] === 'Failed' ? 'DeadlineExceeded' : undefined, 'too late'),
        child('pool-1', states[1], states[1] === 'Failed' ? 'DeadlineExceeded' : undefined, 'too late'),
      ];
      const result = planOperation(world(setOp(chosen), { instances, children }));
      expect(result.status).toMatchObject({ state, reason, message });
    },
  );

  it('reports the leased instances its children wait for', () => {
    const children = [
      child('pool-0', 'Complete'),
      child('pool-1', 'InProgress', 'WaitingForLease', 'leased'),
    ];
    const result = planOperation(world(setOp(chosen), { instances, children }));
    expect(result.status?.message).toBe(
      '1 of 2 instances finished; pool-1 is leased; the operation waits for that lease to end',
    );
    expect(result.status?.conditions?.find((c) => c.type === 'WaitingForLease')?.status).toBe('True');
  });

  it('ignores a child of another parent with the same name', () => {
    const stranger = {
      ...child('pool-0', 'Complete'),
      metadata: { ...child('pool-0').metadata, ownerReferences: [] },
    };
    const result = planOperation(world(setOp(chosen), { instances, children: [stranger, child('pool-1')] }));
    expect(result.actions.map(describeAction)).toEqual(['create all-pool-0 -> pool-0']);
  });

  it.each([
    [
      'a selector that picks nothing',
      setOp(undefined, { selector: { matchLabels: { board: 'none' } } }),
      {},
      'NoInstancesSelected',
      'the selector "board=none" picks no instance of ExporterSet pool (4 instances)',
    ],
    [
      'a missing set',
      setOp(),
      { set: null },
      'ExporterSetNotFound',
      'ExporterSet pool not found in namespace lab; name an existing set (kubectl get exportersets -n lab)',
    ],
  ] as [string, ExporterOperation, Parameters<typeof world>[1], string, string][])(
    'fails on %s',
    (_what, op, options, reason, message) => {
      const result = planOperation(world(op, { instances, ...options }));
      expect(result.status).toMatchObject({ state: 'Failed', reason, message });
    },
  );

  it('names children within 253 characters, stably', () => {
    const long = childOperationName('a'.repeat(200), 'b'.repeat(100));
    expect(long.length).toBeLessThanOrEqual(253);
    expect(long).toBe(childOperationName('a'.repeat(200), 'b'.repeat(100)));
    expect(long).not.toBe(childOperationName('a'.repeat(200), `${'b'.repeat(99)}c`));
    expect(childOperationName('all', 'pool-0')).toBe('all-pool-0');
  });
});

describe('ExporterOperation planner: long names', () => {
  it('labels a child with its parent only when the name fits in a label value', () => {
    const long = 'x'.repeat(64);
    const op: ExporterOperation = {
      ...operation({ operation: 'Recycle', exporterSetName: 'pool' }, undefined, long),
    };
    const result = planOperation(world(op, { instances: [exporter('pool-0')] }));
    const [create] = result.actions as Extract<OperationAction, { type: 'CreateOperation' }>[];
    expect(create.operation.metadata.labels).toBeUndefined();
    expect(create.operation.metadata.ownerReferences?.[0]).toMatchObject({ name: long, uid: `uid-${long}` });
  });
});
