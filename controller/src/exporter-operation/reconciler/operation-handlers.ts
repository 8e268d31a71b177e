/**
 * Informer events → ExporterOperation keys. Like the set handlers they decide nothing; they say which
 * unfinished operations to look at again:
 * - an operation: itself, and the operation that owns it (a child's result changes its parent's);
 * - an Exporter: the operations naming it, and those naming its set (a selector operation);
 * - a Jumpstarter Lease: the operations naming the Exporter it is assigned to (a lease that ends
 *   releases an operation waiting for it);
 * - an ExporterSet or a VirtualTargetClass: the operations of its namespace naming a set.
 * A finished operation only waits for its TTL, a timer of its own pass.
 */
import {
  Kinds,
  type Exporter,
  type ExporterOperation,
  type ExporterSet,
  type Lease,
  type VirtualTargetClass,
} from 'virtual-exporters/internal';
import type { ResourceInformer } from '../../kube/informer';
import { controllingSetName, nameOf } from '../../planner';
import { objectKey } from '../../queue/object-key';
import { isFinished } from '../planner';

export interface OperationHandlerInformers {
  readonly exporterOperations: ResourceInformer<ExporterOperation>;
  readonly exporterSets: ResourceInformer<ExporterSet>;
  readonly virtualTargetClasses: ResourceInformer<VirtualTargetClass>;
  readonly exporters: ResourceInformer<Exporter>;
  readonly leases: ResourceInformer<Lease>;
}

const EVENTS = ['add', 'update', 'delete'] as const;

/** The keys of the unfinished operations of `namespace` that `concerns` picks. */
export function operationsWhere(
  operations: ResourceInformer<ExporterOperation>,
  namespace: string | undefined,
  concerns: (operation: ExporterOperation) => boolean,
): string[] {
  if (!namespace) return [];
  return operations
    .list(namespace)
    .filter((op) => !isFinished(op.status) && concerns(op))
    .map((op) => objectKey({ namespace, name: op.metadata?.name ?? '' }));
}

/** The operation itself and the operation that owns it. */
export function operationKeys(operation: ExporterOperation): string[] {
  const { namespace, name, ownerReferences } = operation.metadata ?? {};
  if (!namespace || !name) return [];
  const parent = (ownerReferences ?? []).find(
    (r) => r.controller === true && r.kind === Kinds.ExporterOperation,
  );
  return [objectKey({ namespace, name }), ...(parent ? [objectKey({ namespace, name: parent.name })] : [])];
}

/** Registers the handlers; `enqueue` receives operation keys. Call before the informers start. */
export function registerOperationHandlers(
  informers: OperationHandlerInformers,
  enqueue: (key: string) => void,
): void {
  const ops = informers.exporterOperations;
  const naming = (namespace: string | undefined, exporter: string | undefined, set: string | undefined) =>
    operationsWhere(
      ops,
      namespace,
      (op) =>
        (exporter !== undefined && op.spec?.exporterName === exporter) ||
        (set !== undefined && op.spec?.exporterSetName === set),
    );
  for (const event of EVENTS) {
    ops.on(event, (op) => operationKeys(op).forEach(enqueue));
    informers.exporters.on(event, (e) =>
      naming(e.metadata?.namespace, e.metadata?.name, controllingSetName(e)).forEach(enqueue),
    );
    informers.leases.on(event, (lease) =>
      naming(lease.metadata?.namespace, nameOf(lease.status?.exporterRef), undefined).forEach(enqueue),
    );
    informers.exporterSets.on(event, (set) =>
      naming(set.metadata?.namespace, undefined, set.metadata?.name).forEach(enqueue),
    );
    informers.virtualTargetClasses.on(event, (cls) =>
      operationsWhere(ops, cls.metadata?.namespace, () => true).forEach(enqueue),
    );
  }
}
