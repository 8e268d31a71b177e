import { ProvisionerNames } from '../../api';
import { renderInstance } from '../common/render';
import type { InstanceInput, Provisioner, RenderedInstance } from '../provisioner';
import { QEMU_EXPORT_PROFILE } from './exporter-config';
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
    return renderInstance(instance, {
      validate: (parameters) => validateQemuParameters(parameters),
      profile: QEMU_EXPORT_PROFILE,
      buildPod: buildQemuPod,
    });
  },

  /** Nothing to do: the Pod and Secret are owned by the Exporter and garbage-collected with it. */
  async cleanup(): Promise<void> {},
};
