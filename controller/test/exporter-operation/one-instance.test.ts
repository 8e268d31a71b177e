/**
 * The ExporterOperation planner on one instance by name (exporter-operation/planner): the next step of
 * an operation from its world, in tables.
 */
import { describe, expect, it } from '@jest/globals';
import { Annotations, type ExporterOperationStatus } from 'virtual-exporters/internal';
import { planOperation } from '../../src/exporter-operation/planner';
import { at } from '../planner/builders';
import {
  SET,
  disabledByHand,
  exporter,
  idle,
  marked,
  operation,
  retiring,
  started,
  summary,
  world,
} from './builders';

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
