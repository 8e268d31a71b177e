import type { DriverConfig } from '../../api';
import { deriveDriverName } from '../../core/drivers';
import type { ValidationIssue } from '../../core/issue';
import { DEFAULT_TCP_DRIVER_NAME, SSH_FORWARD, TCP_NETWORK_DRIVER_TYPE } from './constants';
import { isPlainObject } from '../../core/plain-object';

/** Where driver issues point: paths are relative to the ExporterSet object. */
export const TEMPLATE_DRIVERS_PATH = 'spec.template.spec.drivers';

/** The template's drivers that are objects, with their index (bad entries are reported elsewhere). */
export function driverEntries(drivers: unknown): { index: number; driver: DriverConfig }[] {
  if (!Array.isArray(drivers)) return [];
  const entries: { index: number; driver: DriverConfig }[] = [];
  drivers.forEach((driver, index) => {
    if (isPlainObject(driver)) entries.push({ index, driver: driver as DriverConfig });
  });
  return entries;
}

export function isTcpNetworkDriver(driver: DriverConfig): boolean {
  return driver.type === TCP_NETWORK_DRIVER_TYPE;
}

/**
 * The path of the field a driver's name comes from: `name` when given, else the `type` or `ref` it is
 * derived from.
 */
export function driverNamePath(index: number, driver: DriverConfig): string {
  const field = typeof driver.name === 'string' ? 'name' : hasType(driver) ? 'type' : 'ref';
  return `${TEMPLATE_DRIVERS_PATH}[${index}].${field}`;
}

/** The message for a user driver that would clash with the `tcp` driver the provisioner adds. */
export function tcpDriverCollisionMessage(driver: DriverConfig): string {
  const origin = typeof driver.name === 'string' ? '' : 'named after its ';
  const what = hasType(driver)
    ? `type ${driver.type}`
    : typeof driver.ref === 'string' && driver.ref.length > 0
      ? `ref ${driver.ref}`
      : undefined;
  return (
    `driver "${DEFAULT_TCP_DRIVER_NAME}"${what ? ` (${origin}${what})` : ''} takes the name of the driver ` +
    `qemu.jumpstarter.dev adds for guest SSH on ${SSH_FORWARD.hostaddr}:${SSH_FORWARD.hostport} when the ` +
    `template has no ${TCP_NETWORK_DRIVER_TYPE} driver; rename this driver, or add your own ` +
    `${TCP_NETWORK_DRIVER_TYPE} driver so none is added`
  );
}

/**
 * Without a TcpNetwork driver the provisioner adds one named `tcp`. A user driver that is
 * already called `tcp` (given or derived) and is not a TcpNetwork would be silently shadowed, so it is
 * reported instead.
 */
export function tcpDriverCollisions(drivers: unknown): ValidationIssue[] {
  const entries = driverEntries(drivers);
  if (entries.some(({ driver }) => isTcpNetworkDriver(driver))) return [];
  return entries
    .filter(({ driver }) => deriveDriverName(driver) === DEFAULT_TCP_DRIVER_NAME)
    .map(({ index, driver }) => {
      const path = driverNamePath(index, driver);
      const field = path.slice(path.lastIndexOf('.') + 1) as 'name' | 'type' | 'ref';
      return { path, value: driver[field], message: tcpDriverCollisionMessage(driver) };
    });
}

function hasType(driver: DriverConfig): boolean {
  return typeof driver.type === 'string' && driver.type.length > 0;
}
