/**
 * Where the real Kubernetes binaries are: built from source by `npm run kube:binaries` (kube/build.sh)
 * into kube/bin of the repository, or wherever VIRTUAL_EXPORTERS_KUBE_BIN points.
 */
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export const KUBE_BINARIES = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kubectl'] as const;
export type KubeBinary = (typeof KUBE_BINARIES)[number];

export interface KubeBinaries {
  readonly dir: string;
  /** Absolute path of each binary. */
  readonly paths: Readonly<Record<KubeBinary, string>>;
  /** The pinned versions the build recorded (`versions.json`), when present. */
  readonly versions: { readonly kubernetes?: string; readonly etcd?: string };
}

/** The folder the binaries are looked up in: $VIRTUAL_EXPORTERS_KUBE_BIN, else kube/bin above the cwd. */
export function kubeBinDir(): string {
  const fromEnv = process.env.VIRTUAL_EXPORTERS_KUBE_BIN;
  if (fromEnv) return resolve(fromEnv);
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'kube', 'build.sh'))) return join(dir, 'kube', 'bin');
    if (dirname(dir) === dir) return resolve('kube', 'bin');
  }
}

const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * Why the real cluster cannot start, or undefined when every binary is there. The sentence names the
 * folder, the missing binaries and the command that builds them.
 */
export function kubeBinariesMissing(dir = kubeBinDir()): string | undefined {
  const missing = KUBE_BINARIES.filter((name) => !executable(join(dir, name)));
  if (missing.length === 0) return undefined;
  return (
    `the real Kubernetes binaries are not built: ${missing.join(', ')} missing in ${dir}. ` +
    'Run `npm run kube:binaries` (needs Go 1.26 and the Go module proxy; the first build takes a long ' +
    'time on 2 cores, later runs reuse it) or point VIRTUAL_EXPORTERS_KUBE_BIN at a folder that has them.'
  );
}

/** The binaries, or an Error saying what is missing and how to build it. */
export function kubeBinaries(dir = kubeBinDir()): KubeBinaries {
  const missing = kubeBinariesMissing(dir);
  if (missing) throw new Error(missing);
  const paths = Object.fromEntries(KUBE_BINARIES.map((name) => [name, join(dir, name)])) as Record<
    KubeBinary,
    string
  >;
  let versions = {};
  try {
    versions = JSON.parse(readFileSync(join(dir, 'versions.json'), 'utf8'));
  } catch {
    // Built by hand without the script: the versions are unknown, the binaries still run.
  }
  return { dir, paths, versions };
}
