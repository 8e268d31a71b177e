/**
 * The image's smoke test: its entrypoint, run with `buildah run --isolation chroot` (the host's
 * network) and the arguments and environment of the installer's Deployment, reconciles against the
 * test cluster on loopback. It must answer `/readyz` and `/metrics`, and serve a pool applied through
 * the API (a QEMU class and an ExporterSet keeping 2 instances available) until the set's status counts
 * them available. Only the listen addresses change (free loopback ports instead of :8080/:8081, which
 * another process may hold) and a kubeconfig file stands in for the in-cluster service account.
 * Every failure throws with the container's log.
 */
import { spawn } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { CustomObjectsApi } from '@kubernetes/client-node';
import {
  API_VERSION,
  DEFAULT_CONTROLLER_IMAGE,
  GROUP,
  JUMPSTARTER_GROUP,
  VERSION,
  buildExporterSetController,
  buildQemuPool,
  type Exporter,
  type ExporterSet,
} from 'virtual-exporters/internal';
import { applyManifests } from '../../tools/src/lab/apply';
import { isOnline, startTestCluster, type TestCluster } from 'virtual-exporters-test-cluster';
import { run } from './command';
import { BUILDAH_GLOBAL, ISOLATION, WORK_DIR, localReference } from './settings';

const INSTALL_NAMESPACE = 'jumpstarter';
const POOL_NAMESPACE = 'lab';
const POOL = 'smoke';
const AVAILABLE = 2;
// Not under /run (/var/run links there): buildah mounts a fresh tmpfs on it, hiding the bind mount.
const KUBECONFIG_IN_CONTAINER = '/etc/exporter-set-controller/kubeconfig';
/** The uid the installer's Deployment runs the container as (runAsUser). */
const EXPECTED_UID = '65532';
const READY_TIMEOUT_MS = 60_000;
const SERVED_TIMEOUT_MS = 90_000;
const STOP_GRACE_MS = 15_000;

interface ImageConfig {
  readonly User?: string;
  readonly Entrypoint?: string[];
  readonly Cmd?: string[];
}

interface ContainerSpec {
  readonly image: string;
  readonly args: string[];
  readonly env: { name: string; value?: string }[];
}

/** Runs the smoke test of `reference`; returns a one-line summary. */
export async function smokeTest(reference: string, log: (line: string) => void): Promise<string> {
  const installed = installerContainer();
  if (installed.image !== reference || DEFAULT_CONTROLLER_IMAGE !== reference) {
    throw new Error(
      `the installer's default image is ${installed.image}, but the image built and documented is ` +
        `${reference}: set DEFAULT_CONTROLLER_IMAGE in lib/manifests/installer.ts to ${reference}.`,
    );
  }
  const image = localReference(reference);
  const inspected = JSON.parse(run('buildah', [...BUILDAH_GLOBAL, 'inspect', '--type', 'image', image])) as {
    OCIv1?: { config?: ImageConfig };
  };
  const config = inspected.OCIv1?.config ?? {};
  const entrypoint = config.Entrypoint ?? [];
  if (entrypoint.length === 0) throw new Error(`the image ${image} has no ENTRYPOINT to run.`);

  const scratch = mkdtempSync(join(WORK_DIR, 'smoke-'));
  const logFile = join(WORK_DIR, 'smoke-controller.log');
  const cluster = await startTestCluster({
    namespaces: [INSTALL_NAMESPACE, POOL_NAMESPACE],
    jumpstarter: true,
    kubelet: true,
  });
  const container = run('buildah', [...BUILDAH_GLOBAL, 'from', '--pull-never', image]).trim();
  let controller: Controller | undefined;
  try {
    const uid = run('buildah', [
      ...BUILDAH_GLOBAL,
      'run',
      ...ISOLATION,
      container,
      '--',
      entrypoint[0],
      '-e',
      'process.stdout.write(String(process.getuid()))',
    ]).trim();
    if (uid !== EXPECTED_UID) {
      throw new Error(`the image runs as uid ${uid} (USER ${config.User ?? 'unset'}), not ${EXPECTED_UID}.`);
    }

    // The container runs as 65532: the kubeconfig it mounts must be readable by others.
    const kubeconfig = join(scratch, 'kubeconfig');
    writeFileSync(kubeconfig, cluster.kubeconfigYaml('exporter-set-controller', INSTALL_NAMESPACE));
    chmodSync(kubeconfig, 0o644);
    const [healthPort, metricsPort] = [await freePort(), await freePort()];
    const args = [
      ...withAddresses(installed.args, healthPort, metricsPort),
      `--kubeconfig=${KUBECONFIG_IN_CONTAINER}`,
    ];
    const env = installed.env.map((variable) =>
      // The downward API's metadata.namespace.
      variable.name === 'NAMESPACE'
        ? `NAMESPACE=${INSTALL_NAMESPACE}`
        : `${variable.name}=${variable.value ?? ''}`,
    );
    log(`buildah run ${image}: ${[...entrypoint, ...args].join(' ')}`);
    controller = startController(
      [
        ...BUILDAH_GLOBAL,
        'run',
        ...ISOLATION,
        '--volume',
        `${kubeconfig}:${KUBECONFIG_IN_CONTAINER}:ro`,
        ...env.flatMap((variable) => ['--env', variable]),
        container,
        '--',
        ...entrypoint,
        ...args,
      ],
      entrypoint,
      logFile,
    );
    const health = `http://127.0.0.1:${healthPort}`;
    const started = Date.now();
    await waitFor('/readyz to answer 200', READY_TIMEOUT_MS, controller, async () => {
      return (await httpStatus(`${health}/readyz`)) === 200;
    });
    log(`ready after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    for (const path of ['/healthz']) {
      const status = await httpStatus(`${health}${path}`);
      if (status !== 200) throw new Error(`${path} answered ${status}, not 200.`);
    }
    const metrics = await httpText(`http://127.0.0.1:${metricsPort}/metrics`);
    if (!/^# TYPE /m.test(metrics)) throw new Error('/metrics answered no Prometheus text.');

    const { virtualTargetClass, exporterSet } = buildQemuPool({
      name: POOL,
      namespace: POOL_NAMESPACE,
      labels: { board: 'smoke' },
      minAvailableReplicas: AVAILABLE,
    });
    await applyManifests(
      cluster.kubeConfig,
      [POOL_NAMESPACE],
      [virtualTargetClass as never, exporterSet as never],
    );
    const applied = Date.now();
    let summary = '';
    await waitFor(
      `ExporterSet ${POOL_NAMESPACE}/${POOL} to report ${AVAILABLE} available`,
      SERVED_TIMEOUT_MS,
      controller,
      async () => {
        const { set, online } = await poolState(cluster);
        summary =
          `status.availableReplicas ${set.status?.availableReplicas ?? 'unset'}, ` +
          `status.replicas ${set.status?.replicas ?? 'unset'}, ${online} of its Exporters online`;
        return (set.status?.availableReplicas ?? 0) >= AVAILABLE && online >= AVAILABLE;
      },
      () => summary,
    );
    log(`pool served after ${((Date.now() - applied) / 1000).toFixed(1)} s: ${summary}`);

    const code = await controller.stop(STOP_GRACE_MS);
    if (code !== 0) throw new Error(`the controller exited with ${code ?? 'a signal'} on SIGTERM, not 0.`);
    return `ready, ${summary}, clean exit on SIGTERM`;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `smoke test of ${image}: ${reason}\n--- container log (${logFile}) ---\n${tail(logFile)}`,
    );
  } finally {
    await controller?.stop(STOP_GRACE_MS).catch(() => undefined);
    try {
      run('buildah', [...BUILDAH_GLOBAL, 'rm', container]);
    } finally {
      await cluster.stop();
      rmSync(scratch, { recursive: true, force: true });
    }
  }
}

/** The controller container of the installer's (single) Deployment, with default inputs. */
function installerContainer(): ContainerSpec {
  const deployment = buildExporterSetController({ namespace: INSTALL_NAMESPACE }).find(
    (object) => object.kind === 'Deployment',
  ) as { spec: { template: { spec: { containers: (ContainerSpec & { name: string })[] } } } } | undefined;
  const container = deployment?.spec.template.spec.containers.find((c) => c.name === 'controller');
  if (!container) throw new Error('the installer renders no Deployment with a container named controller.');
  return { image: container.image, args: [...container.args], env: [...container.env] };
}

/** The installer's arguments with its listen addresses moved to free loopback ports. */
function withAddresses(args: readonly string[], healthPort: number, metricsPort: number): string[] {
  const flags = { health: '--health-probe-bind-address=', metrics: '--metrics-bind-address=' };
  for (const flag of Object.values(flags)) {
    if (!args.some((arg) => arg.startsWith(flag))) {
      throw new Error(
        `the installer's arguments (${args.join(' ')}) have no ${flag}…; update the smoke test.`,
      );
    }
  }
  return args.map((arg) =>
    arg.startsWith(flags.health)
      ? `${flags.health}127.0.0.1:${healthPort}`
      : arg.startsWith(flags.metrics)
        ? `${flags.metrics}127.0.0.1:${metricsPort}`
        : arg,
  );
}

async function poolState(cluster: TestCluster): Promise<{ set: ExporterSet; online: number }> {
  const api = cluster.kubeConfig.makeApiClient(CustomObjectsApi);
  const set = (await api.getNamespacedCustomObject({
    group: GROUP,
    version: VERSION,
    namespace: POOL_NAMESPACE,
    plural: 'exportersets',
    name: POOL,
  })) as ExporterSet;
  const exporters = (await api.listNamespacedCustomObject({
    group: JUMPSTARTER_GROUP,
    version: VERSION,
    namespace: POOL_NAMESPACE,
    plural: 'exporters',
  })) as { items: Exporter[] };
  const owned = exporters.items.filter((exporter) =>
    (exporter.metadata.ownerReferences ?? []).some(
      (owner) => owner.apiVersion === API_VERSION && owner.uid === set.metadata.uid,
    ),
  );
  return { set, online: owned.filter((exporter) => isOnline(exporter)).length };
}

interface Controller {
  readonly exited: Promise<number | null>;
  readonly running: () => boolean;
  /**
   * SIGTERM to the controller's own process (a Pod's container gets it there; `buildah run` would
   * SIGKILL its command instead of passing SIGTERM on), SIGKILL to the whole group after `graceMs`.
   */
  stop(graceMs: number): Promise<number | null>;
}

function startController(buildahArgs: string[], entrypoint: readonly string[], logFile: string): Controller {
  const out = openSync(logFile, 'w');
  // Its own process group, so a hung run is killed with everything it started.
  const child = spawn('buildah', buildahArgs, { stdio: ['ignore', out, out], detached: true });
  closeSync(out);
  let done = false;
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      done = true;
      resolve(code);
    });
  });
  exited.catch(() => undefined);
  const killGroup = () => {
    if (!done && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  };
  return {
    exited,
    running: () => !done,
    async stop(graceMs) {
      if (done) return exited;
      const main = child.pid === undefined ? undefined : findDescendant(child.pid, entrypoint);
      if (main === undefined) killGroup();
      else process.kill(main, 'SIGTERM');
      const timer = setTimeout(killGroup, graceMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** The pid of a process under `root` (Linux /proc) whose command line is `command…`. */
function findDescendant(root: number, command: readonly string[]): number | undefined {
  const parents = new Map<number, number>();
  const commands = new Map<number, string[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // `pid (comm) state ppid …`; comm may hold spaces and parentheses.
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      commands.set(Number(entry), readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0'));
    } catch {
      // the process ended meanwhile
    }
  }
  const isUnderRoot = (pid: number): boolean => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) if (p === root) return true;
    return false;
  };
  for (const [pid, argv] of commands) {
    if (command.every((part, i) => argv[i] === part) && isUnderRoot(pid)) return pid;
  }
  return undefined;
}

async function waitFor(
  what: string,
  timeoutMs: number,
  controller: Controller,
  check: () => Promise<boolean>,
  detail: () => string = () => '',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  for (;;) {
    if (!controller.running()) {
      throw new Error(`the controller exited with ${await controller.exited} while waiting for ${what}.`);
    }
    try {
      if (await check()) return;
      lastError = '';
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() > deadline) {
      const last = [detail(), lastError].filter(Boolean).join('; ');
      throw new Error(
        `timed out after ${timeoutMs / 1000} s waiting for ${what}${last ? ` (last: ${last})` : ''}.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function httpStatus(url: string): Promise<number> {
  const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  await response.arrayBuffer();
  return response.status;
}

async function httpText(url: string): Promise<string> {
  const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url} answered ${response.status}.`);
  return text;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function tail(path: string, lines = 80): string {
  try {
    return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
