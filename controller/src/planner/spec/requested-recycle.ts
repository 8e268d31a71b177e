/**
 * The requested recycle (`spec.recycleRequestedAt`, after OSAC's restart_requested_at): every instance
 * created before the time counts as outdated, as if the template had changed, and is replaced under the
 * update strategy (update-strategy.ts): the warm buffer kept, leased instances after their lease.
 *
 * The request acts as soon as the controller sees it, whatever its own clock says (the requester's
 * clock is not the controller's): the time only divides the instances. Instances the controller creates
 * while a request stands carry it in an annotation and are never recycled for it, whatever their
 * creationTimestamp says (an API server clock behind the requester's); an instance without the
 * annotation (made before, or by another controller) is judged by its creationTimestamp, the API
 * server's clock. Once no instance to recycle is left (instances disabled by hand excepted: they are
 * never replaced), the request is complete: `status.lastCompletedRecycle` records it and a
 * RecycleCompleted event says so (status/recycle-report.ts). A completed request marks nothing outdated
 * any more: it runs once.
 */
import type { ExporterSet } from 'virtual-exporters/internal';
import { toMillis, toTimestamp } from '../model/time';

/** The request as a pass sees it. */
export interface RecycleRequest {
  /** The requested time (epoch ms). */
  readonly at: number;
  /** Not completed yet. */
  readonly active: boolean;
}

/** The set's request, if it names a readable time. */
export function recycleRequestOf(set: ExporterSet): RecycleRequest | undefined {
  const at = toMillis(set.spec?.recycleRequestedAt);
  if (at === undefined) return undefined;
  return { at, active: toMillis(set.status?.lastCompletedRecycle) !== at };
}

/**
 * Whether an instance is to be recycled for `request`: by the request it was made under (its
 * annotation), else by its creation time (epoch ms, 0 when unknown: never).
 */
export function recycleRequested(
  request: RecycleRequest | undefined,
  createdAt: number,
  madeUnder: number | undefined,
): boolean {
  if (request === undefined || !request.active) return false;
  if (madeUnder !== undefined) return madeUnder < request.at;
  return createdAt > 0 && createdAt < request.at;
}

/** The annotation value for an instance created now: the standing request, if any. */
export function recycleStamp(request: RecycleRequest | undefined): string | undefined {
  return request !== undefined ? toTimestamp(request.at) : undefined;
}
