/**
 * Upstream's four conditions — Available, Progressing, Degraded, ScalingLimited — with exactly
 * upstream's statuses, reasons, rules and messages (INTEROP §1.3), computed from the status counters
 * alone, so a tool written for upstream's controller (`kubectl wait --for=condition=Available`, an
 * alert on `Degraded`) reads this controller's sets the same way. Each function applies its table's
 * rows in order; the first that holds wins. What this controller knows beyond these rules goes into
 * condition types of its own (set-conditions.ts), never into these.
 *
 * Two judged deviations: a standby Exporter (no Pod by design, SPEC §3.6) is not counted in
 * `unavailableReplicas` (counters.ts), so a standby never makes Progressing or Degraded True; and
 * Degraded stays `PodsFailing` while Pod failures are recent though the failed Pods were replaced at
 * once (pod-failures.ts), with the Pods and why they failed in its message.
 */
import { ConditionReasons as R, ConditionTypes } from 'virtual-exporters/internal';
import type { ConditionInput } from '../model/conditions';
import type { StatusCounters } from './counters';
import { failingText, type PodFailures } from './pod-failures';

/** What upstream's rules read: the counters and the spec's three bounds. */
export interface UpstreamFacts {
  readonly counters: Pick<
    StatusCounters,
    'replicas' | 'readyReplicas' | 'availableReplicas' | 'unavailableReplicas' | 'podsPending' | 'podsFailed'
  >;
  readonly minReplicas: number;
  readonly maxReplicas: number;
  readonly minAvailable: number;
  /** The name of the set's VirtualTargetClass when it was not found; undefined when it was. */
  readonly classMissing?: string;
  /** Failed Pods named, and recent failures that keep Degraded at PodsFailing (pod-failures.ts). */
  readonly podFailures?: PodFailures;
}

export function availableCondition(f: UpstreamFacts): ConditionInput {
  const type = ConditionTypes.Available;
  const { replicas, readyReplicas } = f.counters;
  if (f.classMissing !== undefined) {
    return {
      type,
      status: 'False',
      reason: R.VirtualTargetClassNotFound,
      message: `VirtualTargetClass "${f.classMissing}" not found`,
    };
  }
  if (f.minReplicas === 0 && replicas === 0) {
    return { type, status: 'True', reason: R.NoReplicasRequired, message: 'No minimum replicas configured' };
  }
  if (readyReplicas >= f.minReplicas) {
    return {
      type,
      status: 'True',
      reason: R.MinimumReplicasAvailable,
      message: `${readyReplicas}/${f.minReplicas} replicas ready`,
    };
  }
  return {
    type,
    status: 'False',
    reason: R.MinimumReplicasUnavailable,
    message: `${readyReplicas}/${replicas} replicas ready, need ${f.minReplicas}`,
  };
}

export function progressingCondition(f: UpstreamFacts): ConditionInput {
  const type = ConditionTypes.Progressing;
  const { podsPending, unavailableReplicas } = f.counters;
  if (podsPending > 0) {
    return { type, status: 'True', reason: R.PodsStarting, message: `${podsPending} pod(s) pending` };
  }
  if (unavailableReplicas > 0) {
    return {
      type,
      status: 'True',
      reason: R.ReplicasNotReady,
      message: `${unavailableReplicas} replica(s) not yet ready`,
    };
  }
  return { type, status: 'False', reason: R.AllReplicasReady, message: 'All replicas are ready' };
}

export function degradedCondition(f: UpstreamFacts): ConditionInput {
  const type = ConditionTypes.Degraded;
  const { podsFailed, podsPending, unavailableReplicas } = f.counters;
  if (podsFailed > 0) {
    const named = failingText(f.podFailures?.failing ?? []);
    return {
      type,
      status: 'True',
      reason: R.PodsFailing,
      message: `${podsFailed} pod(s) in Failed state${named}`,
    };
  }
  if (f.podFailures?.recent !== undefined) {
    return { type, status: 'True', reason: R.PodsFailing, message: f.podFailures.recent };
  }
  if (unavailableReplicas > 0 && podsPending === 0) {
    return {
      type,
      status: 'True',
      reason: R.ExportersOffline,
      message: `${unavailableReplicas} exporter(s) not ready with no pending pods`,
    };
  }
  return { type, status: 'False', reason: R.AllReplicasHealthy, message: 'No degraded replicas' };
}

export function scalingLimitedCondition(f: UpstreamFacts): ConditionInput {
  const type = ConditionTypes.ScalingLimited;
  const { replicas, availableReplicas } = f.counters;
  if (f.maxReplicas > 0 && replicas >= f.maxReplicas && availableReplicas < f.minAvailable) {
    return {
      type,
      status: 'True',
      reason: R.AtMaxReplicas,
      message: `Cannot scale beyond ${f.maxReplicas} replicas; ${availableReplicas} available, need ${f.minAvailable}`,
    };
  }
  return { type, status: 'False', reason: R.WithinLimits, message: 'Scaling is not constrained' };
}

/** The four, in upstream's order. */
export function upstreamConditions(f: UpstreamFacts): ConditionInput[] {
  return [availableCondition(f), progressingCondition(f), degradedCondition(f), scalingLimitedCondition(f)];
}
