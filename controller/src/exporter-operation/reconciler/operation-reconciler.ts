/**
 * One reconcile pass for one ExporterOperation key: read the operation's world from the caches
 * (operation-world.ts), plan (../planner), apply the writes in order, then write the status through
 * `/status` once — only when it changed — and record the events. A failed write is reported instead (the condition
 * WriteFailure=True with the API's message, on the status as it was, plus a Warning event) and the
 * pass throws, so the status never claims a step that did not happen and the key is retried with the
 * work queue's backoff.
 *
 * A pass never plans from a cached operation older than this controller's own last status write: the
 * cache lags the write, and a pass on the older copy would act again on an operation already finished
 * and overwrite its final state (found by the simulation under load: `operation-reopened`). Such a
 * pass waits for the cache, which the write's own watch event brings.
 */
import {
  ConditionReasons,
  OperationConditionTypes,
  type ExporterOperation,
} from 'virtual-exporters/internal';
import type { KubeClients } from '../../kube/clients';
import { apiErrorMessage, isAlreadyExists, isNotFound } from '../../kube/api-errors';
import type { Logger } from '../../process/logger';
import { setCondition } from '../../planner';
import type { Clock } from '../../queue/clock';
import { parseObjectKey } from '../../queue/object-key';
import type { ReconcileResult } from '../../queue/work-queue';
import type { EventRecorder } from '../../reconciler/event-recorder';
import { notOlder } from '../../reconciler/status-memo';
import { statusMergePatch } from '../../reconciler/status-patch';
import { planOperation, type OperationAction } from '../planner';
import { readOperationWorld, type OperationCaches } from './operation-world';

export interface OperationReconcilerDeps {
  readonly caches: OperationCaches;
  readonly clients: Pick<KubeClients, 'exporters' | 'exporterOperations'>;
  /** The provisioner this controller runs: operations on sets of another are left to theirs. */
  readonly provisioner: string;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly events: EventRecorder;
}

/** How soon a pass that found the cache behind its own write looks again, should no event come first. */
const STALE_CACHE_RETRY_MS = 1_000;

export class OperationReconciler {
  /** Per key: the resourceVersion this controller's last status write left, until the cache shows it. */
  private readonly written = new Map<string, string>();

  constructor(private readonly deps: OperationReconcilerDeps) {}

  /** The work queue's handler. */
  readonly reconcile = async (key: string): Promise<ReconcileResult> => {
    const { deps } = this;
    const { namespace, name } = parseObjectKey(key);
    const operation = deps.caches.exporterOperations.get(namespace, name);
    if (!operation) {
      this.written.delete(key);
      return {};
    }
    const mine = this.written.get(key);
    if (mine !== undefined) {
      if (!notOlder(operation.metadata?.resourceVersion, mine)) {
        deps.logger.debug({ namespace, exporteroperation: name }, 'cache behind our status write: waiting');
        return { requeueAfterMs: STALE_CACHE_RETRY_MS };
      }
      this.written.delete(key);
    }
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
        const written = await deps.clients.exporterOperations.patchStatus(namespace, name, {
          type: 'merge',
          body: { status: statusMergePatch(operation.status, result.status) as object },
        });
        this.remember(key, written);
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
      const written = await this.deps.clients.exporterOperations.patchStatus(namespace, name, {
        type: 'merge',
        body: { status: statusMergePatch(operation.status, status) as object },
      });
      this.remember(`${namespace}/${name}`, written);
    } catch (statusError) {
      this.deps.logger.warn(
        { namespace, exporteroperation: name, error: apiErrorMessage(statusError) },
        'could not report a failed write on the operation',
      );
    }
    await this.deps.events.record(operation, [{ type: 'Warning', reason, message }]);
  }

  private remember(key: string, written: ExporterOperation | undefined): void {
    const version = written?.metadata?.resourceVersion;
    if (version !== undefined) this.written.set(key, version);
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
