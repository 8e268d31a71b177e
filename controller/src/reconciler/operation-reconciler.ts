/**
 * One reconcile pass for one ExporterOperation key: read the operation's world from the caches, plan
 * (planner/operation.ts), apply the writes in order, then write the status through `/status` once —
 * only when it changed — and record the events. A failed write is reported instead (the condition
 * WriteFailure=True with the API's message, on the status as it was, plus a Warning event) and the
 * pass throws, so the status never claims a step that did not happen and the key is retried with the
 * work queue's backoff.
 */
import {
  ConditionReasons,
  OperationConditionTypes,
  type Exporter,
  type ExporterOperation,
  type ExporterSet,
  type Lease,
  type VirtualTargetClass,
} from 'virtual-exporters/internal';
import type { ResourceInformer } from '../kube/informer';
import type { KubeClients } from '../kube/clients';
import { apiErrorMessage, isAlreadyExists, isNotFound } from '../kube/api-errors';
import type { Logger } from '../process/logger';
import {
  controllingSetName,
  isFinished,
  isLeaseEnded,
  isOwnedBy,
  nameOf,
  planOperation,
  setCondition,
  type OperationAction,
  type OperationSnapshot,
  type OperationTarget,
} from '../planner';
import type { Clock } from '../queue/clock';
import { parseObjectKey } from '../queue/object-key';
import type { ReconcileResult } from '../queue/work-queue';
import type { EventRecorder } from './event-recorder';
import { statusMergePatch } from './status-patch';

export interface OperationCaches {
  readonly exporterOperations: ResourceInformer<ExporterOperation>;
  readonly exporterSets: ResourceInformer<ExporterSet>;
  readonly virtualTargetClasses: ResourceInformer<VirtualTargetClass>;
  readonly exporters: ResourceInformer<Exporter>;
  readonly leases: ResourceInformer<Lease>;
}

export interface OperationReconcilerDeps {
  readonly caches: OperationCaches;
  readonly clients: Pick<KubeClients, 'exporters' | 'exporterOperations'>;
  /** The provisioner this controller runs: operations on sets of another are left to theirs. */
  readonly provisioner: string;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly events: EventRecorder;
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
          // Children by their owner's uid: the parent label is left off names longer than a label value.
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

export class OperationReconciler {
  constructor(private readonly deps: OperationReconcilerDeps) {}

  /** The work queue's handler. */
  readonly reconcile = async (key: string): Promise<ReconcileResult> => {
    const { deps } = this;
    const { namespace, name } = parseObjectKey(key);
    const operation = deps.caches.exporterOperations.get(namespace, name);
    if (!operation) return {};
    const result = planOperation(
      readOperationWorld(operation, deps.caches, deps.provisioner, deps.clock.now()),
    );
    if (result.ignored !== undefined) {
      deps.logger.debug({ namespace, exporteroperation: name, why: result.ignored }, 'operation ignored');
      return {};
    }
    for (const action of result.actions) {
      try {
        if (!(await this.apply(namespace, name, action))) return {};
      } catch (error) {
        await this.reportFailure(operation, action, error);
        throw error;
      }
    }
    if (result.status !== undefined) {
      try {
        await deps.clients.exporterOperations.patchStatus(namespace, name, {
          type: 'merge',
          body: { status: statusMergePatch(operation.status, result.status) as object },
        });
      } catch (error) {
        if (isNotFound(error)) return {};
        throw error;
      }
    }
    await deps.events.record(operation, result.events);
    return result.requeueAfterMs !== undefined ? { requeueAfterMs: result.requeueAfterMs } : {};
  };

  /** WriteFailure=True on the status as it was, and a Warning event: nothing fails silently. */
  private async reportFailure(
    operation: ExporterOperation,
    action: OperationAction,
    error: unknown,
  ): Promise<void> {
    const { namespace = '', name = '' } = operation.metadata ?? {};
    const reason =
      action.type === 'PatchExporter'
        ? ConditionReasons.FailedPatch
        : action.type === 'CreateOperation'
          ? ConditionReasons.FailedCreate
          : ConditionReasons.FailedDelete;
    const what =
      action.type === 'PatchExporter'
        ? `the patch of Exporter ${action.name}`
        : action.type === 'CreateOperation'
          ? `the create of child operation ${action.operation.metadata?.name}`
          : 'the delete after ttlSecondsAfterFinished';
    const message = `${what} failed: ${apiErrorMessage(error)}`;
    const old = operation.status ?? { state: 'Pending' as const };
    const status = {
      ...old,
      conditions: setCondition(
        old.conditions,
        { type: OperationConditionTypes.WriteFailure, status: 'True', reason, message },
        this.deps.clock.now(),
        operation.metadata?.generation,
      ),
    };
    try {
      await this.deps.clients.exporterOperations.patchStatus(namespace, name, {
        type: 'merge',
        body: { status: statusMergePatch(operation.status, status) as object },
      });
    } catch (statusError) {
      this.deps.logger.warn(
        { namespace, exporteroperation: name, error: apiErrorMessage(statusError) },
        'could not report a failed write on the operation',
      );
    }
    await this.deps.events.record(operation, [{ type: 'Warning', reason, message }]);
  }

  /** Applies one action; false when the operation itself is gone (nothing more to do). */
  private async apply(namespace: string, name: string, action: OperationAction): Promise<boolean> {
    const { clients, logger } = this.deps;
    const log = { namespace, exporteroperation: name };
    switch (action.type) {
      case 'PatchExporter':
        await clients.exporters.patch(namespace, action.name, { type: 'merge', body: action.patch });
        logger.info({ ...log, exporter: action.name }, 'operation patched its instance');
        return true;
      case 'CreateOperation':
        try {
          await clients.exporterOperations.create(namespace, action.operation);
          logger.info({ ...log, child: action.operation.metadata?.name }, 'child operation created');
        } catch (error) {
          if (!isAlreadyExists(error)) throw error;
        }
        return true;
      case 'DeleteOperation':
        try {
          await clients.exporterOperations.delete(namespace, name, {
            ...(action.uid !== undefined ? { uid: action.uid } : {}),
            propagationPolicy: 'Background',
          });
          logger.info(log, 'finished operation deleted after ttlSecondsAfterFinished');
        } catch (error) {
          if (!isNotFound(error)) throw error;
        }
        return false;
    }
  }
}
