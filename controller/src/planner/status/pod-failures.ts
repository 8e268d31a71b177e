/**
 * Pod failures in upstream's dialect (INTEROP §1.3, SPEC §3.9): upstream reports `Degraded=True`
 * with reason `PodsFailing` while an owned Pod is in phase Failed. This controller replaces a failed
 * instance at once, so its failed Pod is gone a pass later and upstream's rule alone would show the
 * failure for a moment at most. So the failures stay visible while they are recent:
 *
 * - while Pods are Failed, the message names each one and why it failed;
 * - after they are gone, Degraded keeps `PodsFailing` with the message it had when they were seen,
 *   while the startup backoff they started lasts (§3.9), and at least the backoff's first step after
 *   Degraded turned `PodsFailing` (a Pod that fails after its exporter was ready starts no backoff);
 * - then upstream's rules apply again.
 *
 * Every time read here is persisted (the backoff's, the condition's transition), so a restart keeps
 * the same answer, and the plan wakes up when the hold ends (plan-result.ts). A transition time in the
 * future holds nothing: a hold anchored on the pass's own clock would renew itself forever.
 */
import { ConditionReasons, ConditionTypes, type Condition } from 'virtual-exporters/internal';
import { findCondition } from '../model/conditions';
import { toMillis, toTimestamp } from '../model/time';
import { listOf } from '../model/wire-guards';
import type { InstanceView } from '../observe/instance-view';
import type { World } from '../observe/world';

/** Failed Pods named in the message, at most; the rest are counted. */
const MAX_SHOWN = 3;

/** The startup backoff as the status has it (condition-inputs.ts `HealthInput` carries these). */
export interface BackoffFacts {
  readonly startupFailures: number;
  readonly lastStartupFailureTime?: number;
  /** The backoff after the last counted failure. */
  readonly backoffMs: number;
}

/** What Degraded reports of Pod failures. */
export interface PodFailures {
  /** The Pods in phase Failed now, each as `<pod> (<why>)`, sorted. */
  readonly failing: readonly string[];
  /** The message that keeps Degraded at `PodsFailing` with no Pod Failed now; undefined when none is recent. */
  readonly recent?: string;
  /** When the recent failures stop counting (epoch ms, after now); undefined when none is recent. */
  readonly recentUntil?: number;
}

/** What a failed instance's Pod is called in the message, and why it failed. */
function describeFailure(v: InstanceView): string {
  const pod = v.source.pod?.metadata?.name;
  const what = pod !== undefined ? `Pod ${pod}` : `instance ${v.name}`;
  const { reason, message } = v.runtime;
  const why =
    message === undefined
      ? (reason ?? 'no reason given')
      : reason === undefined
        ? message
        : `${reason}: ${message}`;
  return `${what} (${why})`;
}

/** The failed Pods, as the message shows them: the first few, and how many more. */
export function failingText(failing: readonly string[]): string {
  if (failing.length === 0) return '';
  const more = failing.length > MAX_SHOWN ? `; and ${failing.length - MAX_SHOWN} more` : '';
  return `: ${failing.slice(0, MAX_SHOWN).join('; ')}${more}; failed instances are replaced at once, and Degraded stays True while their failures are recent`;
}

/** Until when failures are recent: the startup backoff's end, and the first step after `PodsFailing` began. */
function recentUntil(
  previous: Condition | undefined,
  health: BackoffFacts,
  baseMs: number,
  now: number,
): number | undefined {
  const ends: number[] = [];
  if (health.startupFailures > 0 && health.lastStartupFailureTime !== undefined) {
    ends.push(health.lastStartupFailureTime + health.backoffMs);
  }
  if (previous?.status === 'True' && previous.reason === ConditionReasons.PodsFailing) {
    const since = toMillis(previous.lastTransitionTime);
    // A transition written in the future (by a skewed clock or by hand) says nothing of when the
    // failure was seen, and anchoring on `now` instead would renew the hold on every pass: no hold.
    if (since !== undefined && since <= now) ends.push(since + baseMs);
  }
  const until = ends.length > 0 ? Math.max(...ends) : undefined;
  return until !== undefined && until > now ? until : undefined;
}

/** The Pod failures of a pass, from the instances, the persisted backoff and the set's Degraded. */
export function podFailures(world: World, health: BackoffFacts): PodFailures {
  const failing = world.owned
    .filter((v) => v.runtime.state === 'failed')
    .map(describeFailure)
    .sort();
  const conditions = listOf<Condition>(world.set.status?.conditions);
  const previous = findCondition(conditions, ConditionTypes.Degraded);
  const until = recentUntil(previous, health, world.options.startupBackoffBaseMs, world.now);
  if (until === undefined) return { failing };
  const kept =
    previous?.status === 'True' && previous.reason === ConditionReasons.PodsFailing
      ? previous.message
      : undefined;
  const recent =
    kept ??
    `${health.startupFailures} instance(s) failed before becoming ready${
      health.lastStartupFailureTime !== undefined
        ? `, the last at ${toTimestamp(health.lastStartupFailureTime)}`
        : ''
    }; the StartupFailure events name each Pod and why it failed`;
  return { failing, recent, recentUntil: until };
}
