/**
 * The Jumpstarter controller simulator in process, on the test cluster's store: the logic of
 * `simulator-core.ts` on the store's port, so it runs synchronously — every write answers at once and
 * a pass completes within one turn of the event loop. `../remote` runs the same logic against any
 * API server.
 */
import type { Clock, ObjectStore } from '../types';
import { runNow, storePort, type Mode, type Returns } from '../port';
import { exporterProcessesOf, type ExporterProcesses } from './exporter-processes';
import { createLeaseClient, type LeaseClientOf } from './lease-client';
import { startJumpstarterCore, type JumpstarterBehaviour } from './simulator-core';
import { settle, type SimulatorError } from './work-queue';

export interface JumpstarterSimulatorOptions extends JumpstarterBehaviour {
  readonly store: ObjectStore;
  /** @default store.clock */
  readonly clock?: Clock;
  /** Shared with the kubelet simulator. @default exporterProcessesOf(store) */
  readonly processes?: ExporterProcesses;
}

/** The simulator as a test drives it; `M` says whether its writes answer now or as Promises. */
export interface JumpstarterSimulatorOf<M extends Mode> {
  readonly endpoint: string;
  readonly processes: ExporterProcesses;
  /** A client that creates and releases Leases. */
  readonly leases: LeaseClientOf<M>;
  /** Errors the simulator could not handle (a test should expect none). */
  readonly errors: readonly SimulatorError[];
  /** The current token of an Exporter's credential, once issued. */
  token(namespace: string, exporter: string): string | undefined;
  /** Issues a new token into the Exporter's credential Secret (rotation) and returns it. */
  rotateToken(namespace: string, exporter: string): Returns<string, M>;
  /** True when nothing is queued. */
  idle(): boolean;
  /** Resolves when the simulator has finished reacting (see `settle`). */
  settle(): Promise<void>;
  stop(): void;
}

/** The in-process simulator. */
export type JumpstarterSimulator = JumpstarterSimulatorOf<'sync'>;

export function startJumpstarterSimulator(options: JumpstarterSimulatorOptions): JumpstarterSimulator {
  const { store, ...behaviour } = options;
  const core = startJumpstarterCore({
    ...behaviour,
    port: storePort(store, ['Exporter', 'Lease', 'Secret']),
    clock: options.clock ?? store.clock,
    processes: options.processes ?? exporterProcessesOf(store),
  });
  const simulator: JumpstarterSimulator = {
    endpoint: core.endpoint,
    processes: core.processes,
    leases: createLeaseClient(store),
    errors: core.errors,
    token: (namespace, exporter) => core.token(namespace, exporter),
    rotateToken: (namespace, exporter) => runNow(core.rotateToken(namespace, exporter)),
    idle: () => core.idle(),
    settle: () => settle([simulator]),
    stop: () => core.stop(),
  };
  return simulator;
}
