/**
 * The controller under benchmark in its own process: the real `exporter-set-controller` CLI
 * (`controller/out/main.js`) with its defaults (`--workers 4`, `--max-burst 50`) unless a benchmark
 * says otherwise, pointed at the cluster child through a kubeconfig file, with its health and metrics
 * endpoints on free loopback ports and a small preloaded probe (controller-probe.cjs) that reports the
 * process's own CPU time and memory over IPC. Its environment includes the runtime settings the
 * installer's Deployment ships (V8 and malloc flags, deployment-env.ts), so it runs as it would in a Pod.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { waitUntil } from './clock';
import { deploymentEnv } from './deployment-env';

/** The controller's CLI as built by `npm run build`. */
export const controllerMain = (): string => path.resolve(__dirname, '../../controller/out/main.js');

export interface ControllerChildOptions {
  /** The kubeconfig of the controller's identity (the cluster child prints it). */
  readonly kubeconfigYaml: string;
  /** `--namespace` flags; none: all namespaces (the CLI's default). */
  readonly namespaces?: readonly string[];
  readonly maxBurst?: number;
  readonly workers?: number;
  /** @default 'warn' */
  readonly logLevel?: string;
  /** Extra Node flags, e.g. `--cpu-prof`. */
  readonly nodeFlags?: readonly string[];
  /**
   * Where its stdout/stderr go. @default a file in `BENCH_CONTROLLER_LOG_DIR` (kept), else in a temp
   * directory removed after a clean exit
   */
  readonly logFile?: string;
  /** Extra environment variables (e.g. allocator tuning). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * The CLI to run. @default `BENCH_CONTROLLER_MAIN`, else `controller/out/main.js` — the variable lets
   * a maintainer measure an experimental build without touching the sources.
   */
  readonly main?: string;
}

/**
 * The runtime settings the controller runs with: the Deployment's (deployment-env.ts), or none with
 * `BENCH_CONTROLLER_RUNTIME_ENV=off` — to measure what they are worth, not to report figures.
 */
export function runtimeEnv(): Record<string, string> {
  return process.env.BENCH_CONTROLLER_RUNTIME_ENV === 'off' ? {} : deploymentEnv();
}

/** The controller's environment: the bench's, then the runtime settings, then `options.env`. */
export function controllerEnv(options: Pick<ControllerChildOptions, 'env'> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...runtimeEnv(), ...options.env };
}

export interface Usage {
  readonly at: number;
  /** Microseconds of CPU (user, system) since the process started. */
  readonly cpu: { readonly user: number; readonly system: number };
  readonly memory: NodeJS.MemoryUsage;
  /** `v8.getHeapStatistics()`: committed and physical heap sizes, V8's own malloc'd memory. */
  readonly heap: Readonly<Record<string, number>>;
  /** Resident kB from /proc/self/smaps_rollup: all, and anonymous (not mapped files); Linux only. */
  readonly resident?: { readonly rss: number; readonly anonymous: number };
  /** Whether a full GC ran first. */
  readonly gc: boolean;
}

export interface ControllerChild {
  readonly pid: number;
  readonly healthUrl: string;
  readonly metricsUrl: string;
  readonly logFile: string;
  /** CPU and memory of the controller process, after a full GC when `gc` (it runs with --expose-gc). */
  usage(options?: { gc?: boolean }): Promise<Usage>;
  /** Resolves once `/readyz` says the caches are synced. */
  ready(timeoutMs?: number): Promise<void>;
  /** The Prometheus text of `/metrics`. */
  metrics(): Promise<string>;
  /** SIGTERM (graceful), then waits for the exit; returns the exit code. */
  stop(): Promise<number | null>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function httpStatus(url: string): Promise<number | undefined> {
  try {
    const response = await fetch(url);
    await response.arrayBuffer();
    return response.status;
  } catch {
    return undefined;
  }
}

export async function startControllerChild(options: ControllerChildOptions): Promise<ControllerChild> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-controller-'));
  const kubeconfig = path.join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, options.kubeconfigYaml);
  const [healthPort, metricsPort] = [await freePort(), await freePort()];
  const args = [
    '--provisioner',
    'qemu.jumpstarter.dev',
    ...(options.namespaces ?? []).flatMap((ns) => ['--namespace', ns]),
    '--kubeconfig',
    kubeconfig,
    '--health-probe-bind-address',
    `127.0.0.1:${healthPort}`,
    '--metrics-bind-address',
    `127.0.0.1:${metricsPort}`,
    '--log-level',
    options.logLevel ?? 'warn',
    ...(options.maxBurst !== undefined ? ['--max-burst', String(options.maxBurst)] : []),
    ...(options.workers !== undefined ? ['--workers', String(options.workers)] : []),
  ];
  const keptLogs = process.env.BENCH_CONTROLLER_LOG_DIR;
  const logFile =
    options.logFile ??
    (keptLogs ? path.join(keptLogs, `controller-${Date.now()}.log`) : path.join(dir, 'controller.log'));
  const log = createWriteStream(logFile);
  const child: ChildProcess = fork(
    options.main ?? process.env.BENCH_CONTROLLER_MAIN ?? controllerMain(),
    args,
    {
      execArgv: [
        '--expose-gc',
        '--require',
        path.join(__dirname, 'controller-probe.cjs'),
        ...(options.nodeFlags ?? []),
      ],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      cwd: path.resolve(__dirname, '../..'),
      env: controllerEnv(options),
    },
  );
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      resolve(code);
    }),
  );
  const waiting = new Map<number, (usage: Usage) => void>();
  let nextId = 1;
  child.on('message', (message: Usage & { type?: string; id?: number }) => {
    if (message.type !== 'bench:usage' || message.id === undefined) return;
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  const healthUrl = `http://127.0.0.1:${healthPort}`;
  const metricsUrl = `http://127.0.0.1:${metricsPort}`;
  const alive = () => {
    if (exitCode !== undefined)
      throw new Error(`the controller exited with code ${exitCode}; see ${logFile}`);
  };
  const handle: ControllerChild = {
    pid: child.pid ?? -1,
    healthUrl,
    metricsUrl,
    logFile,
    usage(usageOptions = {}) {
      alive();
      const id = nextId++;
      return new Promise<Usage>((resolve) => {
        waiting.set(id, resolve);
        child.send({ type: 'bench:usage', id, gc: usageOptions.gc === true });
      });
    },
    async ready(timeoutMs = 120_000) {
      await waitUntil(
        'the controller to be ready (caches synced)',
        async () => {
          alive();
          return (await httpStatus(`${healthUrl}/readyz`)) === 200;
        },
        { timeoutMs, intervalMs: 25 },
      );
    },
    async metrics() {
      const response = await fetch(`${metricsUrl}/metrics`);
      return response.text();
    },
    async stop() {
      if (exitCode === undefined) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
      log.end();
      if (options.logFile === undefined && exitCode === 0) rmSync(dir, { recursive: true, force: true });
      return exitCode ?? null;
    },
  };
  // `/healthz` answers once the servers listen; the informers start right after.
  await waitUntil(
    'the controller process to listen',
    async () => {
      alive();
      return (await httpStatus(`${healthUrl}/healthz`)) === 200;
    },
    { timeoutMs: 60_000, intervalMs: 10 },
  );
  return handle;
}

/** Sums a metric's samples in Prometheus text (all label sets), e.g. `jumpstarter_exporterset_reconcile_duration_seconds_count`. */
export function metricTotal(text: string, name: string): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (rest[0] !== ' ' && rest[0] !== '{') continue;
    const value = Number(line.trim().split(/\s+/).pop());
    if (Number.isFinite(value)) total += value;
  }
  return total;
}

/** How many label sets a metric has in Prometheus text, e.g. the sets a per-set gauge reports. */
export function metricSeries(text: string, name: string): number {
  let series = 0;
  for (const line of text.split('\n')) if (line.startsWith(`${name}{`)) series += 1;
  return series;
}
