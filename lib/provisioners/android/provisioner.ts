import { ProvisionerNames } from '../../api';
import { renderInstance } from '../common/render';
import type { InstanceInput, Provisioner, RenderedInstance } from '../provisioner';
import { ANDROID_EXPORT_PROFILE } from './exporter-config';
import { buildAndroidPod } from './pod';
import { validateAndroidParameters } from './validate';

/**
 * `android.jumpstarter.dev` (in-cluster emulator): each instance is a config Secret and a Pod with
 * the QEMU layout and an Android emulator runtime. `render` refuses (ValidationError) invalid merged
 * parameters, driver problems and an Exporter without uid, endpoint or token, as `qemu.jumpstarter.dev`
 * does.
 */
export const androidProvisioner: Provisioner = {
  name: ProvisionerNames.android,

  validate: validateAndroidParameters,

  render(instance: InstanceInput): RenderedInstance {
    return renderInstance(instance, {
      validate: (parameters) => validateAndroidParameters(parameters),
      profile: ANDROID_EXPORT_PROFILE,
      buildPod: buildAndroidPod,
    });
  },

  /** Nothing to do: the Pod and Secret are owned by the Exporter and garbage-collected with it. */
  async cleanup(): Promise<void> {},
};
