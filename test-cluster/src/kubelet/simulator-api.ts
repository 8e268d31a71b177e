/**
 * What a running kubelet simulator offers, in either mode: the logic of `simulator-core.ts` gives
 * everything but `settle`, which the in-process mode (`simulator.ts`) and the remote one each provide.
 */
import type { ExporterProcesses } from '../jumpstarter/exporter-processes';
import type { SimulatorError } from '../jumpstarter/work-queue';
import type { PodFault, PodMatch } from './faults';

/** The simulator without `settle`. */
export interface KubeletCore {
  readonly processes: ExporterProcesses;
  readonly errors: readonly SimulatorError[];
  /** Adds a fault rule (consulted at boot, oldest first); returns a function that removes it. */
  injectFault(match: PodMatch, fault: PodFault, options?: { readonly times?: number }): () => void;
  /** Crashes a Pod now: its containers exit with code 1, the Pod fails, its process is lost. */
  crash(namespace: string, name: string, message?: string): void;
  /** Changes the boot delay of Pods booting from now on (of one image, or the default). */
  setBootDelay(ms: number, image?: string): void;
  idle(): boolean;
  stop(): void;
}

export interface KubeletSimulator extends KubeletCore {
  settle(): Promise<void>;
}
