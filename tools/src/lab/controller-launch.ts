/**
 * The lab's controllers, started against its cluster with the controllers' identity: the in-cluster
 * provisioner's as deployed (a child process of the built `main.js`, or its manager in this process),
 * and the off-cluster provisioners' in this process, their lifecycle pointed at the sshd hosts'
 * folders (`hostRoot`), with the host agent playing `jmp run` on the cluster's exporter processes.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { getProvisioner, QemuSshLifecycle, type Provisioner } from 'virtual-exporters/internal';
import { createLogger, startManager } from 'virtual-exporters-controller/internal';
import { HostAgent, type SshdLab } from 'virtual-exporters-test-cluster';
import { startControllerProcess } from './controller-process';
import type { LabCluster } from './lab-cluster';

export type ControllerLaunch =
  /** `node <mainJs>`: the built controller, as deployed. */
  | { readonly kind: 'process'; readonly mainJs: string; readonly logFile: string }
  /** `startManager` in this process (tests: no build needed). */
  | { readonly kind: 'in-process' };

export interface RunningController {
  readonly exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

/** The controller of `provisioner` (the in-cluster one) for `namespaces`, as `how` says. */
export async function launchController(
  how: ControllerLaunch,
  cluster: LabCluster,
  provisioner: Provisioner,
  namespaces: readonly string[],
): Promise<RunningController> {
  if (how.kind === 'process') {
    const child = startControllerProcess({
      mainJs: how.mainJs,
      kubeconfigYaml: cluster.controllerKubeconfigYaml(),
      provisioner: provisioner.name,
      namespaces,
      logFile: how.logFile,
    });
    return { exited: child.exited, stop: () => child.stop() };
  }
  return launchInProcess(cluster, provisioner, namespaces);
}

/** The controllers of the off-cluster provisioners, each in this process, and the host agent. */
export async function launchOffCluster(
  how: ControllerLaunch,
  cluster: LabCluster,
  sshd: SshdLab,
  provisioners: readonly { readonly name: string; readonly namespaces: readonly string[] }[],
  options: {
    readonly bootDelayMs: number;
    readonly onStarted: (name: string, controller: RunningController, logFile?: string) => void;
    readonly onError: (message: string) => void;
  },
): Promise<HostAgent> {
  for (const { name, namespaces } of provisioners) {
    const lifecycle = new QemuSshLifecycle({
      hostRoot: (host) => sshd.host(host.name).root,
      connectTimeoutMs: 5000,
    });
    const logFile =
      how.kind === 'process' ? how.logFile.replace(/(\.log)?$/, `-${name.split('.')[0]}.log`) : undefined;
    const provisioner: Provisioner = { ...getProvisioner(name)!, lifecycle };
    options.onStarted(name, await launchInProcess(cluster, provisioner, namespaces, logFile), logFile);
  }
  return new HostAgent(sshd.hosts, cluster.processes, {
    bootDelayMs: options.bootDelayMs,
    onError: (message) => options.onError(`host agent: ${message}`),
  });
}

/** The controller's manager in this process; its log goes to `logFile` (JSON lines), or nowhere. */
async function launchInProcess(
  cluster: LabCluster,
  provisioner: Provisioner,
  namespaces: readonly string[],
  logFile?: string,
): Promise<RunningController> {
  const stream: WriteStream | undefined = logFile ? createWriteStream(logFile) : undefined;
  const manager = await startManager(
    {
      provisioner,
      namespaces,
      kubeconfig: undefined,
      leaderElect: false,
      metricsBindAddress: '0',
      healthProbeBindAddress: '0',
      maxBurst: 50,
      workers: 4,
      logLevel: stream ? 'info' : 'silent',
    },
    {
      kubeConfig: cluster.controllerKubeConfig(),
      clock: cluster.clock,
      logger: stream
        ? createLogger({ level: 'info', destination: stream })
        : createLogger({ level: 'silent' }),
    },
  );
  const exited = manager.done.then((reason) => (reason === 'stopped' ? 0 : 1));
  return {
    exited,
    async stop() {
      await manager.stop();
      const code = await exited;
      if (stream) await new Promise<void>((resolve) => stream.end(resolve));
      return code;
    },
  };
}
