/**
 * What the simulated `jmp run` does when its Pod's containers start: read the exporter config Secret
 * the Pod mounts and register with the Jumpstarter controller (the shared `ExporterProcesses`).
 */
import type { ExporterProcesses } from '../jumpstarter/exporter-processes';
import type { ClusterPort } from '../port';
import type { KubeObject } from '../types';
import { configSecretName, readExporterConfig, type ExporterRunConfig } from './exporter-config';
import type { PodRun } from './pod-run';

export interface ExporterStart {
  readonly port: ClusterPort;
  readonly processes: ExporterProcesses;
  /** `exitOnLeaseEnd` of a Pod that mounts no exporter config. */
  readonly defaultExitOnLeaseEnd: boolean;
}

/** Starts the Pod's exporter process; returns why it failed, or undefined once registered. */
export function startExporterProcess(start: ExporterStart, run: PodRun, pod: KubeObject): string | undefined {
  let config: ExporterRunConfig = { exitOnLeaseEnd: start.defaultExitOnLeaseEnd, devices: [] };
  const secretName = configSecretName(pod);
  if (secretName !== undefined) {
    const secret = start.port.get('Secret', run.namespace, secretName);
    if (secret === undefined) return `exporter config: Secret ${secretName} not found`;
    try {
      config = readExporterConfig(secret);
    } catch (error) {
      return (error as Error).message;
    }
  }
  const result = start.processes.register({
    namespace: run.namespace,
    exporter: run.name,
    podUid: run.uid,
    exitOnLeaseEnd: config.exitOnLeaseEnd,
    devices: config.devices,
    ...(config.token !== undefined ? { token: config.token } : {}),
    ...(config.endpoint !== undefined ? { endpoint: config.endpoint } : {}),
  });
  return result.accepted ? undefined : `registration refused: ${result.reason}`;
}
