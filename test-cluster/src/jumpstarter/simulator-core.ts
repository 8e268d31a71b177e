/**
 * The Jumpstarter controller simulator (INTEROP §1–2) on any `ClusterPort`: the in-process store
 * (`simulator.ts`) or a remote API server (`../remote`). It issues every Exporter's credential Secret
 * and sets `status.credential`/`endpoint`, reports `Registered`/`Online`/`exporterStatus`/`lastSeen`
 * from the simulated exporter processes, derives `status.leaseRef`, and assigns and ends Leases with
 * the exact algorithm of `lease-assignment.ts`.
 *
 * It is level-triggered per namespace: any change of an Exporter, Lease, credential Secret or exporter
 * process queues the namespace, and one pass reads it whole and writes only what differs (an idle
 * cluster sees no writes from it). Time-driven work — a future `beginTime`, expiry, the Pending
 * backoff (1 s doubling to 30 s), a lost process going `Seen` — is scheduled on the clock.
 *
 * A pass reads its namespace from the simulator's own index, fed by the port's watch events (on the
 * store, delivered as it commits; remotely, the port also applies each write's answer at once), so the
 * index shows the simulator's own writes when the next pass runs.
 */
import {
  LeaseConditionTypes,
  type Exporter,
  type ExporterStatus,
  type Lease,
} from 'virtual-exporters/internal';
import { isJsonMap } from '../json-values';
import { drive, type ClusterPort, type Step } from '../port';
import type { Clock, KubeObject } from '../types';
import { createCredentialIssuer } from './credential-issuer';
import type { ExporterProcesses } from './exporter-processes';
import { desiredExporterStatus } from './exporter-status';
import { decideAssignment, type AccessPolicy } from './lease-assignment';
import { decideLeaseEnd } from './lease-end';
import { createNamespaceIndex, nameOf } from './namespace-index';
import { createWorkQueue, type SimulatorError, type WorkQueueOptions } from './work-queue';
import { createLeaseTransitions } from './lease-transitions';
import { labelEnded, writeExporterStatus } from './writes';

export const DEFAULT_ENDPOINT = 'grpc.jumpstarter.test:443';

/** How the Jumpstarter simulator behaves, in either mode. */
export interface JumpstarterBehaviour {
  /** What `Exporter.status.endpoint` says and registrations must present. @default 'grpc.jumpstarter.test:443' */
  readonly endpoint?: string;
  /** Access policies (INTEROP §2 step 5). @default every client may use every exporter */
  readonly accessPolicy?: AccessPolicy;
  /**
   * How long after it first sees an Exporter the simulator issues its credential (a slow Jumpstarter
   * controller, so a test can watch an instance wait for it). @default 0
   */
  readonly credentialDelayMs?: number;
  /** How long a crashed exporter still counts as online (INTEROP §1: 60 s). @default 60000 */
  readonly seenTimeoutMs?: number;
  /** Pending retry backoff (INTEROP §2 step 6). @default { initialMs: 1000, maxMs: 30000 } */
  readonly pendingBackoff?: { readonly initialMs?: number; readonly maxMs?: number };
  /** Errors the simulator could not handle; they are also kept in `errors`. */
  readonly onError?: (error: SimulatorError) => void;
  /** Called as each namespace pass starts (tests count passes with it). */
  readonly onPass?: (namespace: string) => void;
}

export interface JumpstarterCoreOptions extends JumpstarterBehaviour {
  readonly port: ClusterPort;
  readonly clock: Clock;
  readonly processes: ExporterProcesses;
  /** Retries of the work queue (a remote port's transient errors). @default none */
  readonly retry?: WorkQueueOptions['retry'];
}

/** The simulator without its mode-specific surface (the lease client, `settle`). */
export interface JumpstarterCore {
  readonly endpoint: string;
  readonly processes: ExporterProcesses;
  readonly errors: readonly SimulatorError[];
  token(namespace: string, exporter: string): string | undefined;
  /** A step (run it with `runNow` or `drive`) that rotates the Exporter's token and returns the new one. */
  rotateToken(namespace: string, exporter: string): Step<string>;
  /** True when nothing is queued, being worked or waiting for a retry. */
  idle(): boolean;
  stop(): void;
}

export function startJumpstarterCore(options: JumpstarterCoreOptions): JumpstarterCore {
  const { port, clock, processes } = options;
  const endpoint = options.endpoint ?? DEFAULT_ENDPOINT;
  const seenTimeoutMs = options.seenTimeoutMs ?? 60_000;

  const errors: SimulatorError[] = [];
  const credentials = createCredentialIssuer({
    port,
    clock,
    endpoint,
    ...(options.credentialDelayMs !== undefined ? { credentialDelayMs: options.credentialDelayMs } : {}),
  });
  const transitions = createLeaseTransitions(port, options.pendingBackoff);
  /** The active lease of each exporter at the end of the last pass, per namespace (to tell processes). */
  const leaseOfExporter = new Map<string, Map<string, string>>();
  const timers = new Map<string, { at: number; cancel: () => void }>();
  /**
   * The order Leases were created in, by uid (watch events come in commit order): creationTimestamp
   * has whole seconds only and generated names are random, so neither orders leases fairly.
   */
  const leaseOrder = new Map<string, number>();
  let leaseCounter = 0;
  let stopped = false;
  const exporterIndex = createNamespaceIndex<Exporter>();
  const leaseIndex = createNamespaceIndex<Lease>();

  const queue = createWorkQueue<string>(
    (namespace) => drive(reconcileNamespace(namespace)),
    (key, error) => {
      const failure = { key, error };
      errors.push(failure);
      options.onError?.(failure);
    },
    options.retry !== undefined ? { retry: options.retry } : {},
  );

  // --- the pass ----------------------------------------------------------------------------------

  function* reconcileNamespace(namespace: string): Step<void> {
    if (stopped) return;
    options.onPass?.(namespace);
    const now = clock.now();
    const wakeTimes: number[] = [];
    const exporters = exporterIndex.sorted(namespace);
    // A Lease without a spec object (only a looser CRD admits one) is skipped, as Jumpstarter's
    // controller leaves a Lease it cannot decode: it must not stop the namespace's other Leases.
    const leases = leaseIndex
      .sorted(namespace)
      .filter((lease) => lease.metadata.deletionTimestamp === undefined && isJsonMap(lease.spec));

    // Ends: release and expiry; make sure every ended lease carries the label.
    const active: Lease[] = [];
    for (const lease of leases) {
      if (lease.status?.ended === true) {
        yield* labelEnded(port, lease, namespace);
        continue;
      }
      const end = decideLeaseEnd(lease, now);
      if (end.ended) {
        const update = {
          type: LeaseConditionTypes.Ready,
          status: 'False' as const,
          reason: end.reason,
          message: end.message,
        };
        yield* transitions.end(lease, namespace, update, now);
      } else {
        active.push(lease);
        if (end.expiresAt !== undefined) wakeTimes.push(end.expiresAt);
      }
    }

    // Which exporter each active lease holds; tell processes whose lease is over.
    const leaseOf = new Map<string, string>();
    for (const lease of [...active].sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : 1))) {
      const exporter = lease.status?.exporterRef?.name;
      if (exporter && !leaseOf.has(exporter)) leaseOf.set(exporter, nameOf(lease));
    }
    const previous = leaseOfExporter.get(namespace) ?? new Map<string, string>();
    for (const [exporter, lease] of previous) {
      if (leaseOf.get(exporter) !== lease) processes.leaseEnded(namespace, exporter, lease);
    }

    // Exporter status as the controller knows it now (credentials first).
    function* statusOf(exporter: Exporter): Step<ExporterStatus> {
      const issued = credentials.token(namespace, nameOf(exporter)) !== undefined;
      const credentialName =
        issued || credentials.delayOver(exporter, now, wakeTimes)
          ? yield* credentials.ensure(exporter, namespace)
          : undefined;
      const desired = desiredExporterStatus({
        exporter,
        process: processes.get(namespace, nameOf(exporter)),
        leaseName: leaseOf.get(nameOf(exporter)),
        credentialName,
        endpoint,
        now,
        seenTimeoutMs,
      });
      if (desired.recheckAt !== undefined) wakeTimes.push(desired.recheckAt);
      return desired.status;
    }
    const known: Exporter[] = [];
    for (const exporter of exporters) known.push({ ...exporter, status: yield* statusOf(exporter) });
    /** Index of each Exporter in `known` by name (a pass over 10,000 Exporters must not search it). */
    const indexOf = new Map(known.map((exporter, index) => [nameOf(exporter), index]));

    // Assignment, oldest lease first.
    const order = (lease: Lease): number =>
      leaseOrder.get(lease.metadata.uid ?? '') ?? Number.MAX_SAFE_INTEGER;
    const waiting = active
      .filter((lease) => !lease.status?.exporterRef)
      .sort((a, b) => order(a) - order(b) || (nameOf(a) < nameOf(b) ? -1 : 1));
    const leased = new Set(leaseOf.keys());
    for (const lease of waiting) {
      const decision = decideAssignment({
        lease,
        exporters: known,
        leasedExporters: leased,
        now,
        ...(options.accessPolicy !== undefined ? { accessPolicy: options.accessPolicy } : {}),
      });
      switch (decision.action) {
        case 'wait':
          wakeTimes.push(decision.until);
          break;
        case 'end': {
          const update = {
            type: decision.condition,
            status: 'True' as const,
            reason: decision.reason,
            message: decision.message,
          };
          yield* transitions.end(lease, namespace, update, now);
          break;
        }
        case 'pending':
          wakeTimes.push(
            yield* transitions.markPending(lease, namespace, decision.reason, decision.message, now),
          );
          break;
        case 'assign':
          if (yield* transitions.assign(lease, namespace, decision.exporter, decision.grant, now)) {
            const exporter = nameOf(decision.exporter);
            leased.add(exporter);
            leaseOf.set(exporter, nameOf(lease));
            const index = indexOf.get(exporter);
            if (index !== undefined)
              known[index] = { ...known[index], status: yield* statusOf(known[index]) };
          }
          break;
      }
    }
    leaseOfExporter.set(namespace, leaseOf);

    for (const [index, exporter] of exporters.entries()) {
      yield* writeExporterStatus(port, exporter, namespace, known[index].status!);
    }
    schedule(namespace, wakeTimes, now);
  }

  function schedule(namespace: string, wakeTimes: readonly number[], now: number): void {
    const future = wakeTimes.filter((t) => t > now);
    const at = future.length > 0 ? Math.min(...future) : undefined;
    const current = timers.get(namespace);
    if (current !== undefined && current.at === at) return;
    current?.cancel();
    timers.delete(namespace);
    if (at === undefined || stopped) return;
    const cancel = clock.setTimeout(() => {
      timers.delete(namespace);
      queue.add(namespace);
    }, at - now);
    timers.set(namespace, { at, cancel });
  }

  // --- wiring ------------------------------------------------------------------------------------

  const namespaceOf = (object: KubeObject): string | undefined => object.metadata.namespace;
  const unwatch = [
    port.watch('Exporter', (event) => {
      const namespace = namespaceOf(event.object);
      if (namespace === undefined) return;
      exporterIndex.apply(namespace, event.type, event.object as unknown as Exporter);
      queue.add(namespace);
    }),
    port.watch('Lease', (event) => {
      const namespace = namespaceOf(event.object);
      if (namespace === undefined) return;
      const uid = event.object.metadata.uid ?? '';
      if (event.type === 'DELETED') {
        transitions.forget(namespace, nameOf(event.object));
        leaseOrder.delete(uid);
      } else if (!leaseOrder.has(uid)) {
        leaseOrder.set(uid, leaseCounter++);
      }
      leaseIndex.apply(namespace, event.type, event.object as unknown as Lease);
      queue.add(namespace);
    }),
    port.watch('Secret', (event) => {
      const namespace = namespaceOf(event.object);
      if (namespace !== undefined && credentials.observe(event)) queue.add(namespace);
    }),
  ];
  const unsubscribe = processes.subscribe({ changed: (namespace) => queue.add(namespace) });
  processes.setAuthenticator({
    authenticate: (registration) => credentials.authenticate(registration),
    clock,
  });

  return {
    endpoint,
    processes,
    errors,
    token: (namespace, exporter) => credentials.token(namespace, exporter),
    rotateToken: (namespace, exporter) => credentials.rotate(namespace, exporter),
    idle: () => queue.idle(),
    stop() {
      if (stopped) return;
      stopped = true;
      queue.stop();
      for (const stop of unwatch) stop();
      unsubscribe();
      processes.setAuthenticator(undefined);
      for (const timer of timers.values()) timer.cancel();
      timers.clear();
    },
  };
}
