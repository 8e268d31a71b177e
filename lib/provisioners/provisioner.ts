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
 * runs at synth time (validate) and in the controller (validate, render, cleanup).
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
  /** Removes anything the instance holds outside the cluster. */
  cleanup(instance: InstanceInput): Promise<void>;
}
