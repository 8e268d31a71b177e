/**
 * What a pass reports of the requested recycle (spec/requested-recycle.ts): the instances it still has
 * to recycle, and once none is left, `status.lastCompletedRecycle` and a RecycleCompleted event.
 */
import { EventReasons, type ExporterSet } from 'virtual-exporters/internal';
import type { PlanEvent } from '../model/events';
import { toMillis, toTimestamp } from '../model/time';
import type { InstanceView } from '../observe/instance-view';
import type { RecycleRequest } from '../spec/requested-recycle';

/** Instances the active request still has to recycle (those disabled by hand are never replaced). */
export function recyclePending(owned: readonly InstanceView[]): InstanceView[] {
  return owned.filter((v) => v.recycleRequested && v.state !== 'disabledByHand');
}

/** What a pass reports of the request: the status field and the event. */
export interface RecycleReport {
  /** `status.lastCompletedRecycle` after this pass (epoch ms). */
  readonly lastCompleted?: number;
  readonly events: readonly PlanEvent[];
  /** Instances still to recycle, for the Scaling condition. */
  readonly pending: number;
}

export function recycleReport(
  set: ExporterSet,
  request: RecycleRequest | undefined,
  owned: readonly InstanceView[],
): RecycleReport {
  const previous = toMillis(set.status?.lastCompletedRecycle);
  const kept = previous !== undefined ? { lastCompleted: previous } : {};
  if (request === undefined || !request.active) return { ...kept, events: [], pending: 0 };
  const pending = recyclePending(owned).length;
  if (pending > 0) return { ...kept, events: [], pending };
  return {
    lastCompleted: request.at,
    pending: 0,
    events: [
      {
        type: 'Normal',
        reason: EventReasons.RecycleCompleted,
        message: `requested recycle complete: no instance created before recycleRequestedAt ${toTimestamp(request.at)} is left`,
      },
    ],
  };
}
