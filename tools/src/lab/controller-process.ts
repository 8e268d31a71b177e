/**
 * The real controller as a child process — `node controller/out/main.js` — pointed at the test
 * cluster through a kubeconfig file, as an operator would run it against any cluster. Its JSON log
 * goes to a file; stopping sends SIGTERM (graceful shutdown, exit 0) and SIGKILL only if it hangs.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ControllerProcessOptions {
  /** Path of the built `main.js`. */
  readonly mainJs: string;
  /** The kubeconfig YAML of the controller's identity. */
  readonly kubeconfigYaml: string;
  readonly provisioner: string;
  readonly namespaces: readonly string[];
  /** Where its stdout and stderr go. */
  readonly logFile: string;
  /** @default 'info' */
  readonly logLevel?: string;
}

export interface ControllerProcess {
  readonly pid: number;
  /** Settles when the process exits: its code, or `null` when a signal ended it. */
  readonly exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after `graceMs` (default 10 s); resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

export function startControllerProcess(options: ControllerProcessOptions): ControllerProcess {
  const dir = mkdtempSync(join(tmpdir(), 'exporter-set-lab-'));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, options.kubeconfigYaml, { mode: 0o600 });
  const log = openSync(options.logFile, 'w');
  const args = [
    options.mainJs,
    '--provisioner',
    options.provisioner,
    ...options.namespaces.flatMap((ns) => ['--namespace', ns]),
    '--kubeconfig',
    kubeconfig,
    // No listeners: the lab reads the pools from the cluster, and fixed ports could be taken.
    '--metrics-bind-address',
    '0',
    '--health-probe-bind-address',
    '0',
    '--log-level',
    options.logLevel ?? 'info',
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', log, log] });
  closeSync(log);
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
  exited.catch(() => undefined);
  return {
    pid: child.pid ?? -1,
    exited,
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
