import type { DriverConfig } from '../../api';
import { deriveDriverName } from '../../core/drivers';
import type { ValidationIssue } from '../../core/issue';
import { driverEntries, driverNamePath } from '../qemu/tcp-driver';

/** A driver a provisioner adds under `name` when the template has no driver of `type`. */
export interface AddedDriver {
  readonly provisioner: string;
  readonly name: string;
  readonly type: string;
  /** What the added driver is for, e.g. "to create the cloud device". */
  readonly purpose: string;
}

/** The message for a template driver that would take the name of the driver the provisioner adds. */
export function addedDriverCollisionMessage(added: AddedDriver, driver: DriverConfig): string {
  const origin = typeof driver.name === 'string' ? '' : 'named after its ';
  const what =
    typeof driver.type === 'string' && driver.type.length > 0
      ? ` (${origin}type ${driver.type})`
      : typeof driver.ref === 'string' && driver.ref.length > 0
        ? ` (${origin}ref ${driver.ref})`
        : '';
  return (
    `driver "${added.name}"${what} takes the name of the driver ${added.provisioner} adds ${added.purpose} ` +
    `when the template has no ${added.type} driver; rename this driver, or add your own ${added.type} ` +
    `driver so none is added`
  );
}

/**
 * Without a driver of the added type the provisioner adds one under its name; a template driver
 * already called that (given or derived) would be silently shadowed, so it is reported instead
 * (paths relative to the ExporterSet).
 */
export function addedDriverCollisions(added: AddedDriver, drivers: unknown): ValidationIssue[] {
  const entries = driverEntries(drivers);
  if (entries.some(({ driver }) => driver.type === added.type)) return [];
  return entries
    .filter(({ driver }) => deriveDriverName(driver) === added.name)
    .map(({ index, driver }) => {
      const path = driverNamePath(index, driver);
      const field = path.slice(path.lastIndexOf('.') + 1) as 'name' | 'type' | 'ref';
      return { path, value: driver[field], message: addedDriverCollisionMessage(added, driver) };
    });
}
