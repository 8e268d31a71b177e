/**
 * The benchmarks run the built code: the controller child is `controller/out/main.js`, and ts-node
 * resolves `virtual-exporters` to `out/lib` and `virtual-exporters-test-cluster` to `test-cluster/out`.
 * `ensureBuilt` runs `npm run build` when an output is missing or older than a source it is built from.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';

/** The repository root (a function: the harness tests load this module as ESM, without `__dirname`). */
export const repositoryRoot = (): string => path.resolve(__dirname, '../..');

/** Each output with the source folders it is built from. */
const OUTPUTS: readonly { output: string; sources: readonly string[] }[] = [
  { output: 'out/lib/index.js', sources: ['lib', 'imports'] },
  { output: 'test-cluster/out/index.js', sources: ['lib', 'imports', 'test-cluster/src'] },
  { output: 'controller/out/main.js', sources: ['lib', 'imports', 'controller/src'] },
];

function newestTs(dir: string): number {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestTs(full));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** Why a build is needed, or undefined when every output is newer than its sources. */
export function staleReason(root: string): string | undefined {
  for (const { output, sources } of OUTPUTS) {
    const file = path.join(root, output);
    if (!existsSync(file)) return `${output} is missing`;
    const built = statSync(file).mtimeMs;
    const stale = sources.find((dir) => newestTs(path.join(root, dir)) > built);
    if (stale) return `${output} is older than ${stale}/`;
  }
  return undefined;
}

export function ensureBuilt(root: string, log: (message: string) => void): void {
  const reason = staleReason(root);
  if (!reason) return;
  log(`building first (${reason}): npm run build`);
  // Build output goes to stderr with the progress lines: stdout stays the results table.
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 2, 2] });
}
