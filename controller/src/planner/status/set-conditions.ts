/**
 * The set's conditions from what a pass found and decided: upstream's four (upstream-conditions.ts,
 * from the counters alone) and ours, which say what upstream's rules do not — the warm buffer
 * (WarmBufferAvailable), what the controller is changing (Scaling), instances failing to start, waiting
 * for a credential or offline (InstancesHealthy), a spec nothing can be built from (SpecValid),
 * failed writes (ReplicaFailure), the parameters (ParametersValid) and the off switch (Paused, Unbounded:
 * off-switch.ts). Messages are built from counts
 * and persisted times only, never from `now`, so a settled set rewrites nothing (SPEC §3.15).
 */
import {
  ConditionReasons as R,
  ConditionTypes,
  RuleMessages,
  formatDuration,
  type Condition,
} from 'virtual-exporters/internal';
import type { SpecChecks } from './class-and-parameters';
import { findCondition, setCondition, type ConditionInput } from './conditions';
import { offSwitchConditions, type OffSwitchInput } from './off-switch';
import { HELD_BACK_REASONS, REPLICA_REASONS, WRITE_WORDS, type ExecutionOutcome } from './outcome';
import { toTimestamp } from './snapshot';
import { upstreamConditions, type UpstreamFacts } from './upstream-conditions';

/** WarmBufferAvailable's input. */
export interface WarmBufferInput {
  /** The missing class's finding, when the class was not found. */
  readonly classMissing?: string;
  /**
   * Instances the warm buffer counts as supply: available by the planner's stricter definition
   * (Registered too, in an exporter status Jumpstarter assigns, Pod not ended).
   */
  readonly available: number;
  /** With WaitForFirstConsumer the warm buffer is made of standbys: they count as available. */
  readonly standbys: number;
  readonly minAvailable: number;
}

/** Scaling's input: what this pass changes, and what it waits for. */
export interface ScalingInput {
  /** Set when the set is being deleted. */
  readonly draining?: { readonly remaining: number; readonly leased: number };
  /** Outdated instances a rollout replaces, of `replicas`, with the current `revision`. */
  readonly outdated: number;
  readonly replicas: number;
  readonly revision?: string;
  /** Of `outdated`, those created before an active recycleRequestedAt (requested-recycle.ts). */
  readonly recycle?: { readonly pending: number; readonly requestedAt: number };
  /** Instances starting: booting, creates in flight and this pass's creates and promotions. */
  readonly starting: number;
  readonly rendering: number;
  /** Instances with a Pod wanted but held back (ceiling, burst, gate). */
  readonly deferred: number;
  /** Instances leaving: this pass's removals and the ones already on their way out. */
  readonly leaving: number;
  readonly window?: {
    readonly start: number;
    readonly target: number;
    readonly dueAt: number;
    readonly surplus: number;
  };
  readonly limited?: { readonly maxReplicas: number; readonly wanted: number };
}

/** InstancesHealthy's input. */
export interface HealthInput {
  /**
   * Instances that wait for their credential from Jumpstarter beyond the grace, each as
   * `<name> waits for <what>`, sorted; with the startup timeout that will replace them.
   */
  readonly awaitingCredential?: { readonly waits: readonly string[]; readonly timeoutMs: number };
  readonly startupFailures: number;
  readonly lastStartupFailureTime?: number;
  readonly backoffMs: number;
  /** Names of instances that went offline, sorted. */
  readonly offline: readonly string[];
  /**
   * Instances of a lifecycle provisioner whose state cannot be told (host unreachable, observe
   * failed), each as `<name>: <the provisioner's message>`, sorted.
   */
  readonly unobserved?: readonly string[];
}

/** ParametersValid's input. */
export interface ParametersInput {
  /** The missing class's finding, when the class was not found. */
  readonly classMissing?: string;
  /** The provisioner's findings, formatted; undefined when the parameters are valid or unknown. */
  readonly invalidParameters?: string;
  readonly provisionerName: string;
}

/** ReplicaFailure's input, as the plan sees it (the executor's outcome comes after). */
export interface ReplicaFailureInput {
  /**
   * The kinds of write (by failure reason, outcome.ts `WRITE_REASONS`) this pass sends or holds back
   * (not held back by the ceiling alone).
   */
  readonly outstanding: ReadonlySet<string>;
}

/** Every condition's input. */
export interface ConditionInputs {
  readonly upstream: UpstreamFacts;
  readonly warmBuffer: WarmBufferInput;
  readonly scaling: ScalingInput;
  readonly health: HealthInput;
  readonly spec: SpecChecks;
  readonly replicaFailure: ReplicaFailureInput;
  readonly parameters: ParametersInput;
  readonly offSwitch: OffSwitchInput;
  /** RevisionPinned (pinning.ts); undefined while the set was never pinned. */
  readonly pin?: ConditionInput;
}

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

/**
 * ReplicaFailure as the plan sees it: the executor's outcome decides it (`withOutcome`); until then
 * the planner keeps what is there and fills in False when the condition is missing. It also clears a
 * True one when this pass wants no write of the kind that failed (none planned, none held back but
 * by the ceiling): the failed write was retried by a pass whose status was then lost (a failed status
 * write, a controller restart), or is no longer needed (the set shrank, the instance went away or got
 * leased), and nothing else would ever clear it — only a pass that sends such a write does.
 */
function replicaFailure(previous: readonly Condition[] | undefined, f: ReplicaFailureInput): ConditionInput {
  const type = ConditionTypes.ReplicaFailure;
  const old = findCondition(previous, type);
  if (!old) return { type, status: 'False', reason: R.NoFailures, message: NO_FAILURES };
  if (old.status === 'True' && !f.outstanding.has(old.reason)) {
    return {
      type,
      status: 'False',
      reason: R.NoFailures,
      message: `no ${WRITE_WORDS[old.reason] ?? 'write of that kind'} is outstanding (the earlier ${old.reason} no longer applies)`,
    };
  }
  return { type: old.type, status: old.status, reason: old.reason, message: old.message };
}

const NO_FAILURES = 'the writes for the set succeed';

/**
 * The kinds of write outstanding: the ones this pass sends, and the Exporter and Pod writes of the
 * instances it wants but holds back — unless only the ceiling holds them back with nothing starting
 * (MaxReplicasReached says it). An Exporter create and delete stand for each other.
 */
export function outstandingWrites(f: {
  /** The kinds of write of the pass's actions (outcome.ts `reasonsOf`). */
  readonly planned: ReadonlySet<string>;
  readonly deferred: number;
  readonly limited: boolean;
  /** Instances booting, creates in flight and renders. */
  readonly underway: number;
}): ReadonlySet<string> {
  const kinds = new Set(f.planned);
  if (f.deferred > 0 && !(f.limited && f.underway === 0)) for (const k of HELD_BACK_REASONS) kinds.add(k);
  if ([...REPLICA_REASONS].some((k) => kinds.has(k))) for (const k of REPLICA_REASONS) kinds.add(k);
  return kinds;
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
  ]) {
    conditions = setCondition(conditions, input, now, generation);
  }
  return conditions;
}

/**
 * ReplicaFailure after the executor ran: True with the reason and message of the pass's first failed
 * write; False again when this pass sent writes of the kind that had failed and all of them succeeded
 * (an Exporter create or delete for either of those two).
 */
export function withOutcome(
  conditions: readonly Condition[],
  outcome: Pick<ExecutionOutcome, 'changedReplicas' | 'replicaFailure' | 'succeeded'>,
  now: number,
  generation: number | undefined,
): readonly Condition[] {
  const type = ConditionTypes.ReplicaFailure;
  if (outcome.replicaFailure) {
    const { reason, message } = outcome.replicaFailure;
    return setCondition(conditions, { type, status: 'True', reason, message }, now, generation);
  }
  const old = findCondition(conditions, type);
  const retried =
    old !== undefined &&
    ((outcome.changedReplicas && REPLICA_REASONS.has(old.reason)) ||
      outcome.succeeded?.has(old.reason) === true);
  if (retried && old.status === 'True') {
    return setCondition(
      conditions,
      { type, status: 'False', reason: R.NoFailures, message: NO_FAILURES },
      now,
      generation,
    );
  }
  return conditions;
}
