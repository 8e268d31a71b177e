/**
 * Builders for the ExporterOperation planner's tests: an instance of the set, an operation, the world
 * a pass sees, and a plan in one short line per action.
 */
import {
  API_VERSION,
  Annotations,
  type Exporter,
  type ExporterOperation,
  type ExporterOperationSpec,
  type ExporterOperationStatus,
  type ExporterSet,
  type OperationState,
} from 'virtual-exporters/internal';
import type { OperationAction, OperationPlan, OperationSnapshot } from '../../src/exporter-operation/planner';
import { at, makeSet, T0 } from '../planner/builders';

export const NS = 'lab';
export const QEMU = 'qemu.jumpstarter.dev';
export const SET = makeSet();

export function exporter(
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

export function operation(
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

export function world(
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
export function describeAction(a: OperationAction): string {
  switch (a.type) {
    case 'PatchExporter':
      return `patch ${a.name} ${JSON.stringify(a.patch)}`;
    case 'CreateOperation':
      return `create ${a.operation.metadata.name} -> ${a.operation.spec.exporterName}`;
    case 'DeleteOperation':
      return 'delete';
  }
}

export const summary = (p: OperationPlan) => ({
  state: p.status?.state,
  reason: p.status?.reason,
  actions: p.actions.map(describeAction),
});

export const idle = exporter('pool-0');
export const started = {
  state: 'InProgress' as OperationState,
  startTime: at(-5000),
  instances: [{ exporterName: 'pool-0', uid: 'uid-pool-0', state: 'InProgress' as OperationState }],
};
export const disabledByHand = exporter('pool-0', {
  enabled: false,
  annotations: { [Annotations.manuallyDisabled]: 'true' },
});
export const retiring = exporter('pool-0', {
  enabled: false,
  annotations: { [Annotations.retiring]: 'scale-down' },
});
export const marked = exporter('pool-0', { annotations: { [Annotations.recycleRequested]: 'op' } });
