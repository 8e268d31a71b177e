/**
 * The set's conditions from what a pass found and decided: upstream's four (upstream-conditions.ts,
 * from the counters alone) and ours, which say what upstream's rules do not — the warm buffer
 * (WarmBufferAvailable), what the controller is changing (Scaling), instances failing to start, waiting
 * for a credential or offline (InstancesHealthy), a spec nothing can be built from (SpecValid),
 * failed writes (ReplicaFailure: replica-failure.ts), the parameters (ParametersValid), the off switch
 * (Paused, Unbounded: spec/off-switch.ts) and a class switched to another provisioner
 * (ProvisionerSwitched: provisioner-switch.ts). Each reads a small input of its own
 * (condition-inputs.ts).
 * Messages are built from counts and persisted times only, never from `now`, so a settled set
 * rewrites nothing (SPEC §3.15).
 */
import {
  ConditionReasons as R,
  ConditionTypes,
  RuleMessages,
  formatDuration,
  type Condition,
} from 'virtual-exporters/internal';
import { setCondition, type ConditionInput } from '../model/conditions';
import { toTimestamp } from '../model/time';
import { offSwitchConditions } from '../spec/off-switch';
import type { SpecChecks } from '../spec/spec-checks';
import type {
  ConditionInputs,
  HealthInput,
  ParametersInput,
  ScalingInput,
  WarmBufferInput,
} from './condition-inputs';
import { replicaFailure } from './replica-failure';
import { upstreamConditions } from './upstream-conditions';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function warmBuffer(f: WarmBufferInput): ConditionInput {
  const type = ConditionTypes.WarmBufferAvailable;
  if (f.classMissing !== undefined) {
    return {
      type,
      status: 'Unknown',
      reason: R.VirtualTargetClassNotFound,
      message: `the warm buffer cannot be judged without the class: ${f.classMissing}`,
    };
  }
  const supply = f.available + f.standbys;
  const standbys = f.standbys > 0 ? ` (${f.standbys} on standby until a lease waits)` : '';
  const message = `${plural(supply, 'instance')} available${standbys}; the warm buffer asks for ${f.minAvailable}`;
  return supply >= f.minAvailable
    ? { type, status: 'True', reason: R.MinimumAvailable, message }
    : { type, status: 'False', reason: R.BelowMinimumAvailable, message };
}

function scaling(f: ScalingInput): ConditionInput {
  const type = ConditionTypes.Scaling;
  if (f.draining) {
    return {
      type,
      status: 'True',
      reason: R.Draining,
      message: `the set is being deleted: ${plural(f.draining.remaining, 'instance')} left, ${f.draining.leased} of them leased (kept until their leases end)`,
    };
  }
  if (f.outdated > 0 && f.revision !== undefined) {
    return {
      type,
      status: 'True',
      reason: R.RollingOut,
      message:
        f.recycle && f.recycle.pending > 0
          ? `${plural(f.outdated, 'instance')} of ${f.replicas} still to replace with revision ${f.revision}; the recycle requested at ${toTimestamp(f.recycle.requestedAt)} waits for ${plural(f.recycle.pending, 'instance')} created before it`
          : `${plural(f.outdated, 'instance')} of ${f.replicas} still to replace with revision ${f.revision} (built from another revision, or marked by a Recycle operation)`,
    };
  }
  const starting = f.starting;
  // Held back by the ceiling alone is not scaling: MaxReplicasReached says it, and nothing will change.
  const deferred = f.limited && starting + f.rendering === 0 ? 0 : f.deferred;
  if (starting + f.rendering + deferred > 0) {
    const parts = [
      ...(starting > 0 ? [`${plural(starting, 'instance')} starting`] : []),
      ...(deferred > 0
        ? [
            `${plural(deferred, 'more instance')} wanted, held back by maxReplicas, the burst limit, the startup backoff or spec.paused`,
          ]
        : []),
    ];
    return {
      type,
      status: 'True',
      reason: R.ScalingUp,
      message: parts.length > 0 ? parts.join('; ') : `rendering ${plural(f.rendering, 'instance')}`,
    };
  }
  if (f.leaving > 0) {
    return {
      type,
      status: 'True',
      reason: R.ScalingDown,
      message: `${plural(f.leaving, 'instance')} leaving the pool`,
    };
  }
  if (f.window) {
    return {
      type,
      status: 'False',
      reason: R.ScaleDownPending,
      message: `${plural(f.window.surplus, 'idle instance')} beyond the need since ${toTimestamp(f.window.start)}; scaling down to ${f.window.target} at ${toTimestamp(f.window.dueAt)} unless the need grows`,
    };
  }
  if (f.limited) {
    return {
      type,
      status: 'False',
      reason: R.MaxReplicasReached,
      message: `the floor, the warm buffer and pending leases need ${f.limited.wanted} instances but maxReplicas is ${f.limited.maxReplicas}`,
    };
  }
  return { type, status: 'False', reason: R.Stable, message: 'the pool matches its rules' };
}

function specValid(f: SpecChecks): ConditionInput {
  const type = ConditionTypes.SpecValid;
  if (!f.selectorMatchesTemplate) {
    return {
      type,
      status: 'False',
      reason: R.SelectorDoesNotMatchTemplate,
      message: `spec.selector: ${RuleMessages.selectorMatchesTemplate}; no instances are created until the selector selects spec.template.metadata.labels`,
    };
  }
  if (f.invalidSpec !== undefined) {
    return {
      type,
      status: 'False',
      reason: R.InvalidSpec,
      message: `${f.invalidSpec}; no instances are created until the spec is fixed (the API server would refuse them)`,
    };
  }
  if (f.scheduleFindings !== undefined) {
    return {
      type,
      status: 'False',
      reason: R.ScheduleIgnored,
      message: `${f.scheduleFindings}; a schedule the controller cannot read is ignored (counts above maxReplicas are capped), and the pool keeps its static warm buffer until it is fixed`,
    };
  }
  return { type, status: 'True', reason: R.SpecValid, message: 'the spec keeps the rules of an ExporterSet' };
}

function instancesHealthy(f: HealthInput): ConditionInput {
  const type = ConditionTypes.InstancesHealthy;
  if (f.awaitingCredential && f.awaitingCredential.waits.length > 0) {
    const { waits, timeoutMs } = f.awaitingCredential;
    const shown = waits.slice(0, 3).join('; ') + (waits.length > 3 ? '; ...' : '');
    return {
      type,
      status: 'False',
      reason: R.CredentialNotIssued,
      message: `${plural(waits.length, 'instance')} cannot start without a credential from Jumpstarter: ${shown}. Jumpstarter writes the Secret <exporter>-exporter itself; a Secret of that name someone else wrote first (without a token) blocks it: delete that Secret. Instances still waiting ${formatDuration(timeoutMs)} after their Exporter was created are replaced`,
    };
  }
  if (f.startupFailures > 0) {
    const last =
      f.lastStartupFailureTime !== undefined ? `, the last at ${toTimestamp(f.lastStartupFailureTime)}` : '';
    const wait =
      f.lastStartupFailureTime !== undefined
        ? `; new instances wait until ${toTimestamp(f.lastStartupFailureTime + f.backoffMs)} (backoff ${formatDuration(f.backoffMs)})`
        : '';
    return {
      type,
      status: 'False',
      reason: R.StartupFailureBackoff,
      message: `${plural(f.startupFailures, 'instance')} failed before becoming ready${last}${wait}; see the Events and logs of the failed Pods`,
    };
  }
  if (f.unobserved !== undefined && f.unobserved.length > 0) {
    const shown = f.unobserved.slice(0, 3).join('; ') + (f.unobserved.length > 3 ? '; ...' : '');
    return {
      type,
      status: 'False',
      reason: R.InstancesUnobserved,
      message: `the provisioner cannot tell how ${plural(f.unobserved.length, 'instance')} are: ${shown}`,
    };
  }
  if (f.offline.length > 0) {
    const shown = f.offline.slice(0, 5).join(', ') + (f.offline.length > 5 ? ', ...' : '');
    return {
      type,
      status: 'False',
      reason: R.InstancesOffline,
      message: `${plural(f.offline.length, 'instance')} went offline while their Pod runs: ${shown}`,
    };
  }
  return {
    type,
    status: 'True',
    reason: R.InstancesHealthy,
    message: 'no instance is failing to start, waiting for its credential or offline',
  };
}

function parametersValid(f: ParametersInput): ConditionInput {
  const type = ConditionTypes.ParametersValid;
  if (f.classMissing !== undefined) {
    return {
      type,
      status: 'Unknown',
      reason: R.VirtualTargetClassNotFound,
      message: `the parameters cannot be checked without the class: ${f.classMissing}`,
    };
  }
  if (f.invalidParameters !== undefined) {
    return {
      type,
      status: 'False',
      reason: R.InvalidParameters,
      message: f.invalidParameters,
    };
  }
  return {
    type,
    status: 'True',
    reason: R.ParametersValid,
    message: `the merged parameters are valid for ${f.provisionerName}`,
  };
}

/** The set's conditions after this pass; conditions of other types are kept as they are. */
export function setConditions(
  previous: readonly Condition[] | undefined,
  inputs: ConditionInputs,
  now: number,
  generation: number | undefined,
): Condition[] {
  let conditions = [...(previous ?? [])];
  for (const input of [
    ...upstreamConditions(inputs.upstream),
    warmBuffer(inputs.warmBuffer),
    scaling(inputs.scaling),
    instancesHealthy(inputs.health),
    specValid(inputs.spec),
    replicaFailure(previous, inputs.replicaFailure),
    parametersValid(inputs.parameters),
    ...offSwitchConditions(inputs.offSwitch),
    ...(inputs.pin ? [inputs.pin] : []),
    ...(inputs.switched ? [inputs.switched] : []),
  ]) {
    conditions = setCondition(conditions, input, now, generation);
  }
  return conditions;
}
