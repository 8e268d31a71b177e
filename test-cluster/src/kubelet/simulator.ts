/**
 * The kubelet simulator in process, on the test cluster's store: the logic of `simulator-core.ts` on
 * the store's port, so it runs synchronously (every status write answers at once). `../remote` runs
 * the same logic against any API server.
 */
import { exporterProcessesOf, type ExporterProcesses } from '../jumpstarter/exporter-processes';
import { settle } from '../jumpstarter/work-queue';
import { storePort } from '../port';
import type { Clock, ObjectStore } from '../types';
import type { KubeletSimulator } from './simulator-api';
import { startKubeletCore, type KubeletBehaviour } from './simulator-core';

export type { KubeletSimulator } from './simulator-api';

export interface KubeletSimulatorOptions extends KubeletBehaviour {
  readonly store: ObjectStore;
  /** @default store.clock */
  readonly clock?: Clock;
  /** Shared with the Jumpstarter simulator. @default exporterProcessesOf(store) */
  readonly processes?: ExporterProcesses;
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
