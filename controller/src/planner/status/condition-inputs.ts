/**
 * The input of each condition the set reports (set-conditions.ts): what a pass found and decided, in
 * the small shape each condition's rule reads.
 */
import type { ConditionInput } from '../model/conditions';
import type { OffSwitchInput } from '../spec/off-switch';
import type { SpecChecks } from '../spec/spec-checks';
import type { UpstreamFacts } from './upstream-conditions';

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
  /** ProvisionerSwitched (provisioner-switch.ts); undefined until a switch was recorded. */
  readonly switched?: ConditionInput;
}
