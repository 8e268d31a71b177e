import { ProvisionerNames } from '../../api';
import { podProvisioner } from '../common/render';
import type { Provisioner } from '../provisioner';
import { ANDROID_EXPORT_PROFILE } from './exporter-config';
import { buildAndroidPod } from './pod';
import { validateAndroidParameters } from './validate';

/**
 * `android.jumpstarter.dev` (in-cluster emulator): each instance is a config Secret and a Pod with
 * the QEMU layout and an Android emulator runtime. `render` refuses (ValidationError) invalid merged
 * parameters, driver problems and an Exporter without uid, endpoint or token, as `qemu.jumpstarter.dev`
 * does. The Exporter owns the Pod and Secret.
 */
export const androidProvisioner: Provisioner = podProvisioner({
  name: ProvisionerNames.android,
  validate: validateAndroidParameters,
  profile: ANDROID_EXPORT_PROFILE,
  buildPod: buildAndroidPod,
});
