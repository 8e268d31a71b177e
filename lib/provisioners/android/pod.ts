import type { InstancePodInput } from '../common/exporter-pod';
import type { RenderedEnvVar, RenderedPod } from '../qemu/kube';
import { isPlainObject } from '../../core/plain-object';
import { buildRuntimePod } from '../qemu/pod';
import { quantityValue, toQemuSize } from '../qemu/sizes';
import { isWholeCores, MIN_SIZE_BYTES } from '../qemu/validate';
import { AndroidEnvNames, DEFAULT_ANDROID_RUNTIME_IMAGE } from './constants';
import { androidTarget, avdName } from './exporter-config';

/**
 * The runtime sidecar's environment: the AVD it prepares (API level, device profile, ABI and the
 * name the driver starts it by) and, when `resources` gives them, its cores, RAM (whole MiB, as the
 * emulator's `hw.ramSize` reads it) and data partition size (`16Gi` → `16G`). Invalid values are left
 * out; validation reports them.
 */
export function androidRuntimeEnv(parameters: unknown): RenderedEnvVar[] {
  const target = androidTarget(parameters);
  const env: RenderedEnvVar[] = [
    { name: AndroidEnvNames.apiLevel, value: String(target.apiLevel) },
    { name: AndroidEnvNames.device, value: target.device },
    { name: AndroidEnvNames.abi, value: target.abi },
    { name: AndroidEnvNames.avdName, value: avdName(target) },
  ];
  const resources =
    isPlainObject(parameters) && isPlainObject(parameters.resources) ? parameters.resources : {};
  if (isWholeCores(resources.cpu)) {
    env.push({ name: AndroidEnvNames.cores, value: String(Math.round(quantityValue(resources.cpu)!)) });
  }
  const memory = quantityValue(resources.memory);
  if (memory !== undefined && memory >= MIN_SIZE_BYTES) {
    env.push({ name: AndroidEnvNames.memory, value: String(Math.ceil(memory / 2 ** 20)) });
  }
  const storage = quantityValue(resources.storage);
  if (storage !== undefined && storage >= MIN_SIZE_BYTES) {
    env.push({ name: AndroidEnvNames.storage, value: toQemuSize(resources.storage)! });
  }
  return env;
}

/**
 * The Pod of one Android emulator instance: the QEMU Pod layout (qemu/pod.ts) — the launcher binary
 * staged by init `copy-jumpstarter-exec`, the runtime as a native sidecar `target-runtime` serving the
 * launcher socket, the restricted `exporter` with the config Secret and the class credentials, the
 * shared volume sized from `resources.storage` — with the emulator runtime image
 * (`quay.io/jumpstarter-dev/virtual/android-emulator-runtime:latest` unless the class or set names
 * one) told which AVD to prepare ({@link androidRuntimeEnv}). `kvm` adds or removes the KVM device on
 * the runtime exactly as for QEMU.
 */
export function buildAndroidPod(input: InstancePodInput): RenderedPod {
  return buildRuntimePod(input, {
    defaultRuntimeImage: DEFAULT_ANDROID_RUNTIME_IMAGE,
    runtimeEnv: androidRuntimeEnv(input.parameters),
  });
}
