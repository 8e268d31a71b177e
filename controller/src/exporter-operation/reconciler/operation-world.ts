/**
 * The world of one ExporterOperation, read from the informer caches for the planner: the target and
 * whether a Lease holds it, the set and its class's provisioner, the set's instances, the operation's
 * children, and the instances other unfinished operations are about to disable.
 */
import type {
  Exporter,
  ExporterOperation,
  ExporterSet,
  Lease,
  VirtualTargetClass,
} from 'virtual-exporters/internal';
import type { ResourceInformer } from '../../kube/informer';
import { controllingSetName, isLeaseEnded, isOwnedBy, nameOf } from '../../planner';
import { isFinished, type OperationSnapshot, type OperationTarget } from '../planner';

export interface OperationCaches {
  readonly exporterOperations: ResourceInformer<ExporterOperation>;
  readonly exporterSets: ResourceInformer<ExporterSet>;
  readonly virtualTargetClasses: ResourceInformer<VirtualTargetClass>;
  readonly exporters: ResourceInformer<Exporter>;
  readonly leases: ResourceInformer<Lease>;
}

/** The name of a non-ended Lease of `namespace` assigned to `exporter`, if any. */
export function leaseOf(leases: readonly Lease[], exporter: string): string | undefined {
  return leases.find((l) => !isLeaseEnded(l) && nameOf(l.status?.exporterRef) === exporter)?.metadata?.name;
}

/** The operation's world, from the caches. */
export function readOperationWorld(
  operation: ExporterOperation,
  caches: OperationCaches,
  provisioner: string,
  now: number,
): OperationSnapshot {
  const namespace = operation.metadata?.namespace ?? '';
  const leases = caches.leases.list(namespace);
  const targetOf = (exporter: Exporter): OperationTarget => {
    const leasedBy = leaseOf(leases, exporter.metadata?.name ?? '');
    return { exporter, ...(leasedBy !== undefined ? { leasedBy } : {}) };
  };
  const { exporterName, exporterSetName } = operation.spec ?? {};
  const exporter = exporterName !== undefined ? caches.exporters.get(namespace, exporterName) : undefined;
  const setName = exporterSetName ?? (exporter ? controllingSetName(exporter) : undefined);
  const set = setName !== undefined ? caches.exporterSets.get(namespace, setName) : undefined;
  const className = set?.spec?.virtualTargetClassName;
  const setProvisioner = className
    ? caches.virtualTargetClasses.get(namespace, className)?.spec?.provisioner
    : undefined;
  return {
    now,
    provisioner,
    operation,
    ...(exporter ? { target: targetOf(exporter) } : {}),
    ...(set ? { set } : {}),
    ...(setProvisioner !== undefined ? { setProvisioner } : {}),
    ...(exporter && set
      ? {
          siblings: caches.exporters
            .list(namespace)
            .filter((e) => isOwnedBy(e, set) && e.metadata?.name !== exporter.metadata?.name),
          disabling: disablingTargets(caches.exporterOperations.list(namespace), operation),
        }
      : {}),
    ...(exporterSetName !== undefined && set
      ? {
          instances: caches.exporters
            .list(namespace)
            .filter((e) => isOwnedBy(e, set))
            .map(targetOf),
        }
      : {}),
    // Children by their owner's uid (the parent label is left off names longer than a label value),
    // with the set or without: once it is gone they still report how each chosen instance ended.
    ...(exporterSetName !== undefined
      ? {
          children: caches.exporterOperations
            .list(namespace)
            .filter((c) =>
              (c.metadata?.ownerReferences ?? []).some((r) => r.uid === operation.metadata?.uid),
            ),
        }
      : {}),
  };
}

/** Instances named by another unfinished Drain or Disable operation. */
function disablingTargets(operations: readonly ExporterOperation[], self: ExporterOperation): Set<string> {
  const names = new Set<string>();
  for (const op of operations) {
    if (op.metadata?.uid === self.metadata?.uid || isFinished(op.status)) continue;
    const { operation, exporterName } = op.spec ?? {};
    if ((operation === 'Drain' || operation === 'Disable') && exporterName !== undefined)
      names.add(exporterName);
  }
  return names;
}
