/**
 * Fixed names and paths of the QEMU instance layout (config Secret and Pod). The Pod, the exporter config and
 * the runtime image must agree on every one of them, so they live in one place.
 */

/** The Jumpstarter QEMU driver; its entries get the provisioner's defaults (withQemuDefaults). */
export const QEMU_DRIVER_TYPE = 'jumpstarter_driver_qemu.driver.Qemu';
/** The TCP network driver; when the template has none, the provisioner adds one for SSH. */
export const TCP_NETWORK_DRIVER_TYPE = 'jumpstarter_driver_network.driver.TcpNetwork';
/** Name of the TcpNetwork driver the provisioner adds. */
export const DEFAULT_TCP_DRIVER_NAME = 'tcp';

/** Guest SSH is forwarded to this address and port inside the Pod (QEMU user networking). */
export const SSH_FORWARD = { hostaddr: '127.0.0.1', hostport: 2222, guestport: 22 } as const;

/** The `shared` emptyDir: sockets, the launcher binary and the guest disk live here. */
export const SHARED_VOLUME_NAME = 'shared';
export const SHARED_MOUNT_PATH = '/shared';
/** Served by the runtime sidecar, used by the exporter to run QEMU there. */
export const LAUNCHER_SOCKET_PATH = `${SHARED_MOUNT_PATH}/launcher.sock`;
/** Where the exporter image ships the launcher binary, and where the init container puts it. */
export const JUMPSTARTER_EXEC_SOURCE = '/jumpstarter/bin/jumpstarter-exec';
export const JUMPSTARTER_EXEC_TARGET = `${SHARED_MOUNT_PATH}/jumpstarter-exec`;

/** The exporter config Secret volume and the file `jmp run` reads. */
export const CONFIG_VOLUME_NAME = 'exporter-config';
export const CONFIG_MOUNT_PATH = '/etc/jumpstarter/exporters';
export const CONFIG_KEY = 'config.yaml';

export const QemuContainerNames = {
  copyExec: 'copy-jumpstarter-exec',
  runtime: 'target-runtime',
  exporter: 'exporter',
} as const;

/** The exporter runs as the distroless "nonroot" user; the runtime needs root for /dev/kvm. */
export const EXPORTER_UID = 65532;
export const RUNTIME_UID = 0;

/** Environment variables the upstream images read. */
export const QemuEnvNames = {
  launcherSocket: 'JUMPSTARTER_LAUNCHER_SOCKET',
  execLogFields: 'JUMPSTARTER_EXEC_LOG_FIELDS',
} as const;
