/**
 * The events of condition changes: one per reported condition whose status changed, as the plan
 * compares the status it makes with the one the set had (see `conditionEvents` for which conditions
 * are reported and why).
 */
import { ConditionReasons, ConditionTypes, type Condition } from 'virtual-exporters/internal';
import type { PlanEvent } from '../model/events';
import { listOf } from '../model/wire-guards';

/** The status a reported condition has when all is well; the other one is worth a Warning. */
const HEALTHY: Readonly<Record<string, string>> = {
  [ConditionTypes.Available]: 'True',
  [ConditionTypes.ScalingLimited]: 'False',
  [ConditionTypes.InstancesHealthy]: 'True',
  [ConditionTypes.SpecValid]: 'True',
  [ConditionTypes.ReplicaFailure]: 'False',
  [ConditionTypes.ParametersValid]: 'True',
  [ConditionTypes.Paused]: 'False',
  [ConditionTypes.Unbounded]: 'False',
};

/**
 * RevisionPinned has no healthy status (pinned or not, both are fine): each change of its reason is
 * an event, a Warning when the pinned revision is not found.
 */
function pinEvent(before: readonly Condition[] | undefined, c: Condition): PlanEvent | undefined {
  const old = listOf<Condition>(before).find((o) => o.type === c.type);
  if (old?.reason === c.reason) return undefined;
  return {
    type: c.reason === ConditionReasons.PinnedRevisionNotFound ? 'Warning' : 'Normal',
    reason: c.reason,
    message: `${c.type} is ${c.status}: ${c.message}`,
  };
}

/**
 * One event per reported condition whose status changed (and per new reason of a True
 * ReplicaFailure: each kind of failed write is reported). A condition seen for the first time is
 * reported only when it is unhealthy (a new set does not need a row of events saying all is well).
 * Not reported, as they change in the normal life of a pool and their causes have events of their
 * own: upstream's Progressing and Degraded (from the counters: Degraded is True while any booting
 * Pod's exporter is not online yet, Progressing while any Pod is pending — InstancesHealthy reports
 * failing, stuck and offline instances), Scaling (each scale action has its event), and Available and
 * WarmBufferAvailable while the class exists — they drop each time a lease takes or recycles an
 * instance and rise when the refill is ready, which would make two Warnings per lease; their status
 * and the metrics show it.
 */
export function conditionEvents(
  before: readonly Condition[] | undefined,
  after: readonly Condition[],
): PlanEvent[] {
  const events: PlanEvent[] = [];
  for (const c of after) {
    if (c.type === ConditionTypes.RevisionPinned) {
      const pin = pinEvent(before, c);
      if (pin) events.push(pin);
      continue;
    }
    const healthy = HEALTHY[c.type];
    if (healthy === undefined) continue;
    // `before` is the status as read back, which may hold anything (status-read.ts).
    const old = listOf<Condition>(before).find((o) => o.type === c.type);
    // Another write failing is news too, though ReplicaFailure was True already.
    const otherFailure =
      c.type === ConditionTypes.ReplicaFailure && c.status === 'True' && old?.reason !== c.reason;
    if (old?.status === c.status && !otherFailure) continue;
    if (old === undefined && c.status === healthy) continue;
    const classNews =
      c.reason === ConditionReasons.VirtualTargetClassNotFound ||
      old?.reason === ConditionReasons.VirtualTargetClassNotFound;
    if (c.type === ConditionTypes.Available && !classNews) continue;
    events.push({
      type: c.status === healthy ? 'Normal' : 'Warning',
      reason: c.reason,
      message: `${c.type} is ${c.status}: ${c.message}`,
    });
  }
  return events;
}
