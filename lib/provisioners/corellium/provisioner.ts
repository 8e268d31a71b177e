import { ProvisionerNames } from '../../api';
import type { ValidationIssue } from '../../core/issue';
import { podProvisioner } from '../common/render';
import type { InstanceInput, Provisioner } from '../provisioner';
import { CORELLIUM_TOKEN_KEY } from './constants';
import { CORELLIUM_EXPORT_PROFILE } from './exporter-config';
import { buildCorelliumPod } from './pod';
import { validateCorelliumParameters } from './validate';

/** A Corellium class must name the Secret with the API token: the driver cannot create a device without it. */
function credentialIssues(instance: InstanceInput): ValidationIssue[] {
  if (instance.virtualTargetClass.spec?.credentialsSecretRef?.name) return [];
  return [
    {
      path: 'virtualTargetClass.spec.credentialsSecretRef',
      message:
        `a corellium.jumpstarter.dev class needs credentialsSecretRef naming a Secret whose key ` +
        `"${CORELLIUM_TOKEN_KEY}" holds the Corellium API token; create the Secret and reference it from the class`,
    },
  ];
}

/**
 * `corellium.jumpstarter.dev` (API-backed): each instance is a config Secret and a Pod holding only
 * the exporter, whose Corellium driver creates the cloud device on power on and destroys it on power
 * off. `render` refuses (ValidationError) invalid merged parameters, driver problems, a class without
 * credentials, and an Exporter without uid, endpoint or token, as `qemu.jumpstarter.dev` does.
 * The Exporter owns the Pod and Secret; the cloud device is the driver's: it creates it on power on and
 * destroys it on power off.
 */
export const corelliumProvisioner: Provisioner = podProvisioner({
  name: ProvisionerNames.corellium,
  validate: validateCorelliumParameters,
  profile: CORELLIUM_EXPORT_PROFILE,
  issues: credentialIssues,
  buildPod: buildCorelliumPod,
});
