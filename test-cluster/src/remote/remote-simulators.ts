/**
 * `startRemoteSimulators()`: the Jumpstarter controller simulator and the kubelet simulator as clients
 * of any API server — a real kube-apiserver, or the test cluster through its URL. The same logic as in
 * process (`simulator-core.ts` of each) runs on a remote port (`remote-port.ts`), on the real clock:
 * the server stamps real times. Both simulators share one port (one watch per kind) and one registry of
 * exporter processes, so an exporter Pod's process registers with this Jumpstarter simulator.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { realClock } from '../clock';
import { createExporterProcesses, type ExporterProcesses } from '../jumpstarter/exporter-processes';
import type { JumpstarterSimulatorOf } from '../jumpstarter/simulator';
import { startJumpstarterCore, type JumpstarterBehaviour } from '../jumpstarter/simulator-core';
import type { KubeletSimulator } from '../kubelet/simulator';
import { startKubeletCore, type KubeletBehaviour } from '../kubelet/simulator-core';
import { drive, type SimulatedKind } from '../port';
import { createRemoteLeaseClient } from './remote-lease-client';
import { startRemotePort, type RemotePort } from './remote-port';
import { settleRemote } from './settle';
import { retryTransient } from './transient-errors';

export interface RemoteSimulatorsOptions {
  /** Whose requests the simulators make (any client-node KubeConfig: a file, in-cluster, the test cluster's). */
  readonly kubeConfig: KubeConfig;
  /** The namespaces to watch (one watch per kind and namespace). @default every namespace */
  readonly namespaces?: readonly string[];
  /** Runs the Jumpstarter controller simulator. @default false */
  readonly jumpstarter?: boolean | JumpstarterBehaviour;
  /** Runs the kubelet simulator. @default false */
  readonly kubelet?: boolean | KubeletBehaviour;
  /** The exporter processes both simulators share. @default a new registry on the real clock */
  readonly processes?: ExporterProcesses;
  /** How long to wait for the first list of every kind. @default 30000 */
  readonly syncTimeoutMs?: number;
  /** A list or watch failure; the port retries it after a backoff. */
  readonly onWatchError?: (error: unknown, kind: SimulatedKind, namespace: string | undefined) => void;
}

/** The Jumpstarter simulator of a remote API server: its writes and lease calls return Promises. */
export type RemoteJumpstarterSimulator = JumpstarterSimulatorOf<'async'>;

export interface RemoteSimulators {
  readonly jumpstarter?: RemoteJumpstarterSimulator;
  readonly kubelet?: KubeletSimulator;
  readonly processes: ExporterProcesses;
  /** The simulators' view of the server. */
  readonly port: RemotePort;
  /** Best effort (see `settle.ts`): every watch event received so far handled, no write in flight. */
  settle(timeoutMs?: number): Promise<void>;
  /** Stops both simulators and every watch. Idempotent. */
  stop(): Promise<void>;
}

const optionsOf = <T extends object>(value: boolean | T | undefined): T | undefined =>
  value === undefined || value === false ? undefined : value === true ? ({} as T) : value;

/** Starts the simulators asked for once they have listed what they watch. */
export async function startRemoteSimulators(options: RemoteSimulatorsOptions): Promise<RemoteSimulators> {
  const jumpstarterOptions = optionsOf(options.jumpstarter);
  const kubeletOptions = optionsOf(options.kubelet);
  const kinds: SimulatedKind[] = [
    ...(jumpstarterOptions ? (['Exporter', 'Lease', 'Secret'] as const) : []),
    ...(kubeletOptions ? (['Pod', 'Secret'] as const) : []),
  ];
  const port = startRemotePort({
    kubeConfig: options.kubeConfig,
    kinds,
    ...(options.namespaces !== undefined ? { namespaces: options.namespaces } : {}),
    ...(options.onWatchError !== undefined ? { onWatchError: options.onWatchError } : {}),
  });
  try {
    await port.synced(options.syncTimeoutMs);
  } catch (error) {
    await port.stop();
    throw error;
  }
  const clock = realClock();
  const processes = options.processes ?? createExporterProcesses(clock);
  const common = { port, clock, processes, retry: retryTransient };

  const jumpstarterCore = jumpstarterOptions && startJumpstarterCore({ ...jumpstarterOptions, ...common });
  const kubeletCore = kubeletOptions && startKubeletCore({ ...kubeletOptions, ...common });
  const jumpstarter: RemoteJumpstarterSimulator | undefined = jumpstarterCore && {
    endpoint: jumpstarterCore.endpoint,
    processes,
    leases: createRemoteLeaseClient(port),
    errors: jumpstarterCore.errors,
    token: (namespace, exporter) => jumpstarterCore.token(namespace, exporter),
    rotateToken: async (namespace, exporter) => drive(jumpstarterCore.rotateToken(namespace, exporter)),
    idle: () => jumpstarterCore.idle(),
    settle: () => settleRemote([jumpstarterCore, port]),
    stop: () => jumpstarterCore.stop(),
  };
  const kubelet: KubeletSimulator | undefined = kubeletCore && {
    ...kubeletCore,
    settle: () => settleRemote([kubeletCore, port]),
  };

  let stopping: Promise<void> | undefined;
  return {
    ...(jumpstarter !== undefined ? { jumpstarter } : {}),
    ...(kubelet !== undefined ? { kubelet } : {}),
    processes,
    port,
    settle: (timeoutMs) =>
      settleRemote([...[jumpstarterCore, kubeletCore].filter((p) => p !== undefined), port], timeoutMs),
    stop() {
      stopping ??= (async () => {
        kubeletCore?.stop();
        jumpstarterCore?.stop();
        await port.stop();
      })();
      return stopping;
    },
  };
}
