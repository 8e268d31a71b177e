/**
 * Time, in one place: Kubernetes timestamps read and written (`toMillis`, `toTimestamp`), and §3.17
 * clocks — the planner acts on durations measured on the controller's own clock. The reconciler
 * remembers when it first observed each fact (an Exporter, its Pod, the Pod's end) and hands those
 * times in (`InstanceSnapshot.observed`); a time from another clock (the API server's
 * `creationTimestamp`, the kubelet's `finishedAt`, a status someone else wrote) is only used for a fact
 * that was already there at the controller's first look at the set, and then clamped into
 * [first look − cap, first look]: a future value is never trusted, and one older than the cap can only
 * end the wait. So no timer outlasts its cap, however the clocks disagree.
 */

/** Kubernetes timestamps as they come: RFC 3339 text from JSON clients, Date from client-node's typed APIs. */
export type Timestamp = string | Date;

/** Epoch milliseconds of a Kubernetes timestamp; undefined when absent or unreadable. */
export function toMillis(value: Timestamp | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** RFC 3339 text for status fields and condition times. */
export function toTimestamp(ms: number): string {
  return new Date(ms).toISOString();
}

/** When this controller first observed an instance's facts, on its own clock (epoch ms). */
export interface ObservedTimes {
  /** The Exporter. */
  readonly exporter?: number;
  /** The Exporter's current Pod (by uid). */
  readonly pod?: number;
  /** That Pod in phase Failed or Succeeded. */
  readonly podEnded?: number;
  /** Its exporter ready (Online and Registered) while that Pod was its Pod. */
  readonly podReady?: number;
}

/** The pass's clock: now, and when this controller first looked at the set (facts seen then may be older). */
export interface PassClock {
  readonly now: number;
  /** Undefined when the caller tracks no observations (every fact counts as seen at a first look). */
  readonly observingSince?: number;
}

/** Whether the controller has watched a fact since it began (it was first observed after the first look). */
export function watchedSince(seen: number | undefined, clock: PassClock): boolean {
  return seen !== undefined && clock.observingSince !== undefined && seen > clock.observingSince;
}

/** `value` clamped into [now − cap, now]: never in the future, never more than `capMs` old. */
export function clampToPast(value: number, now: number, capMs: number): number {
  return Math.min(now, Math.max(now - capMs, value));
}

/**
 * When a fact began, on the controller's clock: when it was observed, if that was after the first
 * look at the set; else (it may predate the controller) the other clock's `claimed` time clamped
 * into [seen − cap, seen].
 */
export function factTime(
  seen: number | undefined,
  claimed: number | undefined,
  clock: PassClock,
  capMs: number,
): number {
  const at = Math.min(seen ?? clock.now, clock.now);
  if (watchedSince(seen, clock)) return at;
  return clampToPast(claimed ?? at, at, capMs);
}
