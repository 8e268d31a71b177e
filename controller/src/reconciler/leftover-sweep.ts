/**
 * The leftover sweep of a provisioner with a lifecycle: instances realised remotely that no Exporter of
 * the namespace records (a realise the controller never recorded on an Exporter, or whose Exporter went
 * before its teardown) are torn down, a few a pass (instance-lifecycle.ts). Each is an event; a failure
 * is the pass's ReplicaFailure (FailedTeardown) like any failed write.
 */
import {
  ConditionReasons as R,
  EventReasons,
  JUMPSTARTER_API_VERSION,
  type ExporterSet,
} from 'virtual-exporters/internal';
import { apiErrorMessage } from '../kube/api-errors';
import type { PlanEvent } from '../planner';
import type { Execution } from './execution';
import type { SetLifecycle } from './instance-lifecycle';
import type { SnapshotCaches } from './read-set-world';
import { boundedMessage } from './write-failure';

export interface SweptLeftovers {
  /** The pass's execution, with the sweep's failure when it failed. */
  readonly execution: Execution;
  readonly events: PlanEvent[];
}

/** Sweeps the leftovers of `set` after the pass's `execution`; `exporters` is the Exporters' cache. */
export async function sweepLeftovers(
  set: ExporterSet,
  lifecycle: SetLifecycle,
  execution: Execution,
  exporters: SnapshotCaches['exporters'],
): Promise<SweptLeftovers> {
  const namespace = set.metadata?.namespace ?? '';
  const existing = new Set(exporters.list(namespace).map((e) => e.metadata?.name ?? ''));
  const template = {
    apiVersion: JUMPSTARTER_API_VERSION,
    kind: 'Exporter' as const,
    metadata: { namespace, name: set.metadata?.name ?? '' },
  };
  try {
    const removed = await lifecycle.sweepLeftovers(template, existing);
    return {
      execution,
      events: removed.map((name) => ({
        type: 'Normal' as const,
        reason: EventReasons.LeftoverTornDown,
        message: `instance ${name} was realised but no Exporter records it; it was torn down`,
      })),
    };
  } catch (error) {
    const message = boundedMessage(
      `the leftover sweep of ${`${set.metadata?.namespace}/${set.metadata?.name}`} failed: ${apiErrorMessage(error)}`,
    );
    return {
      execution: {
        ...execution,
        replicaFailure: execution.replicaFailure ?? { reason: R.FailedTeardown, message },
        errors: [...execution.errors, message],
      },
      events: [{ type: 'Warning', reason: R.FailedTeardown, message }],
    };
  }
}
