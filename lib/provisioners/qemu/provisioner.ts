import { ProvisionerNames } from '../../api';
import { podProvisioner } from '../common/render';
import type { Provisioner } from '../provisioner';
import { QEMU_EXPORT_PROFILE } from './exporter-config';
import { buildQemuPod } from './pod';
import { validateQemuParameters } from './validate';

/**
 * `qemu.jumpstarter.dev`: each instance is a config Secret and a Pod in the cluster.
 * `render` refuses (ValidationError) what `jmp run` could not start with: invalid merged parameters
 * (paths under `parameters`), driver problems (paths under `spec.template.spec.drivers`), and an
 * Exporter without uid, endpoint or token (`jmp run` needs all three, so the Pod comes only after them).
 * The Pod and Secret are owned by the Exporter and garbage-collected with it.
 */
export const qemuProvisioner: Provisioner = podProvisioner({
  name: ProvisionerNames.qemu,
  validate: validateQemuParameters,
  profile: QEMU_EXPORT_PROFILE,
  buildPod: buildQemuPod,
});
