/**
 * Where the image test keeps its files and what it names its images. Everything it writes lives under
 * one work directory — `IMAGE_WORK_DIR`, default `<tmp>/virtual-exporters-image` — : downloads, the
 * base image's root filesystem, and buildah's vfs storage, so removing that directory is a clean state.
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEBIAN_SUITE, NODE_BINARY } from './pins';

export const REPO_ROOT = resolve(__dirname, '../..');

export const WORK_DIR = resolve(process.env.IMAGE_WORK_DIR || join(tmpdir(), 'virtual-exporters-image'));
export const DOWNLOAD_DIR = join(WORK_DIR, 'downloads');

/** The Dockerfile the image is built from (context: the repository root). */
export const DOCKERFILE = join(REPO_ROOT, 'controller', 'Dockerfile');

/** The project's version: the controller image's tag. */
export function projectVersion(): string {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** The reference the README's build command gives the image, and the installer's default. */
export function controllerImage(): string {
  return `exporter-set-controller:${projectVersion()}`;
}

/** buildah names images built without a registry under `localhost/`. */
export function localReference(reference: string): string {
  return reference.includes('/') ? reference : `localhost/${reference}`;
}

/** The local stand-in for `node:22-bookworm-slim`. */
export const LOCAL_BASE_IMAGE = `localhost/virtual-exporters-node-base:${NODE_BINARY.version}-${DEBIAN_SUITE}`;

/**
 * A base to build on instead of the local one (e.g. `docker.io/library/node:22-bookworm-slim` where a
 * registry can be pulled from); the local base is not built then.
 */
export const NODE_BASE_OVERRIDE = process.env.IMAGE_NODE_BASE || undefined;

/** buildah's global options: daemonless, vfs storage inside the work directory. */
export const BUILDAH_GLOBAL = [
  '--root',
  join(WORK_DIR, 'storage'),
  '--runroot',
  join(WORK_DIR, 'run'),
  '--storage-driver',
  'vfs',
] as const;

/** RUN steps and `buildah run` in a chroot: no OCI runtime, the host's network (loopback included). */
export const ISOLATION = ['--isolation', 'chroot'] as const;
