/**
 * Typed parameters of `qemu-ssh.jumpstarter.dev` (alias `qemu-baremetal.jumpstarter.dev`): what a class
 * and a set may put under `spec.parameters`, after the deep merge. Keys this version does not know are
 * kept (e.g. `runtime.binary`), as for the in-cluster QEMU provisioner.
 */
import type { QemuArch, QemuResources } from '../qemu/parameters';
import { isPlainObject } from '../../core/plain-object';

/** SSH defaults for every host that does not name its own. */
export const DEFAULT_SSH_USER = 'root';
export const DEFAULT_SSH_PORT = 22;

export interface QemuSshConnection {
  /** @default "root" */
  user?: string;
  /** @default 22 */
  port?: number;
}

export interface QemuSshHost {
  /** FQDN or IP address; unique in the list. */
  name: string;
  /** Informational: the host's CPU architecture. */
  arch?: QemuArch;
  /** Most instances the host runs at once. @default 1 */
  slots?: number;
  /** @default ssh.user */
  user?: string;
  /** @default ssh.port */
  port?: number;
}

export interface QemuSshRuntime {
  /** Pass `/dev/kvm` into the runtime container. @default false */
  kvm?: boolean;
  /** More device paths to pass into the runtime container, e.g. `/dev/vhost-net`. */
  devices?: string[];
  [unknown: string]: unknown;
}

export interface QemuSshParameters {
  ssh?: QemuSshConnection;
  hosts: QemuSshHost[];
  runtime?: QemuSshRuntime;
  arch?: QemuArch;
  /** `cpu` and `memory` as for `qemu.jumpstarter.dev`. */
  resources?: QemuResources;
  storage?: { size?: string | number };
  /**
   * Pinned host keys as OpenSSH `known_hosts` text (`host[,host] keytype base64`, `[host]:port` for
   * another port, hashed `|1|…` entries too). A host with no entry is trusted on first use and reported.
   */
  knownHosts?: string;
  [unknown: string]: unknown;
}

/** A host with every default applied: what the lifecycle connects to. */
export interface ResolvedHost {
  readonly name: string;
  readonly slots: number;
  readonly user: string;
  readonly port: number;
}

/**
 * The hosts of (valid) merged parameters with the defaults applied, in the order written. Call it on
 * parameters that passed validation; malformed entries are skipped here.
 */
export function resolveHosts(parameters: unknown): ResolvedHost[] {
  const p = isPlainObject(parameters) ? parameters : {};
  const ssh = isPlainObject(p.ssh) ? p.ssh : {};
  const user = typeof ssh.user === 'string' ? ssh.user : DEFAULT_SSH_USER;
  const port = typeof ssh.port === 'number' ? ssh.port : DEFAULT_SSH_PORT;
  const hosts = Array.isArray(p.hosts) ? p.hosts : [];
  return hosts.filter(isPlainObject).flatMap((h) =>
    typeof h.name === 'string'
      ? [
          {
            name: h.name,
            slots: typeof h.slots === 'number' ? h.slots : 1,
            user: typeof h.user === 'string' ? h.user : user,
            port: typeof h.port === 'number' ? h.port : port,
          },
        ]
      : [],
  );
}

/** The runtime settings the units need: KVM and extra devices, `/dev/kvm` first when asked for. */
export function runtimeDevices(parameters: unknown): string[] {
  const p = isPlainObject(parameters) ? parameters : {};
  const runtime = isPlainObject(p.runtime) ? p.runtime : {};
  const devices = Array.isArray(runtime.devices)
    ? runtime.devices.filter((d): d is string => typeof d === 'string')
    : [];
  const all = runtime.kvm === true ? ['/dev/kvm', ...devices] : devices;
  return [...new Set(all)];
}
