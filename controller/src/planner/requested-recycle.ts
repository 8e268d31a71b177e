/**
 * The requested recycle (`spec.recycleRequestedAt`, after OSAC's restart_requested_at): every instance
 * created before the time — by the API server's clock, its creationTimestamp — counts as outdated, as
 * if the template had changed, and is replaced under the update strategy (update-strategy.ts): the warm
 * buffer kept, leased instances after their lease. A time still ahead takes effect then (the pass
 * wakes up for it).
 *
 * Once no such instance is left (instances disabled by hand excepted: they are never replaced), the
 * request is complete: `status.lastCompletedRecycle` records it and a RecycleCompleted event says so.
 * A completed request marks nothing outdated any more, so it runs once — even when a replacement's
 * creationTimestamp falls before it (an API server clock behind the requester's).
 */
import { EventReasons, type ExporterSet } from 'virtual-exporters/internal';
import type { PlanEvent } from './events';
import type { InstanceView } from './instances';
import { toMillis, toTimestamp } from './snapshot';

/** The request as a pass sees it. */
export interface RecycleRequest {
  /** The requested time (epoch ms). */
  readonly at: number;
  /** In effect: its time has come and it has not completed. */
  readonly active: boolean;
}

/** The set's request, if it names a readable time. */
export function recycleRequestOf(set: ExporterSet, now: number): RecycleRequest | undefined {
  const at = toMillis(set.spec?.recycleRequestedAt);
  if (at === undefined) return undefined;
  const done = toMillis(set.status?.lastCompletedRecycle) === at;
  return { at, active: !done && now >= at };
}

/** Whether an instance created at `createdAt` (0: unknown) is to be recycled for `request`. */
export function recycleRequested(request: RecycleRequest | undefined, createdAt: number): boolean {
  return request !== undefined && request.active && createdAt > 0 && createdAt < request.at;
}

/** Instances the active request still has to recycle (those disabled by hand are never replaced). */
export function recyclePending(owned: readonly InstanceView[]): InstanceView[] {
  return owned.filter((v) => v.recycleRequested && v.state !== 'disabledByHand');
}

/** What a pass reports of the request: the status field, the event, and the time to wake up. */
export interface RecycleReport {
  /** `status.lastCompletedRecycle` after this pass (epoch ms). */
  readonly lastCompleted?: number;
  readonly events: readonly PlanEvent[];
  /** When a request still ahead takes effect. */
  readonly wakeAt?: number;
  /** Instances still to recycle, for the Scaling condition. */
  readonly pending: number;
}

export function recycleReport(
  set: ExporterSet,
  request: RecycleRequest | undefined,
  owned: readonly InstanceView[],
  now: number,
): RecycleReport {
  const previous = toMillis(set.status?.lastCompletedRecycle);
  const kept = previous !== undefined ? { lastCompleted: previous } : {};
  if (request === undefined || !request.active) {
    return {
      ...kept,
      events: [],
      pending: 0,
      ...(request && request.at > now ? { wakeAt: request.at } : {}),
    };
  }
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
