import { ProvisionerNames, type JsonObject } from '../../api';
import { ValidationError, prefixIssues, type ValidationIssue } from '../../core/issue';
import type { InstanceInput, Provisioner, RenderedInstance } from '../provisioner';
import { buildConfigSecret } from './config-secret';
import { buildExporterConfig } from './exporter-config';
import { ownerIssues } from './owner';
import { buildQemuPod } from './pod';
import { validateQemuParameters } from './validate';

/**
 * `qemu.jumpstarter.dev`: each instance is a config Secret and a Pod in the cluster.
 * `render` refuses (ValidationError) what `jmp run` could not start with: invalid merged parameters
 * (paths under `parameters`), driver problems (paths under `spec.template.spec.drivers`), and an
 * Exporter without uid, endpoint or token (`jmp run` needs all three, so the Pod comes only after them).
 */
export const qemuProvisioner: Provisioner = {
  name: ProvisionerNames.qemu,

  validate: validateQemuParameters,

  render(instance: InstanceInput): RenderedInstance {
    const { exporterSet, exporter } = instance;
    const name = exporter.metadata?.name ?? '';
    const namespace = exporter.metadata?.namespace ?? exporterSet.metadata?.namespace ?? '';
    const issues: ValidationIssue[] = [
      ...prefixIssues('parameters', validateQemuParameters(instance.parameters)),
      ...ownerIssues(exporter),
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
        message:
          "the Exporter's credential Secret has no token yet; Jumpstarter creates it, render again then",
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
    const pod = buildQemuPod(instance);
    return { objects: [secret as unknown as JsonObject, pod as unknown as JsonObject] };
  },

  /** Nothing to do: the Pod and Secret are owned by the Exporter and garbage-collected with it. */
  async cleanup(): Promise<void> {},
};
