/**
 * The real cluster's child processes (etcd, kube-apiserver, kube-controller-manager): each logs to a
 * file in the run's folder, and every one is stopped when the cluster stops, when the Node process
 * exits or is interrupted, and — through a small reaper process that outlives a killed parent — when
 * the Node process is killed outright (a jest worker killed on timeout leaves no etcd behind).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  readonly logFile: string;
  /** The last lines of its log, for error messages. */
  tail(lines?: number): string;
  /** Whether it has exited (and with what) — a server that dies while waited for is reported at once. */
  exited(): { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when it has exited. */
  stop(graceMs?: number): Promise<void>;
}

const running = new Set<ChildProcess>();
let hooksInstalled = false;

/** Kills what is still running when this process ends, however it ends short of SIGKILL. */
function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      for (const child of running) child.kill('SIGKILL');
      process.kill(process.pid, signal);
    });
  }
}

/**
 * A detached shell that waits for this Node process to go away and then kills `pid` (SIGKILL of
 * the parent runs no exit hook). It ends by itself when `pid` ends first.
 */
function startReaper(pid: number): void {
  const script =
    'while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done; ' +
    'kill -0 "$1" 2>/dev/null || kill -9 "$2" 2>/dev/null; exit 0';
  const reaper = spawn('bash', ['-c', script, 'reaper', String(process.pid), String(pid)], {
    detached: true,
    stdio: 'ignore',
  });
  reaper.unref();
}

/** Starts `command` with `args`, its output in `<dir>/<name>.log`. */
export function startProcess(name: string, command: string, args: string[], dir: string): ManagedProcess {
  installExitHooks();
  const logFile = join(dir, `${name}.log`);
  const fd = openSync(logFile, 'a');
  const child = spawn(command, args, { stdio: ['ignore', fd, fd] });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`${name} did not start (${command})`);
  running.add(child);
  startReaper(child.pid);
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const done = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      running.delete(child);
      resolve();
    });
    child.once('error', () => {
      exit ??= { code: null, signal: null };
      running.delete(child);
      resolve();
    });
  });
  return {
    name,
    pid: child.pid,
    logFile,
    tail(lines = 20) {
      try {
        return readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
      } catch {
        return '';
      }
    },
    exited: () => exit,
    async stop(graceMs = 5000) {
      if (exit) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await done;
      clearTimeout(timer);
    },
  };
}
