/**
 * Startup-failure backoff (SPEC §3.9): a Pod that ends before its exporter was ever ready counts as a
 * startup failure of the set; while failures are recent, no new Pod is started until an exponential
 * backoff (10 s doubling to 5 min by default) has passed since the last one. A ready instance whose
 * Pod was created after the last failure proves the template works again and resets the count.
 *
 * Counting survives restarts and repeated passes over the same failed Pod: the status keeps the count
 * and the time of the last counted failure, and only Pods that ended after that time are counted.
 * Every time here is on the controller's clock (§3.17, model/time.ts): when a Pod ended is when the
 * controller saw it end, so a kubelet clock behind or ahead neither ends nor stretches the backoff,
 * and the persisted time is never in the future (status-read.ts), so the backoff never outlasts
 * `startupBackoffMaxMs`.
 */
import { EventReasons } from 'virtual-exporters/internal';
import type { PlanEvent } from '../model/events';
import type { PlannerOptions } from '../model/snapshot';
import { toMillis, toTimestamp } from '../model/time';
import { count } from '../model/wire-guards';
import { credentialGraceMs } from '../observe/credential-wait';
import type { InstanceView } from '../observe/instance-view';
import { podWaitDeadline } from '../observe/pod-wait';
import { isLive } from '../observe/runtime';
import type { World } from '../observe/world';

export interface StartupFailureInput {
  /** `status.startupFailures`. */
  readonly failures: number;
  /** `status.lastStartupFailureTime`, epoch ms, not after `now` (status-read.ts). */
  readonly lastFailureTime?: number;
}

export interface StartupFailureState {
  readonly failures: number;
  readonly lastFailureTime?: number;
  /** Instances whose failure is counted in this pass. */
  readonly newlyFailed: readonly InstanceView[];
  /** While `now` is before this, no new Pod may start; undefined when no backoff applies. */
  readonly backoffUntil?: number;
}

/** A startup failure: the Pod ended (Failed, or Succeeded without serving) before the exporter was ready. */
export function isStartupFailure(view: InstanceView): boolean {
  return (view.state === 'failed' || view.state === 'exited') && !view.everReady;
}

/** The wait after the `failures`-th consecutive failure. */
export function backoffDelay(failures: number, options: PlannerOptions): number {
  if (failures <= 0) return 0;
  const exponent = Math.min(failures - 1, 30);
  return Math.min(options.startupBackoffBaseMs * 2 ** exponent, options.startupBackoffMaxMs);
}

export function startupFailureState(
  previous: StartupFailureInput,
  instances: readonly InstanceView[],
  options: PlannerOptions,
  now: number,
): StartupFailureState {
  const watermark = previous.lastFailureTime;
  // A Pod with no readable end time counts once: the watermark then moves to now and covers it.
  const newlyFailed = instances.filter(
    (v) => isStartupFailure(v) && (watermark === undefined || (v.endedAt ?? 0) > watermark),
  );
  let lastFailureTime = watermark;
  for (const v of newlyFailed) lastFailureTime = Math.max(lastFailureTime ?? 0, v.endedAt ?? now);

  // A count without a time (a status someone else wrote) is proven wrong by any ready instance.
  const recovered = instances.some((v) => {
    if (!v.ready || v.state === 'detached' || v.state === 'deleting') return false;
    return watermark === undefined || (v.podSince ?? v.since) > watermark;
  });
  const failures = recovered ? 0 : Math.max(0, previous.failures) + newlyFailed.length;
  const backoffUntil =
    failures > 0 && lastFailureTime !== undefined
      ? lastFailureTime + backoffDelay(failures, options)
      : undefined;
  return {
    failures,
    ...(lastFailureTime !== undefined ? { lastFailureTime } : {}),
    newlyFailed,
    ...(backoffUntil !== undefined && backoffUntil > now ? { backoffUntil } : {}),
  };
}

/** The startup-failure state of a pass: the persisted count and time, and the failures seen now. */
export function startupFailuresOf(world: World): StartupFailureState {
  const status = world.set.status;
  const lastFailureTime = toMillis(status?.lastStartupFailureTime);
  return startupFailureState(
    {
      failures: count(status?.startupFailures, 0),
      ...(lastFailureTime !== undefined ? { lastFailureTime } : {}),
    },
    world.owned,
    world.options,
    world.now,
  );
}

/** What the rest of a pass decided, for `settleStartupFailures`. */
export interface StartupOutlook {
  /** No backoff holds new Pods back any more. */
  readonly backoffOver: boolean;
  /** The pass starts (or wants to start) a Pod: creates, promotions, renders, or held-back creates. */
  readonly wantsPodStart: boolean;
  /** Some instance is still booting, or has failed and not left yet. */
  readonly anyStartingOrFailed: boolean;
}

/**
 * Forgets the failures once they no longer matter: the backoff is over, no Pod is waiting to start
 * and nothing is booting or failed — the pool is whole without a new Pod having had to prove the
 * template works (e.g. the failed instance was surplus, or its place went to a standby). Without this
 * `InstancesHealthy` would stay False for good. A pool that still wants Pods keeps its count, so a crash loop
 * keeps backing off exponentially. The watermark stays, so old failed Pods are never counted again.
 */
export function settleStartupFailures(
  state: StartupFailureState,
  outlook: StartupOutlook,
): StartupFailureState {
  if (state.failures === 0 || !outlook.backoffOver || outlook.wantsPodStart || outlook.anyStartingOrFailed) {
    return state;
  }
  return { ...state, failures: 0 };
}

/** One Warning per instance whose failure this pass counts, with the backoff it starts. */
export function startupFailureEvents(
  failed: readonly InstanceView[],
  backoffUntil: number | undefined,
): PlanEvent[] {
  const wait = backoffUntil !== undefined ? `; new instances wait until ${toTimestamp(backoffUntil)}` : '';
  return failed.map((v) => ({
    type: 'Warning',
    reason: EventReasons.StartupFailure,
    message: `instance ${v.name} failed before becoming ready${v.endMessage ? `: ${v.endMessage}` : ''}${wait}`,
  }));
}

/** Instances whose wait for their credential outlasted the grace, for `InstancesHealthy`. */
export function awaitingCredential(
  world: World,
): { readonly waits: readonly string[]; readonly timeoutMs: number } | undefined {
  const grace = credentialGraceMs(world.options.startupTimeoutMs);
  const waits = world.owned
    .filter((v) => v.awaiting !== undefined && world.now >= v.since + grace)
    .map((v) => `${v.name} waits for its ${v.awaiting}`)
    .sort();
  return waits.length > 0 ? { waits, timeoutMs: world.options.startupTimeoutMs } : undefined;
}

/**
 * The earliest moment a booting instance's startup times out, a credential wait is named or times
 * out, or a wait for a Pod the controller could not start times out (a timer, so idle stays quiet
 * otherwise).
 */
export function nextStartupDeadline(world: World): number | undefined {
  let next: number | undefined;
  const grace = credentialGraceMs(world.options.startupTimeoutMs);
  for (const v of world.owned) {
    if (v.awaiting === undefined) continue;
    for (const due of [v.since + grace, v.since + world.options.startupTimeoutMs]) {
      if (due > world.now && (next === undefined || due < next)) next = due;
    }
  }
  for (const v of world.owned) {
    const due =
      v.state === 'starting' ? podWaitDeadline(v.source, world.options.startupTimeoutMs) : undefined;
    if (due !== undefined && due > world.now && (next === undefined || due < next)) next = due;
  }
  for (const v of world.owned) {
    if (v.state !== 'starting' || !isLive(v.runtime) || v.podSince === undefined) continue;
    const deadline = v.podSince + world.options.startupTimeoutMs;
    if (next === undefined || deadline < next) next = deadline;
  }
  return next;
}
