/**
 * Prometheus's own checker, `promtool`, for jest: tests skip (describe.skip, named after the reason)
 * when it is not on PATH, unless VIRTUAL_EXPORTERS_REQUIRE_PROMTOOL=1, when they fail instead (CI
 * installs Debian's `prometheus` package, which ships it, and sets it).
 */
import { describe, it } from '@jest/globals';
import { execFile, execFileSync } from 'node:child_process';

export const REQUIRE_PROMTOOL_ENV = 'VIRTUAL_EXPORTERS_REQUIRE_PROMTOOL';
export const PROMTOOL = 'promtool';
export const PROMTOOL_INSTALL =
  'install it with `apt-get install prometheus` (Debian, Ubuntu: the package ships promtool), or put the promtool of a Prometheus release (https://prometheus.io/download/) on PATH';

/** What a run does with the promtool tests: run them, skip them, or fail for want of promtool. */
export function promtoolMode(
  available: boolean,
  env: NodeJS.ProcessEnv = process.env,
): 'run' | 'skip' | 'fail' {
  if (available) return 'run';
  return env[REQUIRE_PROMTOOL_ENV] === '1' ? 'fail' : 'skip';
}

/** Why promtool cannot run here (with how to install it), or undefined when `promtool --version` answers. */
export function promtoolUnavailable(binary = PROMTOOL): string | undefined {
  try {
    execFileSync(binary, ['--version'], { stdio: 'pipe', timeout: 10_000 });
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? `${binary} is not on PATH` : `\`${binary} --version\` failed (${String(error)})`;
    return `${why}: ${PROMTOOL_INSTALL}`;
  }
}

/** `describe` when promtool runs here; a named skip without it; a failing test when it is required. */
export function describeWithPromtool(name: string, fn: () => void): void {
  const missing = promtoolUnavailable();
  const mode = promtoolMode(missing === undefined);
  if (mode === 'run') describe(`${name} (promtool)`, fn);
  else if (mode === 'fail') {
    describe(name, () => {
      it(`needs promtool (${REQUIRE_PROMTOOL_ENV}=1)`, () => {
        throw new Error(`${missing} (${REQUIRE_PROMTOOL_ENV}=1)`);
      });
    });
  } else describe.skip(`${name} — skipped: ${missing}`, fn);
}

export interface PromtoolResult {
  /** The exit code: 0 when promtool found nothing to complain about. */
  readonly code: number;
  /** stdout and stderr, in that order. */
  readonly output: string;
}

/** Runs `promtool args…` (with `stdin` on its standard input, when given) and resolves with how it exited. */
export function runPromtool(
  args: readonly string[],
  options: { readonly cwd?: string; readonly stdin?: string } = {},
): Promise<PromtoolResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      PROMTOOL,
      args,
      { cwd: options.cwd, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : (error as { code?: unknown }).code;
        if (typeof code !== 'number') return reject(error ?? new Error('promtool did not exit'));
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
    child.stdin?.end(options.stdin ?? '');
  });
}
