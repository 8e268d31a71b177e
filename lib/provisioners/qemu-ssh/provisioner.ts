import { ProvisionerNames } from '../../api';
import type { InstanceInput, Provisioner, RenderedInstance } from '../provisioner';
import { QemuSshLifecycle } from './lifecycle';
import { renderRemoteFiles } from './remote-files';
import { validateQemuSshParameters } from './validate';

/**
 * The lifecycle the built-in `qemu-ssh.jumpstarter.dev` (and its alias) use: one per process, so host
 * backoff is shared by every set of the controller. Host keys trusted on first use are kept in each
 * instance's trust store (the controller's: a Secret next to the class's credentials).
 */
export const qemuSshLifecycle = new QemuSshLifecycle();

/**
 * `qemu-ssh.jumpstarter.dev`: each instance runs on an SSH host as Podman quadlet units written by
 * {@link QemuSshLifecycle}; nothing is rendered into the cluster. `render` still checks the instance
 * can be realised (ValidationError otherwise) and returns no objects.
 */
export const qemuSshProvisioner: Provisioner = {
  name: ProvisionerNames.qemuSsh,
  validate: validateQemuSshParameters,
  render(instance: InstanceInput): RenderedInstance {
    renderRemoteFiles(instance);
    return { objects: [] };
  },
  lifecycle: qemuSshLifecycle,
};

/** `qemu-baremetal.jumpstarter.dev`, the JEP's name for the same provisioner: same parameters, same lifecycle. */
export const qemuBaremetalProvisioner: Provisioner = {
  ...qemuSshProvisioner,
  name: ProvisionerNames.qemuBaremetal,
};
