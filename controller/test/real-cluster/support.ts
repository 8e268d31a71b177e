/**
 * The controller on the real Kubernetes (startKubeCluster, `npm run test:kube`): the install applied
 * with kubectl as an operator applies dist/install.yaml, the controller authenticated with its
 * ServiceAccount's token (so the synthesized ClusterRole and Role are enforced by kube-apiserver's
 * RBAC authorizer), in-process or as a child process of its real entry point.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { qemuProvisioner } from 'virtual-exporters/internal';
import type { KubeCluster } from 'virtual-exporters-test-cluster';
import { installFiles } from '../../../examples/install/app';
import { startManager, type Manager } from '../../src/manager';
import { createLogger } from '../../src/process/logger';
import { controllerOptions } from '../scenarios/support';

/** Where dist/install.yaml puts the controller and names its ServiceAccount. */
export const INSTALL_NAMESPACE = 'jumpstarter';
export const SERVICE_ACCOUNT = 'exporter-set-controller';

/** dist/install.yaml as `npm run synth` writes it (same chart, same text). */
export const installYaml = (): string => installFiles()['install.yaml']!;

/** `kubectl apply --server-side` of `yaml`; fails with kubectl's output when it does. */
export async function kubectlApply(
  cluster: KubeCluster,
  yaml: string,
  extra: string[] = [],
): Promise<string> {
  const result = await cluster.kubectl(['apply', '--server-side', ...extra, '-f', '-'], { input: yaml });
  if (result.code !== 0)
    throw new Error(`kubectl apply failed (${result.code}):\n${result.stderr}${result.stdout}`);
  return result.stdout;
}

/** The controller's ServiceAccount identity as the API server names it (audit log, RBAC). */
export const CONTROLLER_USER = `system:serviceaccount:${INSTALL_NAMESPACE}:${SERVICE_ACCOUNT}`;

/**
 * A manager in-process, authenticated as the installed ServiceAccount; `namespaces` undefined: every
 * namespace, as the default install (a ClusterRole) runs it.
 */
export async function startControllerAsServiceAccount(
  cluster: KubeCluster,
  namespaces: readonly string[] | undefined,
  overrides: Parameters<typeof controllerOptions>[0] = {},
): Promise<Manager> {
  const { kubeConfig } = await cluster.serviceAccountKubeConfig(INSTALL_NAMESPACE, SERVICE_ACCOUNT);
  return startManager(
    controllerOptions({
      provisioner: qemuProvisioner,
      namespaces: namespaces === undefined ? undefined : [...namespaces],
      ...overrides,
    }),
    {
      kubeConfig,
      logger: createLogger({ level: (process.env.SCENARIO_LOG as never) ?? 'silent' }),
      leaderElection: { namespace: INSTALL_NAMESPACE },
    },
  );
}

/** The built entry (`npm run build`), else the sources through ts-node as cli.test.ts runs them. */
function controllerCommand(): string[] {
  const root = process.cwd();
  const built = resolve(root, 'controller/out/main.js');
  if (existsSync(built) && existsSync(resolve(root, 'out/lib/index.js'))) return [built];
  return [
    '-r',
    'ts-node/register/transpile-only',
    '-r',
    resolve(root, 'controller/test/process/support/library-sources.cjs'),
    resolve(root, 'controller/src/main.ts'),
  ];
}

export interface ControllerProcess {
  readonly child: ChildProcess;
  /** Everything it logged so far (JSON lines). */
  output(): string;
  /** SIGTERM and wait for its exit code. */
  stop(): Promise<number | null>;
}

/**
 * The controller as an operator runs it: `exporter-set-controller --kubeconfig <the ServiceAccount's
 * token>` in its own process, `NAMESPACE` set as the Deployment sets it.
 */
export async function startControllerProcess(
  cluster: KubeCluster,
  args: readonly string[],
  name = 'controller',
  env: NodeJS.ProcessEnv = {},
): Promise<ControllerProcess> {
  const sa = await cluster.serviceAccountKubeConfig(INSTALL_NAMESPACE, SERVICE_ACCOUNT);
  const kubeconfig = join(cluster.dataDir, `${name}.kubeconfig`);
  writeFileSync(kubeconfig, sa.yaml, { mode: 0o600 });
  const child = spawn(
    process.execPath,
    [...controllerCommand(), '--provisioner=qemu.jumpstarter.dev', `--kubeconfig=${kubeconfig}`, ...args],
    {
      env: { ...process.env, NAMESPACE: INSTALL_NAMESPACE, NODE_OPTIONS: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  cluster.onStop(async () => {
    child.kill('SIGKILL');
    await exited;
  });
  return {
    child,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
