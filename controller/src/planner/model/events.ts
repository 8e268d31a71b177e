/**
 * The Kubernetes Events a plan proposes on the set (SPEC §3), and the ones its actions make: one per
 * kind of scale action and reason, one per revision recorded or pruned. Events describe decisions; the
 * executor emits those whose actions it applied. The other events are made where their facts are: a
 * startup failure (decide/startup-failures.ts), a condition change (status/condition-events.ts), a
 * schedule window, a completed recycle, a corrected status field.
 */
import { Labels, type ScaleReason, EventReasons as E } from 'virtual-exporters/internal';
import type { Action } from './actions';

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
