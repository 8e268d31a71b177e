/**
 * Runs the tools the image test drives (apt-get, npm, mmdebstrap, buildah) as child processes and
 * turns a failure into an error that names the command, its exit status and the end of its output.
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';

export interface RunOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Stream the command's output to this process's stderr as it runs instead of capturing it. */
  readonly stream?: boolean;
}

/** The lines kept from a failed command's output in the error. */
const TAIL_LINES = 40;

/** Runs `command args…` to completion; returns its stdout, throws when it fails. */
export function run(command: string, args: readonly string[], options: RunOptions = {}): string {
  const spawnOptions: SpawnSyncOptions = {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: options.stream ? ['ignore', 2, 2] : ['ignore', 'pipe', 'pipe'],
    maxBuffer: 256 * 1024 * 1024,
    encoding: 'utf8',
  };
  const result = spawnSync(command, [...args], spawnOptions);
  if (result.error) {
    throw new Error(`could not run ${command}: ${result.error.message}`);
  }
  if (result.status !== 0) {
    const output = `${String(result.stdout ?? '')}${String(result.stderr ?? '')}`.trimEnd();
    const tail = output.split('\n').slice(-TAIL_LINES).join('\n');
    const how = result.status === null ? `was killed by ${result.signal}` : `exited with ${result.status}`;
    throw new Error(`${describe(command, args)} ${how}${tail ? `; its output ends with:\n${tail}` : ''}`);
  }
  return String(result.stdout ?? '');
}

/** Whether `command` is on PATH. */
export function available(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** `command arg…`, shortened for messages. */
export function describe(command: string, args: readonly string[]): string {
  const text = [command, ...args].join(' ');
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
