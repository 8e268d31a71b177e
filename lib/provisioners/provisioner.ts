import type { DriverConfig, Exporter, ExporterSet, JsonObject, VirtualTargetClass } from '../api';
import type { ValidationIssue } from '../core/issue';

/** What a provisioner's `validate` may look at besides the merged parameters. */
export interface ValidationContext {
  /** The set's template drivers, so driver-level conflicts are found at synth time too. */
  readonly drivers?: readonly DriverConfig[];
}

/** Everything needed to realise one instance (one Exporter) of a set. */
export interface InstanceInput {
  readonly exporterSet: ExporterSet;
  readonly virtualTargetClass: VirtualTargetClass;
  /** deepMerge(class.spec.parameters, set.spec.parameters). */
  readonly parameters: JsonObject;
  /** The Exporter CR of this instance; its name names the Pod, its uid owns the rendered objects. */
  readonly exporter: Exporter;
  /** The exporter's token from its credential Secret (`<exporter>-exporter`, key `token`). */
  readonly token: string;
  /** PEM CA bundle text for `tls.ca`, if one was found. */
  readonly caBundle?: string;
}

/** Kubernetes objects that realise an instance in the cluster, as plain wire objects. */
export interface RenderedInstance {
  readonly objects: readonly JsonObject[];
}

/**
 * A provisioner plug-in, named by `VirtualTargetClass.spec.provisioner`. The same object
 * runs at synth time (validate) and in the controller (validate, render, lifecycle). What an instance
 * holds in the cluster goes with its Exporter by owner reference; what it holds elsewhere is removed by
 * the lifecycle's `teardown`, before the Exporter is deleted, so a failure there is retried.
 */
export interface Provisioner {
  readonly name: string;
  /**
   * Precise findings (path, value, rule); empty when valid. Parameter findings have paths relative
   * to the parameters (`resources.memory`); findings about `context.drivers` have the set's paths
   * (`spec.template.spec.drivers[1].name`), so callers re-path only the former.
   */
  validate(parameters: unknown, context?: ValidationContext): ValidationIssue[];
  /** The objects for one instance; throws a ValidationError when the input cannot be rendered. */
  render(instance: InstanceInput): RenderedInstance;
  /**
   * The imperative lifecycle of an instance that is not a Pod (off-cluster hosts, cloud devices). The
   * controller realises such instances through it instead of applying `render`'s objects; in-cluster
   * provisioners leave it undefined.
   */
  readonly lifecycle?: InstanceLifecycle;
}

/** Where an off-cluster instance runs, persisted as annotations on its Exporter. */
export type Placement = Readonly<Record<string, string>>;

/** An instance as its provisioner sees it; the planner's recycle, startup and drain rules read this. */
export type InstanceRunState = 'running' | 'exited' | 'failed' | 'absent' | 'unknown';

export interface ObservedInstance {
  readonly state: InstanceRunState;
  /** Machine-readable cause (e.g. HostUnreachable, UnitFailed); never a secret. */
  readonly reason?: string;
  /** A sentence for a condition or event; never a secret. */
  readonly message?: string;
}

/** What a lifecycle reads from the class's credentials Secret (`spec.credentials`), by key. */
export type ProvisionerCredentials = Readonly<Record<string, string>>;

/**
 * A finding worth an event that is not an error, e.g. a host key recorded on first use. Never a
 * secret in either field.
 */
export interface LifecycleNotice {
  readonly reason: string;
  readonly message: string;
}

/**
 * What a lifecycle trusted on first use (an SSH host's key), kept so that a restarted controller trusts
 * the same and refuses a change: one text document, read and replaced whole. The controller keeps it
 * next to the class's credentials; the library only calls this interface, it never writes to the API
 * server itself.
 */
export interface TrustStore {
  /** Where the document is kept, for messages telling an admin how to accept a change; never a secret. */
  readonly location: string;
  /** The document as last read (a replace that finds it changed reads it again); undefined when none. */
  read(): Promise<string | undefined>;
  /**
   * Writes `next` if the document is still `expected` (undefined: none yet); resolves false, writing
   * nothing, when another writer changed it first. Rejects when it cannot be read or written.
   */
  replace(expected: string | undefined, next: string): Promise<boolean>;
}

/** An instance to realise, observe or tear down, with the class's credentials. */
export interface LifecycleInstance extends InstanceInput {
  readonly credentials: ProvisionerCredentials;
  /** Where trust on first use is kept across restarts; without it, only in the lifecycle's memory. */
  readonly trust?: TrustStore;
  /** Reports a notice; the controller records it as an event on the instance's set. */
  readonly notify?: (notice: LifecycleNotice) => void;
}

/**
 * The imperative, idempotent lifecycle of an instance that is not a Pod. Every operation may be
 * retried after a crash at any point: realise finds what it already wrote, teardown treats "nothing
 * there" as success, and realisedNames finds instances placed but never recorded on an Exporter.
 */
export interface InstanceLifecycle {
  /**
   * Realises the instance and returns where it runs (idempotent: a second call for a realised
   * instance changes nothing). `placements` are those of the set's other instances, including ones
   * being placed in the same pass, so capacity is counted before their annotations exist.
   */
  realise(instance: LifecycleInstance, placements: readonly Placement[]): Promise<Placement>;
  /** The instance's state; an unreachable host is `unknown` with a reason naming it, never a throw. */
  observe(instance: LifecycleInstance, placement: Placement): Promise<ObservedInstance>;
  /** Stops and removes everything the instance holds (idempotent: nothing there is success). */
  teardown(instance: LifecycleInstance, placement: Placement): Promise<void>;
  /**
   * Names of the instances of `namespace` found realised on the provisioner's hosts, for leftover
   * removal. Only that namespace's: hosts are shared, and a set of the same name in another namespace
   * has instances of the same names that are not leftovers. `trust` is the instances' (LifecycleInstance).
   */
  realisedNames(
    parameters: JsonObject,
    credentials: ProvisionerCredentials,
    namespace: string,
    trust?: TrustStore,
  ): Promise<readonly string[]>;
}
