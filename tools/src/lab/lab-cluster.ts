/**
 * What the lab reads and writes of a cluster, whichever cluster it is: the seam between the lab and
 * its backend. Two implement it —
 *
 * - `test` (test-backend.ts): the in-process test cluster, its simulators on its store, reads from the
 *   store, the controller's requests from the server's counters;
 * - `kube` (kube-backend.ts): the real kube-apiserver, etcd and kube-controller-manager
 *   (`startKubeCluster`), the simulators as its clients (`startRemoteSimulators`), reads from watch-fed
 *   views (the simulators' port, an informer on ExporterSets), the controller's requests from the
 *   server's audit log.
 *
 * The lab applies the app, starts the controllers with the identity's kubeconfig, plays the leases
 * and samples the pools through this interface only, so one run reads the same on both.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { CustomResourceDefinition } from 'virtual-exporters/internal';
import type {
  AnyLeaseClient,
  Clock,
  ClusterPort,
  ExporterProcesses,
  JumpstarterBehaviour,
  KubeletBehaviour,
  SimulatorError,
} from 'virtual-exporters-test-cluster';
import type { LabPool } from './manifests';
import type { PoolRow } from './table';

export const LAB_BACKENDS = ['test', 'kube'] as const;
export type LabBackend = (typeof LAB_BACKENDS)[number];

export const isLabBackend = (value: string): value is LabBackend =>
  (LAB_BACKENDS as readonly string[]).includes(value);

/** The identity the controllers authenticate as: their requests are counted under it. */
export const CONTROLLER_IDENTITY = 'controller';

export interface LabClusterOptions {
  /** Served from the start: the app's CRDs (as its installer ships them) and Jumpstarter's. */
  readonly crds: readonly CustomResourceDefinition[];
  /** The namespaces of the pools: created before the app is applied, watched by the simulators. */
  readonly namespaces: readonly string[];
  /** The test cluster's randomness (the real server has none of its own). */
  readonly seed: number;
  readonly jumpstarter: JumpstarterBehaviour;
  readonly kubelet: KubeletBehaviour;
}

/** The Exporters and Leases as the lab sees them: a view kept current by watches, read without requests. */
export type LabView = Pick<ClusterPort, 'get' | 'watch'>;

export interface LabCluster {
  readonly backend: LabBackend;
  /** What the lab says it runs on (`test cluster at http://…`). */
  readonly description: string;
  /** The clock of the run (the real one on either backend: see lab.ts). */
  readonly clock: Clock;
  /** The admin's: the lab applies the app with it. */
  readonly kubeConfig: KubeConfig;
  /** The controllers' identity, for a controller in this process. */
  controllerKubeConfig(): KubeConfig;
  /** The same as kubeconfig YAML, for a controller in a child process. */
  controllerKubeconfigYaml(): string;
  /** Exporters and Leases. */
  readonly view: LabView;
  /** `jmp create lease` / `jmp release`: every call is awaited (Promises on the real server). */
  readonly leases: AnyLeaseClient;
  /** The simulated exporter processes (the off-cluster pool's host agent registers its own here). */
  readonly processes: ExporterProcesses;
  /** The pools' rows from their sets' status, as the lab last saw it (no request). */
  poolRows(pools: readonly LabPool[]): PoolRow[];
  /** Every request the controllers' identity made so far, by verb. */
  controllerRequests(): Readonly<Record<string, number>>;
  /** Errors the simulators reported (an empty list in a healthy run), as sentences. */
  simulatorErrors(): string[];
  /** Stops the simulators, the views and the cluster. Idempotent. */
  stop(): Promise<void>;
}

/** A simulator's error as the lab reports it: `simulator: <key>: <message>`. */
export function simulatorErrorLines(errors: readonly SimulatorError[]): string[] {
  return errors.map(({ key, error }) => {
    const message = error instanceof Error ? error.message : JSON.stringify(error);
    return `simulator: ${key}: ${message}`;
  });
}
