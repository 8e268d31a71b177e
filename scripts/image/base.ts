/**
 * The local stand-in for the official `node:22-bookworm-slim` image, for machines where no registry
 * can be pulled from: Debian's essential packages (mmdebstrap) plus the pinned Node binary and npm,
 * laid out as the official image has them (`/usr/local/bin/node`, `/usr/local/bin/npm`).
 */
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './command';
import { fetchPinned } from './fetch';
import { DEBIAN_PACKAGES, DEBIAN_SUITE, NODE_BINARY, NPM_CLI } from './pins';
import { BUILDAH_GLOBAL, LOCAL_BASE_IMAGE, WORK_DIR } from './settings';

/** Whether buildah's storage already holds `reference`. */
export function imageExists(reference: string): boolean {
  try {
    run('buildah', [...BUILDAH_GLOBAL, 'inspect', '--type', 'image', reference]);
    return true;
  } catch {
    return false;
  }
}

/** Fetches the pinned Node and npm tarballs (verified). */
export function fetchNode(log: (line: string) => void): { node: string; npm: string } {
  return { node: fetchPinned(NODE_BINARY, log), npm: fetchPinned(NPM_CLI, log) };
}

/** Builds and commits {@link LOCAL_BASE_IMAGE} unless the storage has it; returns whether it built. */
export function buildLocalBase(
  tarballs: { node: string; npm: string },
  log: (line: string) => void,
): boolean {
  if (imageExists(LOCAL_BASE_IMAGE)) {
    log(`${LOCAL_BASE_IMAGE}: already in the storage`);
    return false;
  }
  const stage = join(WORK_DIR, 'base-stage');
  const rootfs = join(WORK_DIR, 'base-rootfs.tar');
  rmSync(stage, { recursive: true, force: true });
  const bin = join(stage, 'usr/local/bin');
  const npmDir = join(stage, 'usr/local/lib/node_modules/npm');
  mkdirSync(bin, { recursive: true });
  mkdirSync(npmDir, { recursive: true });
  run('tar', ['-xzf', tarballs.node, '-C', bin, '--strip-components=2', 'package/bin/node']);
  run('tar', ['-xzf', tarballs.npm, '-C', npmDir, '--strip-components=1']);
  symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(bin, 'npm'));
  symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(bin, 'npx'));

  log(`mmdebstrap ${DEBIAN_SUITE} (essential + ${DEBIAN_PACKAGES.join(', ')}), Node ${NODE_BINARY.version}`);
  run('mmdebstrap', [
    '--variant=essential',
    `--include=${DEBIAN_PACKAGES.join(',')}`,
    `--customize-hook=sync-in ${stage} /`,
    DEBIAN_SUITE,
    rootfs,
  ]);
  rmSync(stage, { recursive: true, force: true });

  log(`buildah commit ${LOCAL_BASE_IMAGE}`);
  const container = run('buildah', [...BUILDAH_GLOBAL, 'from', 'scratch']).trim();
  try {
    run('buildah', [...BUILDAH_GLOBAL, 'add', container, rootfs, '/']);
    run('buildah', [
      ...BUILDAH_GLOBAL,
      'config',
      '--env',
      'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      '--env',
      `NODE_VERSION=${NODE_BINARY.version}`,
      '--cmd',
      'node',
      container,
    ]);
    run('buildah', [...BUILDAH_GLOBAL, 'commit', '--rm', container, LOCAL_BASE_IMAGE]);
  } catch (error) {
    run('buildah', [...BUILDAH_GLOBAL, 'rm', container]);
    throw error;
  } finally {
    rmSync(rootfs, { force: true });
  }
  return true;
}
