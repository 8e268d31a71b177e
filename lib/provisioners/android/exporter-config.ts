import { ProvisionerNames, type DriverConfig, type JsonObject } from '../../api';
import type { ValidationIssue } from '../../core/issue';
import { addedDriverCollisions, type AddedDriver } from '../common/implicit-driver';
import type { ExportProfile } from '../qemu/exporter-config';
import { isPlainObject } from '../../core/plain-object';
import { ANDROID_EMULATOR_DRIVER_TYPE, AndroidDefaults, DEFAULT_ANDROID_DRIVER_NAME } from './constants';
import { isAndroidAbi, isApiLevel, isDevice } from './parameters';

/** The AVD the runtime prepares and the driver starts: what it is, from the parameters or defaults. */
export interface AndroidTarget {
  readonly apiLevel: number;
  readonly device: string;
  readonly abi: string;
}

/** The parameters' target, each field its default when absent or invalid (validation reports those). */
export function androidTarget(parameters: unknown): AndroidTarget {
  const p = isPlainObject(parameters) ? parameters : {};
  return {
    apiLevel: isApiLevel(p.apiLevel) ? p.apiLevel : AndroidDefaults.apiLevel,
    device: isDevice(p.device) ? p.device : AndroidDefaults.device,
    abi: isAndroidAbi(p.abi) ? p.abi : AndroidDefaults.abi,
  };
}

/** The AVD's name, the same in the runtime's environment and the driver's config: `pixel_6-api34-x86_64`. */
export function avdName(target: AndroidTarget): string {
  return `${target.device}-api${target.apiLevel}-${target.abi}`;
}

export function isAndroidEmulatorDriver(driver: DriverConfig): boolean {
  return driver.type === ANDROID_EMULATOR_DRIVER_TYPE;
}

/**
 * The emulator driver's config: `avd_name` ← the AVD the runtime prepared, `headless` ← true (no
 * display in a Pod), each only where the template's config does not set it (user values win).
 */
export function withAndroidDefaults(config: JsonObject, parameters: unknown): JsonObject {
  const out: JsonObject = { ...config };
  if (!Object.hasOwn(out, 'avd_name')) out.avd_name = avdName(androidTarget(parameters));
  if (!Object.hasOwn(out, 'headless')) out.headless = true;
  return out;
}

/** The `emulator` driver the provisioner adds when the template has no emulator driver. */
export const ADDED_ANDROID_DRIVER: AddedDriver = {
  provisioner: ProvisionerNames.android,
  name: DEFAULT_ANDROID_DRIVER_NAME,
  type: ANDROID_EMULATOR_DRIVER_TYPE,
  purpose: 'to power the emulator',
};

export function androidDriverCollisions(drivers: unknown): ValidationIssue[] {
  return addedDriverCollisions(ADDED_ANDROID_DRIVER, drivers);
}

/**
 * `android.jumpstarter.dev`: emulator drivers of the template get {@link withAndroidDefaults}; without
 * one an `emulator` driver is added. Other drivers (an ADB or power driver, as in the JEP's example) are
 * kept as written. No TcpNetwork driver is added.
 */
export const ANDROID_EXPORT_PROFILE: ExportProfile = {
  withDefaults: (type, config, input) =>
    type === ANDROID_EMULATOR_DRIVER_TYPE ? withAndroidDefaults(config ?? {}, input.parameters) : undefined,
  implicitDriver: {
    name: DEFAULT_ANDROID_DRIVER_NAME,
    type: ANDROID_EMULATOR_DRIVER_TYPE,
    isSatisfiedBy: isAndroidEmulatorDriver,
    config: (input) => withAndroidDefaults({}, input.parameters),
    collisions: androidDriverCollisions,
  },
};
