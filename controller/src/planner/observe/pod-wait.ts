/**
 * §3.18: an instance that cannot get its Pod is failed and replaced within a bounded time. The
 * reconciler keeps, on the controller's own clock, when it first failed to start the instance's Pod
 * (render, config Secret or Pod refused: model/snapshot.ts `podWriteFailure`); once that wait reaches the
 * startup timeout the instance is `failed` like one whose Pod never became ready — replaced, and
 * counted as a startup failure, so the replacements go through the startup backoff (§3.9) and a
 * persistent refusal (RBAC, an oversized config) never loops creates.
 */
import type { InstanceSnapshot } from '../model/snapshot';
import { realisationExists } from './runtime';

/** When the instance's wait for its Pod times out; undefined when it is not waiting for one. */
export function podWaitDeadline(instance: InstanceSnapshot, timeoutMs: number): number | undefined {
  const failure = instance.podWriteFailure;
  return failure !== undefined && !realisationExists(instance) ? failure.since + timeoutMs : undefined;
}

/** The instance's end, once its wait for its Pod has timed out by `now`. */
export function podWaitEnded(
  instance: InstanceSnapshot,
  startup: { readonly now: number; readonly timeoutMs: number },
): { readonly endedAt: number; readonly endMessage: string } | undefined {
  const deadline = podWaitDeadline(instance, startup.timeoutMs);
  if (deadline === undefined || startup.now < deadline) return undefined;
  const failure = instance.podWriteFailure!;
  return {
    endedAt: deadline,
    endMessage: `no Pod ${Math.round(startup.timeoutMs / 1000)} s after the controller first tried to start it (${failure.reason}: ${failure.message})`,
  };
}
