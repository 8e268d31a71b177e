/**
 * The ExporterOperation planner (planner/operation.ts): the next step of an operation from its world,
 * in tables, plus the set planner's side of Recycle (a marked instance is replaced as in a rollout).
 */
import { describe, expect, it } from '@jest/globals';
import {
  API_VERSION,
  Annotations,
  ConditionTypes,
  OperationLabels,
  type Exporter,
  type ExporterOperation,
  type ExporterOperationSpec,
  type ExporterOperationStatus,
  type ExporterSet,
  type OperationState,
} from 'virtual-exporters/internal';
import {
  childOperationName,
  plan,
  planOperation,
  type OperationAction,
  type OperationPlan,
  type OperationSnapshot,
} from '../../src/planner';
import { at, conditionOf, instance, makeSet, ofType, revisionOf, snapshot, T0 } from './builders';

const NS = 'lab';
const QEMU = 'qemu.jumpstarter.dev';
const SET = makeSet();

function exporter(
  name: string,
  options: {
    enabled?: boolean;
    annotations?: Record<string, string>;
    uid?: string;
    owned?: boolean;
    labels?: Record<string, string>;
    deleting?: boolean;
  } = {},
): Exporter {
  return {
    apiVersion: 'jumpstarter.dev/v1alpha1',
    kind: 'Exporter',
    metadata: {
      name,
      namespace: NS,
      uid: options.uid ?? `uid-${name}`,
      labels: options.labels ?? { board: 'rpi4' },
      ...(options.annotations ? { annotations: options.annotations } : {}),
      ...(options.deleting ? { deletionTimestamp: at(-1000) } : {}),
      ...(options.owned === false
        ? {}
        : {
            ownerReferences: [
              {
                apiVersion: API_VERSION,
                kind: 'ExporterSet',
                name: SET.metadata.name!,
                uid: SET.metadata.uid!,
                controller: true,
              },
            ],
          }),
    },
    spec: { enabled: options.enabled ?? true },
  } as Exporter;
}

function operation(
  spec: ExporterOperationSpec,
  status?: Partial<ExporterOperationStatus>,
  name = 'op',
): ExporterOperation {
  return {
    apiVersion: API_VERSION,
    kind: 'ExporterOperation',
    metadata: { name, namespace: NS, uid: `uid-${name}`, generation: 1 },
    spec,
    ...(status ? { status: status as ExporterOperationStatus } : {}),
  };
}

function world(
  op: ExporterOperation,
  options: {
    exporter?: Exporter;
    leasedBy?: string;
    set?: ExporterSet | null;
    instances?: Exporter[];
    children?: ExporterOperation[];
    now?: number;
    setProvisioner?: string;
    siblings?: Exporter[];
    disabling?: string[];
  } = {},
): OperationSnapshot {
  const set = options.set === null ? undefined : (options.set ?? SET);
  return {
    now: T0 + (options.now ?? 0),
    provisioner: QEMU,
    operation: op,
    ...(options.exporter
      ? {
          target: { exporter: options.exporter, ...(options.leasedBy ? { leasedBy: options.leasedBy } : {}) },
        }
      : {}),
    ...(set ? { set, setProvisioner: options.setProvisioner ?? QEMU } : {}),
    ...(options.instances ? { instances: options.instances.map((exporter) => ({ exporter })) } : {}),
    ...(options.children ? { children: options.children } : {}),
    ...(options.siblings ? { siblings: options.siblings } : {}),
    ...(options.disabling ? { disabling: new Set(options.disabling) } : {}),
  };
}

/** An action in one short line: what a table row expects. */
function describeAction(a: OperationAction): string {
  switch (a.type) {
    case 'PatchExporter':
      return `patch ${a.name} ${JSON.stringify(a.patch)}`;
    case 'CreateOperation':
      return `create ${a.operation.metadata.name} -> ${a.operation.spec.exporterName}`;
    case 'DeleteOperation':
      return 'delete';
  }
}

const summary = (p: OperationPlan) => ({
  state: p.status?.state,
  reason: p.status?.reason,
  actions: p.actions.map(describeAction),
});

const idle = exporter('pool-0');
const started = {
  state: 'InProgress' as OperationState,
  startTime: at(-5000),
  instances: [{ exporterName: 'pool-0', uid: 'uid-pool-0', state: 'InProgress' as OperationState }],
};
const disabledByHand = exporter('pool-0', {
  enabled: false,
  annotations: { [Annotations.manuallyDisabled]: 'true' },
});
const retiring = exporter('pool-0', {
  enabled: false,
  annotations: { [Annotations.retiring]: 'scale-down' },
});
const marked = exporter('pool-0', { annotations: { [Annotations.recycleRequested]: 'op' } });

describe('ExporterOperation planner: one instance by name', () => {
  const recycleMark = `patch pool-0 {"metadata":{"annotations":{"${Annotations.recycleRequested}":"op"}}}`;
  const drainPatch = `patch pool-0 {"metadata":{"annotations":{"${Annotations.retiring}":"drain","${Annotations.manuallyDisabled}":null}},"spec":{"enabled":false}}`;
  const disablePatch = `patch pool-0 {"metadata":{"annotations":{"${Annotations.manuallyDisabled}":"true"}},"spec":{"enabled":false}}`;
  const enablePatch = `patch pool-0 {"metadata":{"annotations":{"${Annotations.manuallyDisabled}":null}},"spec":{"enabled":true}}`;
  const rows: [
    string,
    string,
    Partial<ExporterOperationStatus> | undefined,
    Partial<Parameters<typeof world>[1]>,
    ReturnType<typeof summary>,
  ][] = [
    [
      'Recycle marks an idle instance',
      'Recycle',
      undefined,
      { exporter: idle },
      { state: 'InProgress', reason: 'WaitingForSet', actions: [recycleMark] },
    ],
    [
      'Recycle waits while leased, touching nothing',
      'Recycle',
      undefined,
      { exporter: idle, leasedBy: 'l-1' },
      { state: 'InProgress', reason: 'WaitingForLease', actions: [] },
    ],
    [
      'Recycle does not mark twice',
      'Recycle',
      started,
      { exporter: marked },
      { state: 'InProgress', reason: 'WaitingForSet', actions: [] },
    ],
    [
      'Recycle is Complete once the instance is gone',
      'Recycle',
      started,
      {},
      { state: 'Complete', reason: 'Succeeded', actions: [] },
    ],
    [
      'Recycle is Complete once the instance is being deleted',
      'Recycle',
      started,
      { exporter: exporter('pool-0', { deleting: true }) },
      { state: 'Complete', reason: 'Succeeded', actions: [] },
    ],
    [
      'Recycle is Complete when the name now holds another Exporter',
      'Recycle',
      started,
      { exporter: exporter('pool-0', { uid: 'other' }) },
      { state: 'Complete', reason: 'Succeeded', actions: [] },
    ],
    [
      'Recycle of an instance disabled by hand fails',
      'Recycle',
      undefined,
      { exporter: disabledByHand },
      { state: 'Failed', reason: 'InstanceDisabled', actions: [] },
    ],
    [
      'Recycle of a retiring instance waits for it to go',
      'Recycle',
      undefined,
      { exporter: retiring },
      { state: 'InProgress', reason: 'WaitingForSet', actions: [] },
    ],
    [
      'Drain disables with the retiring marker',
      'Drain',
      undefined,
      { exporter: idle, siblings: [exporter('pool-1')] },
      { state: 'InProgress', reason: 'WaitingForSet', actions: [drainPatch] },
    ],
    [
      'Drain of the last enabled instance recycles it, a replacement first (leases keep an enabled Exporter)',
      'Drain',
      undefined,
      { exporter: idle, siblings: [] },
      { state: 'InProgress', reason: 'WaitingForSet', actions: [recycleMark] },
    ],
    [
      'Drain counts no sibling disabled by hand, marked, or named by another Drain or Disable',
      'Drain',
      undefined,
      {
        exporter: idle,
        siblings: [
          exporter('pool-1', { enabled: false, annotations: { [Annotations.manuallyDisabled]: 'true' } }),
          exporter('pool-2', { annotations: { [Annotations.recycleRequested]: 'op' } }),
          exporter('pool-3'),
        ],
        disabling: ['pool-3'],
      },
      { state: 'InProgress', reason: 'WaitingForSet', actions: [recycleMark] },
    ],
    [
      'Drain of the last enabled instance does not mark it twice',
      'Drain',
      started,
      { exporter: marked, siblings: [] },
      { state: 'InProgress', reason: 'WaitingForSet', actions: [] },
    ],
    [
      'Drain of an instance disabled by hand hands it to the set',
      'Drain',
      undefined,
      { exporter: disabledByHand },
      { state: 'InProgress', reason: 'WaitingForSet', actions: [drainPatch] },
    ],
    [
      'Drain waits while leased',
      'Drain',
      undefined,
      { exporter: idle, leasedBy: 'l-1' },
      { state: 'InProgress', reason: 'WaitingForLease', actions: [] },
    ],
    [
      'Disable disables by hand',
      'Disable',
      undefined,
      { exporter: idle },
      { state: 'Complete', reason: 'Succeeded', actions: [disablePatch] },
    ],
    [
      'Disable waits while leased',
      'Disable',
      undefined,
      { exporter: idle, leasedBy: 'l-1' },
      { state: 'InProgress', reason: 'WaitingForLease', actions: [] },
    ],
    [
      'Disable of a disabled instance writes nothing',
      'Disable',
      undefined,
      { exporter: disabledByHand },
      { state: 'Complete', reason: 'Succeeded', actions: [] },
    ],
    [
      'Disable of a retiring instance fails',
      'Disable',
      undefined,
      { exporter: retiring },
      { state: 'Failed', reason: 'InstanceRetiring', actions: [] },
    ],
    [
      'Enable undoes Disable',
      'Enable',
      undefined,
      { exporter: disabledByHand },
      { state: 'Complete', reason: 'Succeeded', actions: [enablePatch] },
    ],
    [
      'Enable of a leased instance does not wait (it takes nothing away)',
      'Enable',
      undefined,
      { exporter: disabledByHand, leasedBy: 'l-1' },
      { state: 'Complete', reason: 'Succeeded', actions: [enablePatch] },
    ],
    [
      'Enable of an enabled instance writes nothing',
      'Enable',
      undefined,
      { exporter: idle },
      { state: 'Complete', reason: 'Succeeded', actions: [] },
    ],
    [
      'Enable of a retiring instance fails',
      'Enable',
      undefined,
      { exporter: retiring },
      { state: 'Failed', reason: 'InstanceRetiring', actions: [] },
    ],
    [
      'a missing Exporter fails',
      'Disable',
      undefined,
      {},
      { state: 'Failed', reason: 'ExporterNotFound', actions: [] },
    ],
    [
      'a Disable whose Exporter went fails',
      'Disable',
      started,
      {},
      { state: 'Failed', reason: 'ExporterNotFound', actions: [] },
    ],
    [
      'an Exporter of no set fails',
      'Recycle',
      undefined,
      { exporter: exporter('pool-0', { owned: false }), set: null },
      { state: 'Failed', reason: 'NotAnInstance', actions: [] },
    ],
    [
      'a provisioner-specific operation fails as unsupported',
      'qemu.jumpstarter.dev/Reflash',
      undefined,
      { exporter: idle },
      { state: 'Failed', reason: 'UnsupportedOperation', actions: [] },
    ],
  ];
  it.each(rows)('%s', (_what, name, status, options, expected) => {
    const op = operation({ operation: name, exporterName: 'pool-0' }, status);
    expect(summary(planOperation(world(op, options)))).toEqual(expected);
  });

  it.each(['Recycle', 'Drain', 'Disable', 'Enable'] as const)(
    '%s fails on an instance of a set being deleted: the set drains it',
    (name) => {
      const deleting = { ...SET, metadata: { ...SET.metadata, deletionTimestamp: at(-1000) } };
      const op = operation({ operation: name, exporterName: 'pool-0' });
      const result = planOperation(world(op, { exporter: disabledByHand, set: deleting, siblings: [] }));
      expect(summary(result)).toEqual({ state: 'Failed', reason: 'ExporterSetDeleting', actions: [] });
      expect(result.status?.message).toBe(
        `ExporterSet pool is being deleted and drains instance pool-0 itself; ${name} does nothing`,
      );
    },
  );

  it('says which lease it waits for, in status, condition and one event', () => {
    const op = operation({ operation: 'Recycle', exporterName: 'pool-0' });
    const result = planOperation(world(op, { exporter: idle, leasedBy: 'l-1' }));
    const message = 'instance pool-0 is leased (Lease l-1); Recycle waits for the lease to end';
    expect(result.status?.message).toBe(message);
    expect(result.status?.conditions).toEqual([
      {
        type: 'WaitingForLease',
        status: 'True',
        reason: 'WaitingForLease',
        message,
        lastTransitionTime: at(0),
        observedGeneration: 1,
      },
    ]);
    expect(result.events).toEqual([{ type: 'Normal', reason: 'WaitingForLease', message }]);
    // The next pass, still waiting: no new event, no status write.
    const again = planOperation(
      world(operation(op.spec, result.status), { exporter: idle, leasedBy: 'l-1', now: 1000 }),
    );
    expect(again.events).toEqual([]);
    expect(again.status).toBeUndefined();
  });

  it('explains the failures with the fix', () => {
    const unsupported = planOperation(
      world(operation({ operation: 'qemu.jumpstarter.dev/Reflash', exporterName: 'pool-0' }), {
        exporter: idle,
      }),
    );
    expect(unsupported.status?.message).toBe(
      'operation "qemu.jumpstarter.dev/Reflash" is not supported by this controller (provisioner qemu.jumpstarter.dev); it carries out Recycle, Disable, Enable, Drain',
    );
    const missing = planOperation(world(operation({ operation: 'Disable', exporterName: 'pool-9' })));
    expect(missing.status?.message).toBe(
      'Exporter pool-9 not found in namespace lab; name an instance of an ExporterSet (kubectl get exporters -n lab)',
    );
    const disabled = planOperation(
      world(operation({ operation: 'Recycle', exporterName: 'pool-0' }), { exporter: disabledByHand }),
    );
    expect(disabled.status?.message).toBe(
      'instance pool-0 is disabled by hand, so ExporterSet pool never replaces it; enable it first (operation Enable), then recycle it',
    );
    expect(disabled.events).toEqual([
      {
        type: 'Warning',
        reason: 'OperationFailed',
        message: `InstanceDisabled: ${disabled.status?.message}`,
      },
    ]);
  });

  it('fails a spec that breaks the CRD rules admission did not enforce, naming the rule', () => {
    const result = planOperation(
      world(operation({ operation: 'Drain', exporterName: 'pool-0', exporterSetName: 'pool' }), {
        exporter: idle,
      }),
    );
    expect(summary(result)).toEqual({ state: 'Failed', reason: 'InvalidSpec', actions: [] });
    expect(result.status?.message).toBe(
      "the spec breaks the CRD's rules: spec: exactly one of exporterName or exporterSetName must be set",
    );
  });

  it('leaves an operation on a set of another provisioner to that controller', () => {
    const result = planOperation(
      world(operation({ operation: 'Recycle', exporterName: 'pool-0' }), {
        exporter: idle,
        setProvisioner: 'corellium.jumpstarter.dev',
      }),
    );
    expect(result).toEqual({
      ignored: "the set's class names provisioner corellium.jumpstarter.dev",
      actions: [],
      events: [],
    });
  });
});

describe('ExporterOperation planner: deadline and TTL', () => {
  const waitingOp = (now: number) =>
    planOperation(
      world(
        operation(
          { operation: 'Drain', exporterName: 'pool-0', activeDeadlineSeconds: 60 },
          { state: 'InProgress', startTime: at(0) },
        ),
        {
          exporter: idle,
          leasedBy: 'l-1',
          now,
        },
      ),
    );

  it('looks again when the deadline falls due', () => {
    expect(waitingOp(20_000).requeueAfterMs).toBe(40_000);
    expect(waitingOp(20_000).status?.state).toBe('InProgress');
  });

  it('fails at the deadline, saying what it waited for, and does nothing more', () => {
    const result = waitingOp(60_000);
    expect(summary(result)).toEqual({ state: 'Failed', reason: 'DeadlineExceeded', actions: [] });
    expect(result.status?.message).toBe(
      'activeDeadlineSeconds (60 s) passed before the operation finished: instance pool-0 is leased (Lease l-1); Drain waits for the lease to end; nothing more is done',
    );
    expect(result.status?.completionTime).toBe(at(60_000));
    expect(result.status?.conditions?.find((c) => c.type === 'Failed')).toMatchObject({
      status: 'True',
      reason: 'DeadlineExceeded',
    });
  });

  it('fails the instances not finished by the deadline with the operation', () => {
    expect(waitingOp(60_000).status?.instances).toEqual([
      {
        exporterName: 'pool-0',
        uid: 'uid-pool-0',
        state: 'Failed',
        reason: 'DeadlineExceeded',
        message: 'instance pool-0 is leased (Lease l-1); Drain waits for the lease to end',
      },
    ]);
  });

  it('counts the deadline from the first pass', () => {
    const result = planOperation(
      world(operation({ operation: 'Recycle', exporterName: 'pool-0', activeDeadlineSeconds: 5 }), {
        exporter: idle,
        leasedBy: 'l-1',
        now: 99_000,
      }),
    );
    expect(result.status).toMatchObject({ state: 'InProgress', startTime: at(99_000) });
  });

  const finished = (ttl: number | undefined, now: number) =>
    planOperation(
      world(
        operation(
          {
            operation: 'Disable',
            exporterName: 'pool-0',
            ...(ttl !== undefined ? { ttlSecondsAfterFinished: ttl } : {}),
          },
          { state: 'Complete', startTime: at(0), completionTime: at(10_000) },
        ),
        { exporter: idle, now },
      ),
    );

  it.each([
    ['waits for the TTL', 30, 20_000, { actions: [], events: [], requeueAfterMs: 20_000 }],
    [
      'deletes the operation when its TTL passed',
      30,
      40_000,
      { actions: [{ type: 'DeleteOperation', uid: 'uid-op' }], events: [] },
    ],
    [
      'deletes at once with a TTL of 0',
      0,
      10_000,
      { actions: [{ type: 'DeleteOperation', uid: 'uid-op' }], events: [] },
    ],
    ['keeps a finished operation without a TTL, untouched', undefined, 1e9, { actions: [], events: [] }],
  ])('a finished operation %s', (_what, ttl, now, expected) => {
    expect(finished(ttl, now)).toEqual(expected);
  });
});

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

describe('the set planner and a Recycle mark', () => {
  it('replaces a marked idle instance as in a rollout: a replacement first, nothing removed yet', () => {
    const pool = [instance(0, 'available'), instance(1, 'available')];
    const markedOne = {
      ...pool[0],
      exporter: {
        ...pool[0].exporter,
        metadata: {
          ...pool[0].exporter.metadata,
          annotations: { ...pool[0].exporter.metadata.annotations, [Annotations.recycleRequested]: 'op' },
        },
      },
    };
    const unmarked = plan(snapshot({ set: makeSet({ minAvailableReplicas: 2 }), instances: pool }));
    expect(ofType(unmarked, 'CreateExporter')).toEqual([]);
    const result = plan(
      snapshot({ set: makeSet({ minAvailableReplicas: 2 }), instances: [markedOne, pool[1]] }),
    );
    expect(ofType(result, 'CreateExporter').map((c) => c.reason)).toEqual(['rollout']);
    expect(ofType(result, 'DisableExporter')).toEqual([]);
    expect(result.status?.updatedReplicas).toBe(1);
    expect(conditionOf(result, ConditionTypes.Scaling)).toMatchObject({
      reason: 'RollingOut',
      message: `1 instance of 2 still to replace with revision ${revisionOf()} (built from another revision, or marked by a Recycle operation)`,
    });
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
