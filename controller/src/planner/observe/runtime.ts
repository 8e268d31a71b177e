/**
 * An instance's runtime: what its realisation is right now, whatever realises it — a Pod for the
 * in-cluster provisioners, an observation (`InstanceSnapshot.observation`) for a provisioner with a
 * lifecycle (units on a remote host, a cloud device). The rules (§3.8 recycle, §3.9 failures and the
 * startup timeout, §3.7/§3.12 leaving, the status counters) read this and never a Pod phase, so
 * every provisioner gets the same guarantees. The Pod phase → runtime mapping is here and only here.
 *
 * - `none`: nothing realised (no Pod; the provisioner reports the instance absent);
 * - `realising`: being brought up (Pod Pending);
 * - `running`: up (Pod Running; units running);
 * - `exited`: ended on its own (Pod Succeeded; the exporter exited, e.g. after a lease: ExitAndReplace);
 * - `failed`: ended in failure (Pod Failed; a unit failed);
 * - `unknown`: cannot be told (Pod Unknown; host unreachable) — treated as live, never as ended.
 *
 * `stopping` (a Pod being deleted, a teardown in flight) is beside the state: the realisation is
 * already going, so it is neither live nor ended for the rules, and the counters still see its state.
 */
import type { InstanceObservation, InstanceSnapshot, PodView } from '../model/snapshot';
import { factTime, toMillis, type PassClock } from '../model/time';
import { listOf } from '../model/wire-guards';

export type RuntimeState = 'none' | 'realising' | 'running' | 'exited' | 'failed' | 'unknown';

export interface InstanceRuntime {
  readonly state: RuntimeState;
  /** Being torn down (its Pod deleting, its teardown in flight). */
  readonly stopping: boolean;
  /** Machine-readable cause (the provisioner's reason, or the Pod's). */
  readonly reason?: string;
  /** Why it ended or cannot be told, as a sentence (the kubelet's words, or the provisioner's). */
  readonly message?: string;
  /** When the current realisation began, on the controller's clock; startup timeouts run from it. */
  readonly since?: number;
  /** When it ended (`exited` / `failed`), on the controller's clock. */
  readonly endedAt?: number;
}

/** Live: up or coming up, and not going. */
export function isLive(runtime: InstanceRuntime): boolean {
  return (
    !runtime.stopping &&
    (runtime.state === 'realising' || runtime.state === 'running' || runtime.state === 'unknown')
  );
}

/** Ended (exited or failed) and not yet going. */
export function hasEnded(runtime: InstanceRuntime): boolean {
  return !runtime.stopping && (runtime.state === 'exited' || runtime.state === 'failed');
}

/** Nothing realised and nothing going: the instance has no runtime at all. */
export function isAbsent(runtime: InstanceRuntime): boolean {
  return runtime.state === 'none' && !runtime.stopping;
}

/** A realisation exists (even one going away): starting another now would collide. */
export function realisationExists(instance: InstanceSnapshot): boolean {
  return instance.pod !== undefined || (instance.observation?.state ?? 'absent') !== 'absent';
}

function podPhaseState(pod: PodView): RuntimeState {
  switch (pod.status?.phase) {
    case undefined:
    case 'Pending':
      return 'realising';
    case 'Running':
      return 'running';
    case 'Succeeded':
      return 'exited';
    case 'Failed':
      return 'failed';
    default:
      return 'unknown';
  }
}

/**
 * When the Pod ended by the kubelet's clock: the last container finish, else the Ready transition,
 * start or creation time.
 */
function podEndClaimed(pod: PodView): number | undefined {
  const finished = (pod.status?.containerStatuses ?? [])
    .map((c) => toMillis(c.state?.terminated?.finishedAt))
    .filter((t): t is number => t !== undefined);
  if (finished.length > 0) return Math.max(...finished);
  const ready = listOf<{ type?: unknown; lastTransitionTime?: string }>(pod.status?.conditions).find(
    (c) => c.type === 'Ready',
  );
  return (
    toMillis(ready?.lastTransitionTime) ??
    toMillis(pod.status?.startTime) ??
    toMillis(pod.metadata?.creationTimestamp)
  );
}

function podEndMessage(pod: PodView): string | undefined {
  if (pod.status?.message) return pod.status.message;
  for (const c of pod.status?.containerStatuses ?? []) {
    const t = c.state?.terminated;
    if (t && (t.message || t.reason)) {
      return `container ${c.name} exited${t.exitCode !== undefined ? ` with code ${t.exitCode}` : ''}: ${t.message ?? t.reason}`;
    }
  }
  return pod.status?.reason;
}

const OBSERVED_STATE: Readonly<Record<InstanceObservation['state'], RuntimeState>> = {
  absent: 'none',
  running: 'running',
  exited: 'exited',
  failed: 'failed',
  unknown: 'unknown',
};

/** The clock a runtime's times are read on: the pass's, with the startup timeout and backoff cap. */
export type RuntimeClock = PassClock & { readonly timeoutMs: number; readonly backoffMaxMs?: number };

/**
 * The instance's runtime from its Pod or, when it has none, its lifecycle observation. `stopping`: a
 * delete of its realisation is in flight.
 */
export function instanceRuntime(
  instance: InstanceSnapshot,
  stopping: boolean,
  clock: RuntimeClock,
): InstanceRuntime {
  const observed = instance.observed ?? {};
  const endCap = clock.backoffMaxMs ?? clock.timeoutMs;
  const { pod, observation } = instance;
  if (pod !== undefined) {
    const state = podPhaseState(pod);
    const ended = state === 'exited' || state === 'failed';
    const message = ended ? podEndMessage(pod) : undefined;
    return {
      state,
      stopping: stopping || pod.metadata?.deletionTimestamp !== undefined,
      ...(pod.status?.reason !== undefined ? { reason: pod.status.reason } : {}),
      ...(message !== undefined ? { message } : {}),
      since: factTime(observed.pod, toMillis(pod.metadata?.creationTimestamp), clock, clock.timeoutMs),
      ...(ended ? { endedAt: factTime(observed.podEnded, podEndClaimed(pod), clock, endCap) } : {}),
    };
  }
  if (observation === undefined || observation.state === 'absent') {
    return { state: 'none', stopping: false };
  }
  const state = OBSERVED_STATE[observation.state];
  const ended = state === 'exited' || state === 'failed';
  return {
    state,
    stopping,
    ...(observation.reason !== undefined ? { reason: observation.reason } : {}),
    ...(observation.message !== undefined ? { message: observation.message } : {}),
    since: factTime(observed.pod, undefined, clock, clock.timeoutMs),
    ...(ended ? { endedAt: factTime(observed.podEnded, undefined, clock, endCap) } : {}),
  };
}
