/**
 * The host tools the image test needs, installed from Debian when missing (CI runs as root):
 * `buildah` builds and runs images without a daemon, `mmdebstrap` makes the local base's root
 * filesystem from Debian's packages.
 */
import { available, run } from './command';

/** Command → the Debian package that provides it. */
export const HOST_TOOLS: Readonly<Record<string, string>> = {
  buildah: 'buildah',
  mmdebstrap: 'mmdebstrap',
};

/** Installs the packages of missing tools; returns the packages installed (none when all were there). */
export function ensureHostTools(log: (line: string) => void): string[] {
  const missing = Object.entries(HOST_TOOLS)
    .filter(([command]) => !available(command))
    .map(([, pkg]) => pkg);
  if (missing.length === 0) return [];
  if (process.getuid?.() !== 0) {
    throw new Error(
      `${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not installed and this is not root: ` +
        `run \`sudo apt-get install -y --no-install-recommends ${missing.join(' ')}\` first.`,
    );
  }
  const install = ['install', '-y', '--no-install-recommends', ...missing];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  log(`apt-get ${install.join(' ')}`);
  try {
    run('apt-get', install, { env });
  } catch {
    // A fresh machine may have no package lists yet.
    log('apt-get update, then again');
    run('apt-get', ['update'], { env });
    run('apt-get', install, { env });
  }
  return missing;
}
