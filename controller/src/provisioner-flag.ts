import { getProvisioner, implementedProvisionerNames, type Provisioner } from 'virtual-exporters/internal';

/**
 * Resolves `--provisioner=<name>` (JEP DD-2: one binary, one Deployment per provisioner). An unknown
 * or missing name is a startup error that lists what this build knows, so a typo in a Deployment
 * fails loudly instead of reconciling nothing.
 */
export function resolveProvisionerFlag(name: string | undefined): Provisioner {
  const known = implementedProvisionerNames().join(', ');
  if (name === undefined || name.trim() === '') {
    throw new Error(`--provisioner is required; this controller implements: ${known}`);
  }
  const provisioner = getProvisioner(name);
  if (!provisioner) {
    throw new Error(`--provisioner=${name} is not implemented by this controller; use one of: ${known}`);
  }
  return provisioner;
}
