/**
 * Fetches a pinned npm package's tarball with `npm pack` (the npm registry of the host's npm config),
 * into the work directory, and checks it against the pinned integrity; a tarball already there that
 * matches is used again.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './command';
import type { PinnedPackage } from './pins';
import { DOWNLOAD_DIR } from './settings';

/** The SRI string (`sha512-<base64>`) of a file. */
export function integrityOf(path: string): string {
  return `sha512-${createHash('sha512').update(readFileSync(path)).digest('base64')}`;
}

/** The path of the verified tarball of `pin`. */
export function fetchPinned(pin: PinnedPackage, log: (line: string) => void): string {
  mkdirSync(DOWNLOAD_DIR, { recursive: true });
  const tarball = join(DOWNLOAD_DIR, `${pin.name}-${pin.version}.tgz`);
  if (existsSync(tarball) && integrityOf(tarball) === pin.integrity) {
    log(`${pin.name}@${pin.version}: already downloaded`);
    return tarball;
  }
  log(`npm pack ${pin.name}@${pin.version}`);
  run('npm', ['pack', `${pin.name}@${pin.version}`, '--pack-destination', DOWNLOAD_DIR, '--silent'], {
    cwd: DOWNLOAD_DIR,
  });
  const actual = existsSync(tarball) ? integrityOf(tarball) : 'no file';
  if (actual !== pin.integrity) {
    rmSync(tarball, { force: true });
    throw new Error(
      `${pin.name}@${pin.version} from the npm registry has integrity ${actual}, not the pinned ` +
        `${pin.integrity}: check the registry (npm config get registry) or update the pin in scripts/image/pins.ts.`,
    );
  }
  return tarball;
}
