/**
 * Typed parameters of `android.jumpstarter.dev`: what a class and a set may put under
 * `spec.parameters`, after the deep merge.
 */

/** Lowest API level accepted: Android 5.0, the first with 64-bit emulator system images. */
export const MIN_API_LEVEL = 21;
/** Highest API level accepted: room for the releases after this version, not an arbitrary number. */
export const MAX_API_LEVEL = 40;

/** System image ABIs the emulator runtime runs: x86_64 on x86 nodes, arm64-v8a on arm64 nodes. */
export const ANDROID_ABIS = ['x86_64', 'arm64-v8a'] as const;
export type AndroidAbi = (typeof ANDROID_ABIS)[number];

export function isAndroidAbi(value: unknown): value is AndroidAbi {
  return typeof value === 'string' && (ANDROID_ABIS as readonly string[]).includes(value);
}

/** Longest device profile id accepted. */
export const MAX_DEVICE_LENGTH = 64;
const DEVICE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function isApiLevel(value: unknown): value is number {
  return (
    typeof value === 'number' && Number.isInteger(value) && value >= MIN_API_LEVEL && value <= MAX_API_LEVEL
  );
}

/** An AVD hardware profile id such as `pixel_6`. */
export function isDevice(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_DEVICE_LENGTH && DEVICE.test(value);
}

export interface AndroidResources {
  /** Emulator CPU cores, e.g. `4` or `"4"`. */
  cpu?: string | number;
  /** Emulator RAM as a Kubernetes quantity, e.g. `4Gi`. */
  memory?: string | number;
  /** The data partition as a Kubernetes quantity, e.g. `8Gi`; also sizes the Pod's shared volume. */
  storage?: string | number;
}

/**
 * Merged parameters. Every field is optional (defaults: API level 34, `pixel_6`, `x86_64`); `null`
 * counts as absent. Keys this version does not know are kept and not reported.
 */
export interface AndroidParameters {
  /** The Android API level of the system image, a whole number from 21 to 40. */
  apiLevel?: number;
  /** The hardware profile of the AVD (`avdmanager list device` ids), e.g. `pixel_6`. */
  device?: string;
  abi?: AndroidAbi;
  resources?: AndroidResources;
  /** KVM for the emulator, as the QEMU provisioner's `kvm`: true requests the device, false removes it. */
  kvm?: boolean;
  [unknown: string]: unknown;
}
