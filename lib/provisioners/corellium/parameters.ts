/**
 * Typed parameters of `corellium.jumpstarter.dev`: what a class and a set may put under
 * `spec.parameters`, after the deep merge.
 */

export interface CorelliumApi {
  /** The Corellium API host, without scheme or path, e.g. `app.corellium.com`. Required. */
  host?: string;
  /** The id (a UUID) of the Corellium project the devices are created in. Required. */
  projectId?: string;
}

export interface CorelliumDevice {
  /** The device flavor, e.g. `kronos`. Required. */
  flavor?: string;
  /** The firmware/OS version to create the device with, e.g. `"1.1.1"` (a string: quote it in YAML). */
  os?: string;
  /** The firmware build to create the device with, e.g. `Critical Application Monitor (Baremetal)`. */
  build?: string;
}

/**
 * Merged parameters. `api.host`, `api.projectId` and `device.flavor` are required; `null` counts as
 * absent. Keys this version does not know are kept and not reported, as for `qemu.jumpstarter.dev`.
 */
export interface CorelliumParameters {
  api?: CorelliumApi;
  device?: CorelliumDevice;
  [unknown: string]: unknown;
}
