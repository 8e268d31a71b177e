/**
 * Fixed names of the `android.jumpstarter.dev` instance layout. The Pod follows the QEMU layout (the
 * launcher binary staged on the shared volume, a runtime sidecar serving the launcher socket, the
 * exporter beside it); only the runtime image and what it is told differ.
 */

/**
 * Jumpstarter's Android emulator driver (package `jumpstarter-driver-androidemulator`): powers the
 * emulator on and off and tunnels ADB to it. JEP-0014 names no emulator driver of its own (its example
 * lists an ADB driver and an emulator power driver, which are kept as written), so this is the one the
 * provisioner configures and adds.
 */
export const ANDROID_EMULATOR_DRIVER_TYPE = 'jumpstarter_driver_androidemulator.driver.AndroidEmulator';
/** Name of the emulator driver the provisioner adds when the template has none. */
export const DEFAULT_ANDROID_DRIVER_NAME = 'emulator';

/** The emulator runtime image used when neither the class nor the set names one. */
export const DEFAULT_ANDROID_RUNTIME_IMAGE =
  'quay.io/jumpstarter-dev/virtual/android-emulator-runtime:latest';

/** Defaults of the typed parameters. */
export const AndroidDefaults = {
  apiLevel: 34,
  device: 'pixel_6',
  abi: 'x86_64',
} as const;

/** Environment of the runtime sidecar: the AVD it prepares before serving the launcher socket. */
export const AndroidEnvNames = {
  apiLevel: 'ANDROID_API_LEVEL',
  device: 'ANDROID_DEVICE',
  abi: 'ANDROID_ABI',
  avdName: 'ANDROID_AVD_NAME',
  cores: 'ANDROID_CPU_CORES',
  memory: 'ANDROID_RAM_SIZE',
  storage: 'ANDROID_DATA_PARTITION_SIZE',
} as const;
