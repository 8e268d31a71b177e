// The pack command jsii-pacmak runs (`--pack-command`), in its copy of jsii/: an npm tarball of the
// facade with the TypeScript library bundled in `node_modules/`, as jsii requires of a dependency that
// is not a jsii module. `npm pack` cannot do it from a workspace (the library and its dependencies are
// hoisted to the repository's node_modules, so nothing would be bundled), so this script lays out the
// bundled tree itself and then runs `npm pack` on it:
//   node_modules/virtual-exporters   the root package exactly as `npm pack` of the root publishes it
//   node_modules/<dependency>        its runtime dependencies' closure, from the repository's node_modules
// cdk8s and constructs are not bundled: they are jsii modules the host language loads (peer dependencies).
// Prints the tarball's file name last, as jsii-pacmak reads it.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const here = process.cwd();
const rootManifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
const LIBRARY = rootManifest.name;

const facade = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
if (!(facade.bundleDependencies ?? []).includes(LIBRARY)) {
  throw new Error(`pack.mjs: ${join(here, 'package.json')} must list "${LIBRARY}" in bundleDependencies`);
}
if (!existsSync(join(repoRoot, 'out', 'lib', 'cdk8s', 'index.js'))) {
  throw new Error(
    `pack.mjs: ${repoRoot}/out/lib is not built; run "npx tsc -p tsconfig.build.json" at the repository root first`,
  );
}

// The facade's own devDependencies came along with jsii-pacmak's copy; only bundled packages ship.
rmSync(join(here, 'node_modules'), { recursive: true, force: true });
const modules = join(here, 'node_modules');
mkdirSync(modules);

// 1. The library, from `npm pack` of the root: the same files a registry user would install.
const scratch = mkdtempSync(join(tmpdir(), 'virtual-exporters-pack-'));
try {
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', scratch], {
      cwd: repoRoot,
      encoding: 'utf8',
    }),
  );
  const libraryDir = join(modules, LIBRARY);
  mkdirSync(libraryDir);
  execFileSync('tar', ['-xzf', join(scratch, packed[0].filename), '-C', libraryDir, '--strip-components=1']);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

// 2. The library's runtime dependencies and theirs (optional ones left out), laid out flat; two versions of one package would
// need nesting, which this layout refuses with a clear error rather than shipping the wrong one.
/** Where Node would find `name` from a package in `fromDir`: the nearest node_modules up the tree. */
function findInstalled(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}
const bundled = new Map(); // name → version
const queue = Object.keys(rootManifest.dependencies ?? {}).map((name) => ({ name, from: repoRoot }));
while (queue.length > 0) {
  const { name, from } = queue.shift();
  const source = findInstalled(name, from);
  if (source === undefined) {
    throw new Error(
      `pack.mjs: ${name} (needed by ${from}) is not installed; run "npm ci" at the repository root`,
    );
  }
  const manifest = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));
  const seen = bundled.get(name);
  if (seen !== undefined) {
    if (seen !== manifest.version) {
      throw new Error(
        `pack.mjs: two versions of ${name} (${seen}, ${manifest.version}) would have to be bundled`,
      );
    }
    continue;
  }
  bundled.set(name, manifest.version);
  cpSync(source, join(modules, name), { recursive: true, dereference: true });
  // Optional dependencies are native speed-ups (ssh2's cpu-features) whose packages work without them.
  const optional = new Set(Object.keys(manifest.optionalDependencies ?? {}));
  for (const dep of Object.keys(manifest.dependencies ?? {})) {
    if (!optional.has(dep)) queue.push({ name: dep, from: source });
  }
}
for (const name of bundled.keys())
  rmSync(join(modules, name, 'node_modules'), { recursive: true, force: true });

// 3. npm pack of this directory: `bundleDependencies` names only the library, but npm bundles a bundled
// package's own dependencies with it, so the flat tree above ships whole.
const out = JSON.parse(
  execFileSync('npm', ['pack', '--json', '--ignore-scripts'], { cwd: here, encoding: 'utf8' }),
);
process.stderr.write(
  `pack.mjs: bundled ${LIBRARY} and ${[...bundled].map(([n, v]) => `${n}@${v}`).join(', ')}\n`,
);
process.stdout.write(`${out[0].filename}\n`);
