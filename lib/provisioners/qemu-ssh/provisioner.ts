import { ProvisionerNames } from '../../api';
import type { InstanceInput, Provisioner, RenderedInstance } from '../provisioner';
import { QemuSshLifecycle } from './lifecycle';
import { renderRemoteFiles } from './remote-files';
import { validateQemuSshParameters } from './validate';

/**
 * The lifecycle the built-in `qemu-ssh.jumpstarter.dev` (and its alias) use: one per process, so host
 * keys trusted on first use and host backoff are shared by every set of the controller.
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
  /** Nothing in the cluster to clean; the lifecycle's teardown removes everything on the host. */
  async cleanup(): Promise<void> {},
  lifecycle: qemuSshLifecycle,
};

/** `qemu-baremetal.jumpstarter.dev`, the JEP's name for the same provisioner: same parameters, same lifecycle. */
export const qemuBaremetalProvisioner: Provisioner = {
  ...qemuSshProvisioner,
  name: ProvisionerNames.qemuBaremetal,
};
