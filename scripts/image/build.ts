/**
 * Builds controller/Dockerfile with buildah (no daemon): `buildah bud --isolation chroot` on vfs
 * storage, the base given as the `NODE_BASE` build argument. RUN steps share the host's network, so
 * `npm ci` inside reaches the registry of the host's npm config, which is passed in with any proxy.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { imageExists } from './base';
import { run } from './command';
import { BUILDAH_GLOBAL, DOCKERFILE, ISOLATION, REPO_ROOT, WORK_DIR, localReference } from './settings';

/** Proxy variables Docker and buildah pass to RUN steps without an ARG in the Dockerfile. */
const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy'];

export function buildArgs(nodeBase: string): string[] {
  const registry = run('npm', ['config', 'get', 'registry']).trim();
  const args = [`NODE_BASE=${nodeBase}`, `NPM_CONFIG_REGISTRY=${registry}`];
  for (const name of PROXY_VARIABLES) {
    const value = process.env[name];
    if (value) args.push(`${name}=${value}`);
  }
  return args.flatMap((arg) => ['--build-arg', arg]);
}

/** Where the RUN steps see the host's CA bundle and an npm config naming it. */
const CA_IN_BUILD = '/usr/local/etc/host-ca.crt';
/** npm's global config for a Node installed under /usr/local, as in the official image. */
const NPMRC_IN_BUILD = '/usr/local/etc/npmrc';

/**
 * Bind mounts of the RUN steps (not part of any layer) that make npm trust what the host's npm trusts:
 * the CA bundle of the host's npm config (`cafile`) or of `NODE_EXTRA_CA_CERTS` — e.g. the root of a
 * TLS-inspecting egress proxy. None when the host has neither.
 */
export function trustVolumes(): string[] {
  const configured = run('npm', ['config', 'get', 'cafile']).trim();
  const cafile = configured && configured !== 'null' ? configured : process.env.NODE_EXTRA_CA_CERTS;
  if (!cafile || !existsSync(cafile)) return [];
  mkdirSync(WORK_DIR, { recursive: true });
  const npmrc = join(WORK_DIR, 'build-npmrc');
  writeFileSync(npmrc, `cafile=${CA_IN_BUILD}\n`);
  return [`${cafile}:${CA_IN_BUILD}:ro`, `${npmrc}:${NPMRC_IN_BUILD}:ro`].flatMap((v) => ['--volume', v]);
}

/** Builds the controller image as `reference` on `nodeBase` (pulled only when `pull`). */
export function buildControllerImage(reference: string, nodeBase: string, pull: boolean): void {
  // The previous build of this tag would stay behind untagged, one more copy in the vfs storage per run.
  if (imageExists(localReference(reference))) {
    run('buildah', [...BUILDAH_GLOBAL, 'rmi', '--force', localReference(reference)]);
  }
  run(
    'buildah',
    [
      ...BUILDAH_GLOBAL,
      'bud',
      ...ISOLATION,
      pull ? '--pull=true' : '--pull=never',
      ...buildArgs(nodeBase),
      ...trustVolumes(),
      '--file',
      DOCKERFILE,
      '--tag',
      localReference(reference),
      REPO_ROOT,
    ],
    { stream: true },
  );
}
