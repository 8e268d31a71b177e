import type { DriverConfig } from '../api';

/** Driver packages are named `jumpstarter_driver_<x>`; the JEP's examples rely on that for names. */
export const DRIVER_PACKAGE_PREFIX = 'jumpstarter_driver_';

/**
 * The name a driver gets in the exporter config's `export` map: its own `name` when given;
 * otherwise, for `type: jumpstarter_driver_<x>.…`, `<x>` (any other package: the package itself);
 * for `ref: a.b.c`, the last segment `c`. Undefined when nothing can be derived.
 * The CRD's uniqueness rule (lib/crds) derives names the same way, in CEL.
 */
export function deriveDriverName(driver: DriverConfig): string | undefined {
  if (typeof driver.name === 'string') return driver.name;
  if (typeof driver.type === 'string' && driver.type.length > 0) {
    const pkg = driver.type.split('.')[0];
    return pkg.startsWith(DRIVER_PACKAGE_PREFIX) ? pkg.slice(DRIVER_PACKAGE_PREFIX.length) : pkg;
  }
  if (typeof driver.ref === 'string' && driver.ref.length > 0) {
    const segments = driver.ref.split('.');
    return segments[segments.length - 1];
  }
  return undefined;
}

/** Names that occur more than once after derivation, in first-seen order. */
export function duplicateDriverNames(drivers: readonly DriverConfig[]): string[] {
  const seen = new Set<string>();
  const dupes: string[] = [];
  for (const d of drivers) {
    const name = deriveDriverName(d);
    if (name === undefined) continue;
    if (seen.has(name) && !dupes.includes(name)) dupes.push(name);
    seen.add(name);
  }
  return dupes;
}

/**
 * The driver as we write it: with its derived name when it has none. Our CRDs accept an
 * unnamed driver, upstream's require the name, so everything we write carries it. A driver with a
 * name, or with nothing to derive one from (which validation reports), is returned as it is.
 */
export function withDerivedName(driver: DriverConfig): DriverConfig {
  if (driver === null || typeof driver !== 'object' || Array.isArray(driver)) return driver;
  if (driver.name !== undefined) return driver;
  const name = deriveDriverName(driver);
  if (!name) return driver;
  const { name: _absent, ...rest } = driver;
  return { name, ...rest };
}
