import type { JsonObject } from '../../api';
import { ValidationError, prefixIssues, type ValidationIssue } from '../../core/issue';
import type { InstanceInput, Provisioner, RenderedInstance } from '../provisioner';
import { buildConfigSecret } from '../qemu/config-secret';
import { buildExporterConfig, type ExportProfile } from '../qemu/exporter-config';
import type { RenderedPod } from '../qemu/kube';
import { ownerIssues } from '../qemu/owner';

/** What differs between the in-cluster provisioners' `render`. */
export interface InstanceRecipe {
  /** The provisioner's parameter validation (paths relative to the parameters). */
  validate(parameters: unknown): ValidationIssue[];
  /** Driver defaults and the driver it adds to the exporter config. */
  readonly profile: ExportProfile;
  /** Findings about the instance beyond parameters and drivers (e.g. a class without credentials). */
  issues?(instance: InstanceInput): ValidationIssue[];
  buildPod(instance: InstanceInput): RenderedPod;
}

/**
 * Renders one in-cluster instance as its config Secret and Pod, or refuses (ValidationError) what
 * `jmp run` could not start with: invalid merged parameters (paths under `parameters`), driver
 * problems (paths under `spec.template.spec.drivers`), an Exporter without uid, endpoint or token
 * (`jmp run` needs all three, so the Pod comes only after them), and the recipe's own findings.
 */
export function renderInstance(instance: InstanceInput, recipe: InstanceRecipe): RenderedInstance {
  const { exporterSet, exporter } = instance;
  const name = exporter.metadata?.name ?? '';
  const namespace = exporter.metadata?.namespace ?? exporterSet.metadata?.namespace ?? '';
  const issues: ValidationIssue[] = [
    ...prefixIssues('parameters', recipe.validate(instance.parameters)),
    ...ownerIssues(exporter),
    ...(recipe.issues?.(instance) ?? []),
  ];
  const endpoint = exporter.status?.endpoint;
  if (!endpoint) {
    issues.push({
      path: 'exporter.status.endpoint',
      message: 'the Exporter has no endpoint yet; Jumpstarter sets it, render again once it is there',
    });
  }
  if (!instance.token) {
    issues.push({
      path: 'token',
      message: "the Exporter's credential Secret has no token yet; Jumpstarter creates it, render again then",
    });
  }
  const { config, issues: configIssues } = buildExporterConfig({
    name,
    namespace,
    endpoint: endpoint ?? '',
    token: instance.token,
    caBundle: instance.caBundle,
    drivers: exporterSet.spec?.template?.spec?.drivers,
    parameters: instance.parameters,
    recycleStrategy: exporterSet.spec?.recycleStrategy,
    profile: recipe.profile,
  });
  issues.push(...configIssues);
  if (issues.length > 0) {
    throw new ValidationError(
      `instance ${namespace}/${name} of ExporterSet ${exporterSet.metadata?.name}`,
      issues,
    );
  }
  const exporterSetName = exporterSet.metadata?.name ?? '';
  const secret = buildConfigSecret({ exporter, exporterSetName, config });
  const pod = recipe.buildPod(instance);
  return { objects: [secret as unknown as JsonObject, pod as unknown as JsonObject] };
}

/** What an in-cluster provisioner is made of: its name and its recipe. */
export interface PodProvisionerSpec extends Omit<InstanceRecipe, 'validate'> {
  readonly name: string;
  /** Runs at synth time (with the set's drivers as context) and, without context, in `render`. */
  readonly validate: Provisioner['validate'];
}

/**
 * A provisioner whose instances are a config Secret and a Pod, both owned by the Exporter: `render`
 * is {@link renderInstance} with the spec's recipe; deleting the Exporter garbage-collects both.
 */
export function podProvisioner(spec: PodProvisionerSpec): Provisioner {
  const { name, validate, ...recipe } = spec;
  return {
    name,
    validate,
    render: (instance) =>
      renderInstance(instance, { ...recipe, validate: (parameters) => validate(parameters) }),
  };
}
