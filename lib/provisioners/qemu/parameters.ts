/**
 * Typed parameters of `qemu.jumpstarter.dev`: what a class and a set may put under
 * `spec.parameters`, after the deep merge.
 */

/** Guest architectures the QEMU runtime image emulates. */
export const QEMU_ARCHES = ['x86_64', 'aarch64'] as const;
export type QemuArch = (typeof QEMU_ARCHES)[number];

export function isQemuArch(value: unknown): value is QemuArch {
  return typeof value === 'string' && (QEMU_ARCHES as readonly string[]).includes(value);
}

export interface QemuResources {
  /** Whole CPU cores (QEMU `smp`), e.g. `4` or `"4"`. */
  cpu?: string | number;
  /** Guest RAM as a Kubernetes quantity, e.g. `8Gi`. */
  memory?: string | number;
  /** Guest disk as a Kubernetes quantity, e.g. `16Gi`; also sizes the Pod's shared volume. */
  storage?: string | number;
}

export interface QemuFirmware {
  /** Where the firmware image comes from, e.g. an OCI reference. */
  url?: string;
  /** `<algorithm>:<digest>`, e.g. `sha256:` followed by 64 hex digits. */
  digest?: string;
}

/**
 * Merged parameters. Every field is optional; `null` counts as absent (a set may write `null` to drop
 * a class value). Keys this version does not know are kept and passed through untouched, so a class
 * written for a newer provisioner still validates here and its extra settings are not lost.
 */
export interface QemuParameters {
  arch?: QemuArch;
  /** QEMU machine type, e.g. `virt` or `q35`. */
  machineType?: string;
  resources?: QemuResources;
  firmware?: QemuFirmware;
  /**
   * KVM for the guest: `true` makes the runtime sidecar request the KVM device
   * (`devices.kubevirt.io/kvm`), `false` takes it away even when the class's resources grant it (the
   * guest runs under TCG), absent leaves the class's resources as written (kvm.ts).
   */
  kvm?: boolean;
  [unknown: string]: unknown;
}
