/**
 * The kubelet simulator in process, on the test cluster's store: the logic of `simulator-core.ts` on
 * the store's port, so it runs synchronously (every status write answers at once). `../remote` runs
 * the same logic against any API server.
 */
import { exporterProcessesOf, type ExporterProcesses } from '../jumpstarter/exporter-processes';
import { settle, type SimulatorError } from '../jumpstarter/work-queue';
import { storePort } from '../port';
import type { Clock, ObjectStore } from '../types';
import type { PodFault, PodMatch } from './faults';
import { startKubeletCore, type KubeletBehaviour } from './simulator-core';

export interface KubeletSimulatorOptions extends KubeletBehaviour {
  readonly store: ObjectStore;
  /** @default store.clock */
  readonly clock?: Clock;
  /** Shared with the Jumpstarter simulator. @default exporterProcessesOf(store) */
  readonly processes?: ExporterProcesses;
}

export interface KubeletSimulator {
  readonly processes: ExporterProcesses;
  readonly errors: readonly SimulatorError[];
  /** Adds a fault rule (consulted at boot, oldest first); returns a function that removes it. */
  injectFault(match: PodMatch, fault: PodFault, options?: { readonly times?: number }): () => void;
  /** Crashes a Pod now: its containers exit with code 1, the Pod fails, its process is lost. */
  crash(namespace: string, name: string, message?: string): void;
  /** Changes the boot delay of Pods booting from now on (of one image, or the default). */
  setBootDelay(ms: number, image?: string): void;
  idle(): boolean;
  settle(): Promise<void>;
  stop(): void;
}

export function startKubeletSimulator(options: KubeletSimulatorOptions): KubeletSimulator {
  const { store, ...behaviour } = options;
  const core = startKubeletCore({
    ...behaviour,
    port: storePort(store, ['Pod', 'Secret']),
    clock: options.clock ?? store.clock,
    processes: options.processes ?? exporterProcessesOf(store),
  });
  const simulator: KubeletSimulator = { ...core, settle: () => settle([simulator]) };
  return simulator;
}
