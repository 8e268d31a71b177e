/**
 * §3.20 off switch: `maxReplicas: 0` keeps upstream's meaning — no ceiling — and is reported as such
 * (`kubectl scale es/x --replicas=0` writes it, and an operator who meant "off" would otherwise see
 * the pool grow with every waiting lease); `spec.paused` is the real off switch. While paused the scale
 * rules create and promote nothing — no floor, warm buffer or demand is met by new instances — and
 * existing instances keep serving, recycling and scaling down; an instance recycled away is not
 * replaced until the set is unpaused.
 */
import { ConditionReasons as R, ConditionTypes, type ExporterSet } from 'virtual-exporters/internal';
import type { ConditionInput } from '../model/conditions';

/** Whether the set is paused: only a literal `true` pauses it (a malformed value does not). */
export function isPaused(set: ExporterSet): boolean {
  return set.spec?.paused === true;
}

/** What the two conditions report. */
export interface OffSwitchInput {
  readonly paused: boolean;
  readonly maxReplicas: number;
}

export function offSwitchConditions(f: OffSwitchInput): ConditionInput[] {
  return [
    f.paused
      ? {
          type: ConditionTypes.Paused,
          status: 'True',
          reason: R.SpecPaused,
          message:
            'spec.paused is true: no instance is created or promoted; existing instances keep serving and recycling, and one recycled away is replaced only once spec.paused is false',
        }
      : {
          type: ConditionTypes.Paused,
          status: 'False',
          reason: R.NotPaused,
          message: 'spec.paused is false',
        },
    f.maxReplicas === 0
      ? {
          type: ConditionTypes.Unbounded,
          status: 'True',
          reason: R.NoMaxReplicas,
          message:
            'maxReplicas is 0, which means no ceiling: every pending lease adds an instance (kubectl scale --replicas=0 writes 0). To stop the pool, set spec.paused: true; to bound it, set maxReplicas above 0',
        }
      : {
          type: ConditionTypes.Unbounded,
          status: 'False',
          reason: R.MaxReplicasSet,
          message: `maxReplicas ${f.maxReplicas} bounds the pool`,
        },
  ];
}
