/**
 * The package as a user gets it: compiled into a staging copy of the package root, packed with
 * `npm pack`, and unpacked into the `node_modules` of a scratch project whose other dependencies are
 * symlinks into this repository's `node_modules` (no network, no registry).
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

const root = process.cwd();
const exec = promisify(execFile);

/** What a command printed; a failing command rejects with its output in the message. */
export interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command and resolves with its exit code and output, whatever the exit code. */
export async function run(command: string, args: readonly string[], cwd: string): Promise<RunResult> {
  try {
    const { stdout, stderr } = await exec(command, [...args], {
      cwd,
      // The test runner's NODE_OPTIONS (--experimental-vm-modules) is not what a user's node runs with.
      env: { ...process.env, NODE_OPTIONS: '', npm_config_update_notifier: 'false' },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof err.code !== 'number') throw e;
    return { code: err.code, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

/** Like {@link run}, but a non-zero exit fails with what the command printed. */
export async function runOk(command: string, args: readonly string[], cwd: string): Promise<RunResult> {
  const result = await run(command, args, cwd);
  if (result.code !== 0) {
    const shown = [command, ...args].join(' ');
    throw new Error(`${shown} (in ${cwd}) exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  }
  return result;
}

/** The repository's TypeScript compiler, as a command for {@link run}. */
export const TSC: readonly [string, string] = [
  process.execPath,
  path.join(root, 'node_modules/typescript/bin/tsc'),
];

export interface PackedPackage {
  /** The `.tgz` `npm pack` wrote. */
  readonly tarball: string;
  /** Every path in the tarball, relative to the package root, as `npm pack --json` lists them. */
  readonly files: readonly string[];
}

/**
 * Builds the library with tsconfig.build.json into a staging copy of the package root (package.json,
 * README, license and every non-`out/` entry of `files`) and packs it there, so the repository's own
 * `out/` is neither needed nor touched.
 */
export async function buildAndPack(workDir: string): Promise<PackedPackage> {
  const stage = path.join(workDir, 'stage');
  fs.mkdirSync(stage, { recursive: true });
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    files: string[];
  };
  const alwaysPacked = fs.readdirSync(root).filter((f) => /^(package\.json|readme|licen[cs]e)/i.test(f));
  const listed = manifest.files.filter((f) => !f.startsWith('!') && !f.startsWith('out/') && f !== 'out');
  for (const entry of [...alwaysPacked, ...listed]) {
    fs.cpSync(path.join(root, entry), path.join(stage, entry), { recursive: true });
  }
  await runOk(
    TSC[0],
    [TSC[1], '-p', path.join(root, 'tsconfig.build.json'), '--outDir', path.join(stage, 'out')],
    root,
  );
  const { stdout } = await runOk(
    'npm',
    ['pack', '--json', '--ignore-scripts', '--pack-destination', workDir],
    stage,
  );
  const [packed] = JSON.parse(stdout) as [{ filename: string; files: { path: string }[] }];
  return { tarball: path.join(workDir, packed.filename), files: packed.files.map((f) => f.path) };
}

/**
 * A scratch project at `dir` with the tarball unpacked as `node_modules/virtual-exporters`, as
 * `npm install <tarball>` lays it out, and `links` (package names) symlinked from this repository.
 */
export async function scratchProject(dir: string, tarball: string, links: readonly string[]): Promise<void> {
  const pkg = path.join(dir, 'node_modules/virtual-exporters');
  fs.mkdirSync(pkg, { recursive: true });
  await runOk('tar', ['-xzf', tarball, '-C', pkg, '--strip-components=1'], dir);
  for (const name of links) {
    const target = path.join(root, 'node_modules', name);
    if (!fs.existsSync(target)) throw new Error(`${name} is not installed in this repository (npm ci first)`);
    fs.mkdirSync(path.dirname(path.join(dir, 'node_modules', name)), { recursive: true });
    fs.symlinkSync(target, path.join(dir, 'node_modules', name), 'dir');
  }
}

/** The fenced blocks of a README section (from `## heading` to the next `## `), in order. */
function readmeBlocks(heading: string): { lang: string; body: string }[] {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README.md has no section "## ${heading}"`);
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map(([, lang, body]) => ({ lang, body }));
}

/** The first ```ts block of a README section (the heading as written, without `## `). */
export function readmeSnippet(heading: string): string {
  const block = readmeBlocks(heading).find((b) => b.lang === 'ts');
  if (!block) throw new Error(`README.md section "## ${heading}" has no ts block`);
  return block.body;
}

/** The first plain ``` block after the section's first ts block: what that snippet prints. */
export function readmeOutput(heading: string): string {
  const blocks = readmeBlocks(heading);
  const block = blocks.slice(blocks.findIndex((b) => b.lang === 'ts') + 1).find((b) => b.lang === '');
  if (!block) throw new Error(`README.md section "## ${heading}" has no output block after its ts block`);
  return block.body;
}
