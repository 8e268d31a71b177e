/**
 * The simulated exporter processes (`jmp run`) and their connection to the Jumpstarter controller:
 * the in-process stand-in for the gRPC channel between the two simulators. The kubelet simulator
 * starts a process when an exporter Pod runs and it registers here; the Jumpstarter simulator reads
 * the processes to set `Registered`/`Online` and tells a process when its lease ended, as the real
 * controller does over gRPC. Tests may also drive it directly (a process without a Pod).
 *
 * Listeners are called synchronously and must only schedule work.
 */
import type { Clock, ObjectStore } from '../types';
import type { ExporterDevice } from 'virtual-exporters/internal';

/**
 * - `running`: registered and reporting in;
 * - `exiting`: its lease ended and it was configured to exit on lease end (it still reports in);
 * - `exited`: shut down gracefully (unregistered) — Online=False/Offline;
 * - `lost`: crashed or killed without unregistering — the controller notices only when it has not
 *   been seen for a while (Online=False/Seen).
 */
export type ExporterProcessPhase = 'running' | 'exiting' | 'exited' | 'lost';

export interface ExporterProcessState {
  readonly namespace: string;
  readonly exporter: string;
  readonly phase: ExporterProcessPhase;
  readonly exitOnLeaseEnd: boolean;
  /** The Pod the process runs in, when it runs in one. */
  readonly podUid?: string;
  readonly devices: readonly ExporterDevice[];
  /**
   * The uid of the Exporter the controller accepted the registration for: a process of an earlier
   * Exporter of the same name is told apart by identity, not by comparing its registration time with
   * the API server's creationTimestamp (two clocks). Absent when no controller checked it.
   */
  readonly exporterUid?: string;
  /** When it registered, on the controller's clock (see `Authenticator.clock`). */
  readonly registeredAt: number;
  /**
   * When it last reported in (the controller's clock ms): its registration, then the moment it
   * stopped. A running process reports in continuously; only changes are recorded, so idle exporters
   * cause no writes.
   */
  readonly lastSeen: number;
}

/** What a starting process presents to the controller. */
export interface Registration {
  readonly namespace: string;
  readonly exporter: string;
  readonly podUid?: string;
  /** The token from its exporter config; absent: nothing to check (no config). */
  readonly token?: string;
  /** The endpoint from its exporter config; absent: not checked. */
  readonly endpoint?: string;
  /** @default false (what `jmp run` does when the config does not say) */
  readonly exitOnLeaseEnd?: boolean;
  readonly devices?: readonly ExporterDevice[];
}

export type RegistrationResult =
  | { readonly accepted: true; readonly exporterUid?: string }
  | { readonly accepted: false; readonly reason: string };

/** The controller side of registration: accepts or rejects a process (unknown exporter, bad token). */
export interface Authenticator {
  readonly authenticate: (registration: Registration) => RegistrationResult;
  /**
   * The controller's clock, which stamps `registeredAt` and `lastSeen` (upstream's controller sets
   * `lastSeen` from its own clock), so they compare with the controller's "now" whatever the API
   * server's or the kubelet's clock says.
   */
  readonly clock: Clock;
}

export interface ExporterProcessListener {
  /** A process registered, began exiting, exited or was lost. */
  changed?(namespace: string, exporter: string): void;
  /** The controller told the process its lease ended; `exiting` when the process now exits. */
  leaseEnded?(namespace: string, exporter: string, lease: string, exiting: boolean): void;
}

export interface ExporterProcesses {
  /** A process connects and registers its devices; rejected ones never become `running`. */
  register(registration: Registration): RegistrationResult;
  /**
   * The process stops: `graceful` (SIGTERM, end of lease: it unregisters) or `lost` (crash, kill).
   * With `podUid`, only the process of that Pod stops (a deleted Pod never stops its successor).
   */
  exit(namespace: string, exporter: string, how: 'graceful' | 'lost', podUid?: string): void;
  /** Controller → process: its lease ended. Returns whether the process is now exiting. */
  leaseEnded(namespace: string, exporter: string, lease: string): boolean;
  get(namespace: string, exporter: string): ExporterProcessState | undefined;
  list(): ExporterProcessState[];
  /** Installed by the Jumpstarter simulator; without one every registration is accepted. */
  setAuthenticator(authenticator: Authenticator | undefined): void;
  subscribe(listener: ExporterProcessListener): () => void;
}

const keyOf = (namespace: string, exporter: string): string => `${namespace}/${exporter}`;

export function createExporterProcesses(clock: Clock): ExporterProcesses {
  const processes = new Map<string, ExporterProcessState>();
  const listeners = new Set<ExporterProcessListener>();
  let authenticator: Authenticator | undefined;

  const changed = (namespace: string, exporter: string): void => {
    for (const listener of [...listeners]) listener.changed?.(namespace, exporter);
  };

  return {
    register(registration) {
      const result: RegistrationResult = authenticator?.authenticate(registration) ?? { accepted: true };
      if (!result.accepted) return result;
      const now = (authenticator?.clock ?? clock).now();
      const { namespace, exporter } = registration;
      processes.set(keyOf(namespace, exporter), {
        namespace,
        exporter,
        phase: 'running',
        exitOnLeaseEnd: registration.exitOnLeaseEnd ?? false,
        ...(registration.podUid !== undefined ? { podUid: registration.podUid } : {}),
        devices: registration.devices ?? [],
        ...(result.exporterUid !== undefined ? { exporterUid: result.exporterUid } : {}),
        registeredAt: now,
        lastSeen: now,
      });
      changed(namespace, exporter);
      return result;
    },
    exit(namespace, exporter, how, podUid) {
      const key = keyOf(namespace, exporter);
      const process = processes.get(key);
      if (process === undefined || process.phase === 'exited' || process.phase === 'lost') return;
      if (podUid !== undefined && process.podUid !== undefined && process.podUid !== podUid) return;
      const now = (authenticator?.clock ?? clock).now();
      processes.set(key, { ...process, phase: how === 'graceful' ? 'exited' : 'lost', lastSeen: now });
      changed(namespace, exporter);
    },
    leaseEnded(namespace, exporter, lease) {
      const key = keyOf(namespace, exporter);
      const process = processes.get(key);
      if (process === undefined || process.phase !== 'running') return false;
      const exiting = process.exitOnLeaseEnd;
      if (exiting) processes.set(key, { ...process, phase: 'exiting' });
      for (const listener of [...listeners]) listener.leaseEnded?.(namespace, exporter, lease, exiting);
      if (exiting) changed(namespace, exporter);
      return exiting;
    },
    get(namespace, exporter) {
      return processes.get(keyOf(namespace, exporter));
    },
    list() {
      return [...processes.values()];
    },
    setAuthenticator(next) {
      authenticator = next;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const shared = new WeakMap<ObjectStore, ExporterProcesses>();

/**
 * The processes of one test cluster: both simulators default to this, so they are connected without
 * wiring. Created on first use with the store's clock.
 */
export function exporterProcessesOf(store: ObjectStore): ExporterProcesses {
  let processes = shared.get(store);
  if (processes === undefined) {
    processes = createExporterProcesses(store.clock);
    shared.set(store, processes);
  }
  return processes;
}
