/**
 * The Kubernetes Events a plan proposes on the set (SPEC §3): one per kind of scale action and reason,
 * one per startup failure, one per condition change. They describe decisions; the executor emits those
 * whose actions it applied.
 */
import {
  ConditionReasons,
  ConditionTypes,
  Labels,
  type Condition,
  type ScaleReason,
  EventReasons as E,
} from 'virtual-exporters/internal';
import type { Action } from './actions';
import type { InstanceView } from './instances';
import { toTimestamp } from './snapshot';
import { listOf } from './wire-guards';

export interface PlanEvent {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
}

const REASON_WORDS: Readonly<Record<ScaleReason, string>> = {
  floor: 'to keep minReplicas',
  'warm-buffer': 'to keep the warm buffer',
  demand: 'for pending leases',
  standby: 'so leases can wait for capacity',
  rollout: 'to roll out the current template',
  recycle: 'after its lease (ExitAndReplace)',
  failed: 'because its Pod failed',
  'scale-down': 'as idle surplus after scaleDownCooldown',
  drain: 'because the set is being deleted',
};

function names(list: readonly string[]): string {
  const sorted = [...list].sort();
  return sorted.length > 10
    ? `${sorted.slice(0, 10).join(', ')} and ${sorted.length - 10} more`
    : sorted.join(', ');
}

function leavingEvent(reason: ScaleReason): string {
  return reason === 'recycle' ? E.InstanceRecycled : reason === 'failed' ? E.InstanceFailed : E.ScaledDown;
}

/** Groups actions by (event, reason) and describes each group once. */
export function actionEvents(actions: readonly Action[]): PlanEvent[] {
  const groups = new Map<
    string,
    { event: PlanEvent['reason']; verb: string; reason: ScaleReason; names: string[] }
  >();
  const push = (event: string, verb: string, reason: ScaleReason, name: string): void => {
    const key = `${event}/${verb}/${reason}`;
    const group = groups.get(key) ?? { event, verb, reason, names: [] };
    group.names.push(name);
    groups.set(key, group);
  };
  for (const action of actions) {
    switch (action.type) {
      case 'CreateExporter':
        push(E.ScaledUp, action.standby ? 'created standby' : 'created', action.reason, action.name);
        break;
      case 'PromoteStandby':
        push(E.StandbyPromoted, 'promoted standby', action.reason, action.name);
        break;
      case 'DisableExporter':
        push(leavingEvent(action.reason), 'disabled', action.reason, action.name);
        break;
      case 'DeleteExporter':
        push(leavingEvent(action.reason), 'deleted', action.reason, action.name);
        break;
      case 'ReleaseExporter':
        push(E.InstanceReleased, 'released (reclaimPolicy Retain)', action.reason, action.name);
        break;
      case 'DeletePod':
        push(E.PodReplaced, 'replacing the Pod of', action.reason, action.name);
        break;
      default:
        break;
    }
  }
  return [
    ...[...groups.values()].map((g): PlanEvent => ({
      type: 'Normal',
      reason: g.event,
      message: `${g.verb} ${g.names.length === 1 ? 'instance' : `${g.names.length} instances`} ${names(g.names)} ${REASON_WORDS[g.reason]}`,
    })),
    ...revisionEvents(actions),
  ];
}

/** One event per revision recorded or pruned (revision-history.ts). */
function revisionEvents(actions: readonly Action[]): PlanEvent[] {
  return actions.flatMap((action): PlanEvent[] => {
    if (action.type === 'RecordRevision') {
      const { metadata, revision } = action.revision;
      const hash = metadata.labels?.[Labels.templateRevision] ?? '';
      return [
        {
          type: 'Normal',
          reason: E.RevisionRecorded,
          message: `recorded revision ${revision} (${hash}) as ControllerRevision ${metadata.name}: set spec.pinnedRevision to it to roll the pool back to it`,
        },
      ];
    }
    if (action.type === 'DeleteRevision') {
      return [
        {
          type: 'Normal',
          reason: E.RevisionPruned,
          message: `deleted ControllerRevision ${action.revisionName}: no instance runs it and it is beyond spec.revisionHistoryLimit`,
        },
      ];
    }
    return [];
  });
}

export function startupFailureEvents(
  failed: readonly InstanceView[],
  backoffUntil: number | undefined,
): PlanEvent[] {
  const wait = backoffUntil !== undefined ? `; new instances wait until ${toTimestamp(backoffUntil)}` : '';
  return failed.map((v) => ({
    type: 'Warning',
    reason: E.StartupFailure,
    message: `instance ${v.name} failed before becoming ready${v.endMessage ? `: ${v.endMessage}` : ''}${wait}`,
  }));
}

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
