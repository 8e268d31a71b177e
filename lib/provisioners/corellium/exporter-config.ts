import { ProvisionerNames, type DriverConfig, type JsonObject } from '../../api';
import type { ValidationIssue } from '../../core/issue';
import { addedDriverCollisions, type AddedDriver } from '../common/implicit-driver';
import type { ExportProfile, ExporterConfigInput } from '../qemu/exporter-config';
import { isPlainObject } from '../../core/plain-object';
import { CORELLIUM_DRIVER_TYPE, DEFAULT_CORELLIUM_DRIVER_NAME } from './constants';

export function isCorelliumDriver(driver: DriverConfig): boolean {
  return driver.type === CORELLIUM_DRIVER_TYPE;
}

/**
 * The Corellium driver's config for one instance. `device_name` is always the Exporter's name: every
 * instance creates its own cloud device, and two instances must never share (and destroy) one.
 * `project_id`, `device_flavor`, `device_os` and `device_build` come from `api.projectId`,
 * `device.flavor`, `.os` and `.build` where the template's config does not set them (user values win,
 * as for the QEMU driver's defaults). Invalid parameters are skipped here; validation reports them.
 */
export function withCorelliumDefaults(config: JsonObject, input: ExporterConfigInput): JsonObject {
  const params = isPlainObject(input.parameters) ? input.parameters : {};
  const api = isPlainObject(params.api) ? params.api : {};
  const device = isPlainObject(params.device) ? params.device : {};
  const out: JsonObject = { ...config, device_name: input.name };
  const setDefault = (key: string, value: unknown) => {
    if (!Object.hasOwn(out, key) && typeof value === 'string' && value.length > 0) out[key] = value;
  };
  setDefault('project_id', api.projectId);
  setDefault('device_flavor', device.flavor);
  setDefault('device_os', device.os);
  setDefault('device_build', device.build);
  return out;
}

/** The `corellium` driver the provisioner adds when the template has no Corellium driver. */
export const ADDED_CORELLIUM_DRIVER: AddedDriver = {
  provisioner: ProvisionerNames.corellium,
  name: DEFAULT_CORELLIUM_DRIVER_NAME,
  type: CORELLIUM_DRIVER_TYPE,
  purpose: 'to create the cloud device',
};

/**
 * Without a Corellium driver the provisioner adds one named `corellium`; a user driver already called
 * `corellium` (given or derived) would be silently shadowed, so it is reported instead.
 */
export function corelliumDriverCollisions(drivers: unknown): ValidationIssue[] {
  return addedDriverCollisions(ADDED_CORELLIUM_DRIVER, drivers);
}

/**
 * `corellium.jumpstarter.dev`: Corellium drivers of the template get {@link withCorelliumDefaults};
 * without one, a `corellium` driver is added, configured from the parameters alone. No TcpNetwork
 * driver is added: the device runs in Corellium's cloud, not beside the exporter.
 */
export const CORELLIUM_EXPORT_PROFILE: ExportProfile = {
  withDefaults: (type, config, input) =>
    type === CORELLIUM_DRIVER_TYPE ? withCorelliumDefaults(config ?? {}, input) : undefined,
  implicitDriver: {
    name: DEFAULT_CORELLIUM_DRIVER_NAME,
    type: CORELLIUM_DRIVER_TYPE,
    isSatisfiedBy: isCorelliumDriver,
    config: (input) => withCorelliumDefaults({}, input),
    collisions: corelliumDriverCollisions,
  },
};
