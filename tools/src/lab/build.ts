/**
 * The lab runs the BUILT controller (`controller/out/main.js`), and its own TypeScript resolves
 * `virtual-exporters` to the built library (`out/lib`) and the controller and the test cluster to their
 * packages' `out/`. So before anything else it checks that every source of those has an output at
 * least as new, and runs `npm run build` when one is missing or older (a fresh clone, or edited
 * sources); an up-to-date tree starts at once.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Where `npm run build` compiles each source tree (tsconfig.build.json and each package's tsconfig.json). */
export const BUILD_TREES = [
  { sources: 'lib', outputs: 'out/lib' },
  { sources: 'imports', outputs: 'out/imports' },
  { sources: 'test-cluster/src', outputs: 'test-cluster/out' },
  { sources: 'controller/src', outputs: 'controller/out' },
] as const;

/** Why the build is out of date (the first source found without a fresh output), or undefined. */
export function staleBuild(root: string): string | undefined {
  for (const tree of BUILD_TREES) {
    const sourceDir = join(root, tree.sources);
    if (!existsSync(sourceDir)) continue;
    for (const source of typeScriptFiles(sourceDir)) {
      const output = join(root, tree.outputs, relative(sourceDir, source)).replace(/\.ts$/, '.js');
      if (!existsSync(output)) return `${relative(root, output)} is missing`;
      if (statSync(output).mtimeMs < statSync(source).mtimeMs) {
        return `${relative(root, source)} changed since the last build`;
      }
    }
  }
  return undefined;
}

/** Runs `npm run build` in `root` when {@link staleBuild} says so; its output goes to stderr. */
export function ensureBuilt(root: string, log: (message: string) => void): void {
  const reason = staleBuild(root);
  if (reason === undefined) return;
  log(`building first (${reason}): npm run build`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`npm run build failed (exit code ${result.status})`);
}

function* typeScriptFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* typeScriptFiles(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}
