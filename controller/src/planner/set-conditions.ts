/**
 * The set's six conditions from what a pass found and decided. Messages are built from counts and
 * persisted times only, never from `now`, so a settled set rewrites nothing (SPEC §3.15).
 */
import {
  ConditionReasons,
  ConditionTypes,
  RuleMessages,
  formatDuration,
  type Condition,
  ConditionReasons as R,
} from 'virtual-exporters/internal';
import { findCondition, setCondition, type ConditionInput } from './conditions';
import { toTimestamp } from './snapshot';

export interface ConditionFacts {
  /** Why the class is missing; undefined when it was found. */
  readonly classMissing?: string;
  /** The provisioner's findings, formatted; undefined when the parameters are valid or unknown. */
  readonly invalidParameters?: string;
  readonly provisionerName: string;
  readonly selectorMatchesTemplate: boolean;
  /** The set's own rules it breaks (validateExporterSet), formatted; undefined when it keeps them. */
  readonly invalidSpec?: string;
  readonly available: number;
  /** With WaitForFirstConsumer the warm buffer is made of standbys: they count as available. */
  readonly standbyInBuffer: number;
  readonly minAvailable: number;
  readonly replicas: number;
  readonly leased: number;
  readonly starting: number;
  /**
   * Instances that wait for their credential from Jumpstarter beyond the grace, each as
   * `<name> waits for <what>`, sorted; with the startup timeout that will replace them.
   */
  readonly awaitingCredential?: { readonly waits: readonly string[]; readonly timeoutMs: number };
  /** Names of instances that went offline, sorted. */
  readonly offline: readonly string[];
  /** Set when the set is being deleted. */
  readonly draining?: { readonly remaining: number; readonly leased: number };
  readonly startupFailures: number;
  readonly lastStartupFailureTime?: number;
  readonly backoffUntil?: number;
  readonly backoffMs: number;
  /** Counts of what this pass asks for. */
  readonly creating: number;
  readonly promoting: number;
  readonly rendering: number;
  readonly removing: number;
  /** Realised instances wanted but held back (ceiling, burst, gate). */
  readonly deferred: number;
  /** Exporter creates and deletes this pass sends (the writes whose failures ReplicaFailure reports). */
  readonly replicaWrites: number;
  readonly creatingInFlight: number;
  readonly retiring: number;
  readonly outdated: number;
  readonly revision?: string;
  readonly window?: {
    readonly start: number;
    readonly target: number;
    readonly dueAt: number;
    readonly surplus: number;
  };
  readonly limited?: { readonly maxReplicas: number; readonly wanted: number };
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function available(f: ConditionFacts): ConditionInput {
  const type = ConditionTypes.Available;
  if (f.classMissing !== undefined) {
    return {
      type,
      status: 'False',
      reason: ConditionReasons.VirtualTargetClassNotFound,
      message: f.classMissing,
    };
  }
  const supply = f.available + f.standbyInBuffer;
  const standbys = f.standbyInBuffer > 0 ? ` (${f.standbyInBuffer} on standby until a lease waits)` : '';
  const message = `${plural(supply, 'instance')} available${standbys}; the warm buffer asks for ${f.minAvailable}`;
  return supply >= f.minAvailable
    ? { type, status: 'True', reason: R.MinimumAvailable, message }
    : { type, status: 'False', reason: R.BelowMinimumAvailable, message };
}

function progressing(f: ConditionFacts): ConditionInput {
  const type = ConditionTypes.Progressing;
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
      message: `${plural(f.outdated, 'instance')} of ${f.replicas} still run an older template; replacing them with revision ${f.revision}`,
    };
  }
  const starting = f.starting + f.creatingInFlight + f.creating + f.promoting;
  // Held back by the ceiling alone is not progress: ScalingLimited says it, and nothing will change.
  const deferred = f.limited && starting + f.rendering === 0 ? 0 : f.deferred;
  if (starting + f.rendering + deferred > 0) {
    const parts = [
      ...(starting > 0 ? [`${plural(starting, 'instance')} starting`] : []),
      ...(deferred > 0
        ? [
            `${plural(deferred, 'more instance')} wanted, held back by maxReplicas, the burst limit or the startup backoff`,
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
  if (f.removing + f.retiring > 0) {
    return {
      type,
      status: 'True',
      reason: R.ScalingDown,
      message: `${plural(f.removing + f.retiring, 'instance')} leaving the pool`,
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
  return { type, status: 'False', reason: R.Stable, message: 'the pool matches its rules' };
}

function degraded(f: ConditionFacts): ConditionInput {
  const type = ConditionTypes.Degraded;
  if (!f.selectorMatchesTemplate) {
    return {
      type,
      status: 'True',
      reason: R.SelectorDoesNotMatchTemplate,
      message: `spec.selector: ${RuleMessages.selectorMatchesTemplate}; no instances are created until the selector selects spec.template.metadata.labels`,
    };
  }
  if (f.invalidSpec !== undefined) {
    return {
      type,
      status: 'True',
      reason: ConditionReasons.InvalidSpec,
      message: `${f.invalidSpec}; no instances are created until the spec is fixed (the API server would refuse them)`,
    };
  }
  if (f.awaitingCredential && f.awaitingCredential.waits.length > 0) {
    const { waits, timeoutMs } = f.awaitingCredential;
    const shown = waits.slice(0, 3).join('; ') + (waits.length > 3 ? '; ...' : '');
    return {
      type,
      status: 'True',
      reason: ConditionReasons.CredentialNotIssued,
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
      status: 'True',
      reason: ConditionReasons.StartupFailureBackoff,
      message: `${plural(f.startupFailures, 'instance')} failed before becoming ready${last}${wait}; see the Events and logs of the failed Pods`,
    };
  }
  if (f.offline.length > 0) {
    const shown = f.offline.slice(0, 5).join(', ') + (f.offline.length > 5 ? ', ...' : '');
    return {
      type,
      status: 'True',
      reason: R.InstancesOffline,
      message: `${plural(f.offline.length, 'instance')} went offline while their Pod runs: ${shown}`,
    };
  }
  return { type, status: 'False', reason: R.AsExpected, message: 'no failing or offline instances' };
}

function scalingLimited(f: ConditionFacts): ConditionInput {
  const type = ConditionTypes.ScalingLimited;
  if (f.limited) {
    return {
      type,
      status: 'True',
      reason: ConditionReasons.MaxReplicasReached,
      message: `the floor, the warm buffer and pending leases need ${f.limited.wanted} instances but maxReplicas is ${f.limited.maxReplicas}`,
    };
  }
  return { type, status: 'False', reason: R.WithinLimits, message: 'maxReplicas does not limit the pool' };
}

function parametersValid(f: ConditionFacts): ConditionInput {
  const type = ConditionTypes.ParametersValid;
  if (f.classMissing !== undefined) {
    return {
      type,
      status: 'Unknown',
      reason: ConditionReasons.VirtualTargetClassNotFound,
      message: 'the parameters cannot be checked without the VirtualTargetClass',
    };
  }
  if (f.invalidParameters !== undefined) {
    return {
      type,
      status: 'False',
      reason: ConditionReasons.InvalidParameters,
      message: f.invalidParameters,
    };
  }
  return {
    type,
    status: 'True',
    reason: ConditionReasons.ParametersValid,
    message: `the merged parameters are valid for ${f.provisionerName}`,
  };
}

/**
 * ReplicaFailure belongs to the executor (it sees the API errors): the planner keeps what is there and
 * fills in False when the condition is missing. It also clears a True one when this pass wants no
 * Exporter create or delete at all (none planned, none held back but by the ceiling): the failed
 * write was retried by a pass whose status was then lost (a failed status write, a controller
 * restart), or is no longer needed (the set shrank, the instance went away or got leased), and
 * nothing else would ever clear it — only a pass that sends creates or deletes does.
 */
function replicaFailure(previous: readonly Condition[] | undefined, f: ConditionFacts): ConditionInput {
  const type = ConditionTypes.ReplicaFailure;
  const old = findCondition(previous, type);
  if (!old) return { type, status: 'False', reason: R.NoFailures, message: 'creates and deletes succeed' };
  const heldBack = f.limited && f.starting + f.creatingInFlight + f.rendering === 0 ? 0 : f.deferred;
  if (old.status === 'True' && f.replicaWrites + heldBack === 0) {
    return {
      type,
      status: 'False',
      reason: R.NoFailures,
      message: `no Exporter create or delete is outstanding (the earlier ${old.reason} no longer applies)`,
    };
  }
  return { type: old.type, status: old.status, reason: old.reason, message: old.message };
}

/** The set's conditions after this pass; conditions of other types are kept as they are. */
export function setConditions(
  previous: readonly Condition[] | undefined,
  facts: ConditionFacts,
  now: number,
  generation: number | undefined,
): Condition[] {
  let conditions = [...(previous ?? [])];
  for (const input of [
    available(facts),
    progressing(facts),
    degraded(facts),
    scalingLimited(facts),
    replicaFailure(previous, facts),
    parametersValid(facts),
  ]) {
    conditions = setCondition(conditions, input, now, generation);
  }
  return conditions;
}
