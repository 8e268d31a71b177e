/**
 * The Jumpstarter controller, simulated in process against the test cluster's store (INTEROP §1–2):
 * it issues every Exporter's credential Secret and sets `status.credential`/`endpoint`, reports
 * `Registered`/`Online`/`exporterStatus`/`lastSeen` from the simulated exporter processes, derives
 * `status.leaseRef`, and assigns and ends Leases with the exact algorithm of `lease-assignment.ts`.
 *
 * It is level-triggered per namespace: any change of an Exporter, Lease, credential Secret or exporter
 * process queues the namespace, and one pass reads it whole and writes only what differs (an idle
 * cluster sees no writes from it). Time-driven work — a future `beginTime`, expiry, the Pending
 * backoff (1 s doubling to 30 s), a lost process going `Seen` — is scheduled on the clock.
 *
 * A pass reads its namespace from the simulator's own index, fed by its watches (the store delivers
 * watch events as it commits, so the index is current when a pass runs), rather than listing it: a
 * list scans every object of the kind in the store and deep-copies the namespace's, on every event.
 */
import { isDeepStrictEqual } from 'node:util';
import {
  JUMPSTARTER_API_VERSION,
  Kinds,
  Labels,
  LeaseConditionTypes,
  type Exporter,
  type ExporterStatus,
  type Lease,
  type LeaseStatus,
} from 'virtual-exporters/internal';
import { ApiError, type Clock, type KubeObject, type ObjectStore, type ResourceType } from '../types';
import { isJsonMap } from '../json-values';
import { findCondition, setCondition, timestamp, type ConditionUpdate } from './conditions';
import {
  credentialSecret,
  credentialSecretName,
  exporterOfCredentialSecret,
  issueToken,
  secretValue,
} from './credentials';
import {
  exporterProcessesOf,
  type ExporterProcesses,
  type Registration,
  type RegistrationResult,
} from './exporter-processes';
import { desiredExporterStatus } from './exporter-status';
import { AssignmentReasons, decideAssignment, type AccessPolicy } from './lease-assignment';
import { createLeaseClient, type LeaseClient } from './lease-client';
import { decideLeaseEnd } from './lease-end';
import { createWorkQueue, settle, type SimulatorError } from './work-queue';

export const DEFAULT_ENDPOINT = 'grpc.jumpstarter.test:443';

export interface JumpstarterSimulatorOptions {
  readonly store: ObjectStore;
  /** @default store.clock */
  readonly clock?: Clock;
  /** What `Exporter.status.endpoint` says and registrations must present. @default 'grpc.jumpstarter.test:443' */
  readonly endpoint?: string;
  /** Shared with the kubelet simulator. @default exporterProcessesOf(store) */
  readonly processes?: ExporterProcesses;
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

export interface JumpstarterSimulator {
  readonly endpoint: string;
  readonly processes: ExporterProcesses;
  /** A client that creates and releases Leases. */
  readonly leases: LeaseClient;
  /** Errors the simulator could not handle (a test should expect none). */
  readonly errors: readonly SimulatorError[];
  /** The current token of an Exporter's credential, once issued. */
  token(namespace: string, exporter: string): string | undefined;
  /** Issues a new token into the Exporter's credential Secret (rotation) and returns it. */
  rotateToken(namespace: string, exporter: string): string;
  /** True when nothing is queued. */
  idle(): boolean;
  /** Resolves when the simulator has finished reacting (see `settle`). */
  settle(): Promise<void>;
  stop(): void;
}

interface Backoff {
  attempts: number;
  retryAt: number;
}

function resourceType(store: ObjectStore, apiVersion: string, kind: string): ResourceType {
  const rt = store.registry.byKind(apiVersion, kind);
  if (rt === undefined) {
    throw new Error(`the test cluster does not serve ${kind} (${apiVersion}); give it Jumpstarter's CRDs`);
  }
  return rt;
}

const isNotFound = (error: unknown): boolean => error instanceof ApiError && error.code === 404;
const nameOf = (object: { metadata: { name?: string } }): string => object.metadata.name ?? '';

/** Exporter status fields the simulator owns; any other field a writer put there is left alone. */
const OWNED_EXPORTER_FIELDS = [
  'conditions',
  'credential',
  'endpoint',
  'leaseRef',
  'exporterStatus',
  'statusMessage',
  'lastSeen',
  'devices',
] as const;

export function startJumpstarterSimulator(options: JumpstarterSimulatorOptions): JumpstarterSimulator {
  const { store } = options;
  const clock = options.clock ?? store.clock;
  const endpoint = options.endpoint ?? DEFAULT_ENDPOINT;
  const processes = options.processes ?? exporterProcessesOf(store);
  const seenTimeoutMs = options.seenTimeoutMs ?? 60_000;
  const backoffInitialMs = options.pendingBackoff?.initialMs ?? 1000;
  const backoffMaxMs = options.pendingBackoff?.maxMs ?? 30_000;
  const exporterRt = resourceType(store, JUMPSTARTER_API_VERSION, Kinds.Exporter);
  const leaseRt = resourceType(store, JUMPSTARTER_API_VERSION, Kinds.Lease);
  const secretRt = resourceType(store, 'v1', 'Secret');

  const errors: SimulatorError[] = [];
  /** Credential tokens by `namespace/secretName`, from the Secret watch and our own writes. */
  const tokens = new Map<string, string>();
  /** Pending backoff by `namespace/lease`. */
  const backoffs = new Map<string, Backoff>();
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
  /** Exporters and Leases by namespace and name, as the watches last delivered them (read-only). */
  const exportersByNamespace = new Map<string, Map<string, Exporter>>();
  const leasesByNamespace = new Map<string, Map<string, Lease>>();

  const queue = createWorkQueue<string>(reconcileNamespace, (key, error) => {
    const failure = { key, error };
    errors.push(failure);
    options.onError?.(failure);
  });

  // --- credentials -------------------------------------------------------------------------------

  const secretKey = (namespace: string, exporter: string): string =>
    `${namespace}/${credentialSecretName(exporter)}`;

  /** When this simulator first saw each Exporter still waiting for its credential (`credentialDelayMs`). */
  const awaitingSince = new Map<string, number>();

  /** Whether the credential delay of an Exporter without a token has passed; else when it will. */
  function credentialDelayOver(exporter: Exporter, now: number, wakeTimes: number[]): boolean {
    const delay = options.credentialDelayMs ?? 0;
    if (delay <= 0) return true;
    const id = exporter.metadata.uid ?? nameOf(exporter);
    const since = awaitingSince.get(id) ?? now;
    awaitingSince.set(id, since);
    if (now >= since + delay) return true;
    wakeTimes.push(since + delay);
    return false;
  }

  function ensureCredential(exporter: Exporter, namespace: string): string | undefined {
    const name = nameOf(exporter);
    const key = secretKey(namespace, name);
    if (tokens.has(key)) return credentialSecretName(name);
    awaitingSince.delete(exporter.metadata.uid ?? name);
    if (exporter.metadata.deletionTimestamp !== undefined || exporter.metadata.uid === undefined)
      return undefined;
    const token = issueToken(namespace, name, clock.now(), `https://${endpoint}`);
    try {
      store.create(secretRt, namespace, credentialSecret(exporter, token));
      tokens.set(key, token);
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 409)) throw error;
      const existing = secretValue(store.get(secretRt, namespace, credentialSecretName(name)), 'token');
      if (existing === undefined) return undefined;
      tokens.set(key, existing);
    }
    return credentialSecretName(name);
  }

  function authenticate(registration: Registration): RegistrationResult {
    const { namespace, exporter } = registration;
    let exporterUid: string | undefined;
    try {
      exporterUid = store.get(exporterRt, namespace, exporter).metadata.uid;
    } catch (error) {
      if (isNotFound(error))
        return { accepted: false, reason: `exporter ${namespace}/${exporter} does not exist` };
      throw error;
    }
    if (registration.endpoint !== undefined && registration.endpoint !== endpoint) {
      return {
        accepted: false,
        reason: `cannot reach ${registration.endpoint}: the Jumpstarter controller serves ${endpoint}`,
      };
    }
    if (
      registration.token !== undefined &&
      registration.token !== tokens.get(secretKey(namespace, exporter))
    ) {
      return { accepted: false, reason: `the token of exporter ${namespace}/${exporter} was rejected` };
    }
    return { accepted: true, ...(exporterUid !== undefined ? { exporterUid } : {}) };
  }

  // --- the index ---------------------------------------------------------------------------------

  /** Keeps `index` (by namespace, then name) in step with a watch event. */
  function indexEvent<T extends { metadata: { name?: string } }>(
    index: Map<string, Map<string, T>>,
    namespace: string,
    type: string,
    object: T,
  ): void {
    let names = index.get(namespace);
    if (type === 'DELETED') {
      names?.delete(nameOf(object));
      if (names?.size === 0) index.delete(namespace);
      return;
    }
    if (names === undefined) index.set(namespace, (names = new Map()));
    names.set(nameOf(object), object);
  }

  /** The namespace's objects of `index` in name order (the order a list returns them in). */
  function sortedOf<T extends { metadata: { name?: string } }>(
    index: Map<string, Map<string, T>>,
    namespace: string,
  ): T[] {
    const byName = (a: T, b: T): number => (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0);
    return [...(index.get(namespace)?.values() ?? [])].sort(byName);
  }

  // --- writes ------------------------------------------------------------------------------------

  function patchStatus(
    rt: ResourceType,
    namespace: string,
    name: string,
    status: object,
  ): KubeObject | undefined {
    try {
      return store.patch(rt, namespace, name, 'merge', { status }, 'status');
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  function patchMetadata(rt: ResourceType, namespace: string, name: string, metadata: object): boolean {
    try {
      store.patch(rt, namespace, name, 'merge', { metadata });
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  function endLease(lease: Lease, namespace: string, update: ConditionUpdate, now: number): void {
    const conditions = setCondition(lease.status?.conditions, update, now);
    const written = patchStatus(leaseRt, namespace, nameOf(lease), {
      ended: true,
      endTime: timestamp(now),
      conditions,
    });
    if (written !== undefined) labelEnded(lease, namespace);
    backoffs.delete(`${namespace}/${nameOf(lease)}`);
  }

  function labelEnded(lease: Lease, namespace: string): void {
    if (lease.metadata.labels?.[Labels.leaseEnded] === 'true') return;
    patchMetadata(leaseRt, namespace, nameOf(lease), { labels: { [Labels.leaseEnded]: 'true' } });
  }

  function assignLease(
    lease: Lease,
    namespace: string,
    exporter: Exporter,
    grant: { priority: number; spotAccess: boolean },
    now: number,
  ): boolean {
    const owner = {
      apiVersion: JUMPSTARTER_API_VERSION,
      kind: Kinds.Exporter,
      name: nameOf(exporter),
      uid: exporter.metadata.uid ?? '',
      controller: true,
      blockOwnerDeletion: true,
    };
    const others = (lease.metadata.ownerReferences ?? []).filter((r) => r.controller !== true);
    if (!patchMetadata(leaseRt, namespace, nameOf(lease), { ownerReferences: [...others, owner] }))
      return false;
    // Pending, when it was set, stays True (INTEROP §2): only Ready is written.
    const conditions = setCondition(
      lease.status?.conditions,
      {
        type: LeaseConditionTypes.Ready,
        status: 'True',
        reason: AssignmentReasons.Acquired,
        message: `exporter ${nameOf(exporter)} acquired`,
      },
      now,
    );
    const status: LeaseStatus = {
      ended: false,
      exporterRef: { name: nameOf(exporter) },
      beginTime: timestamp(now),
      priority: grant.priority,
      spotAccess: grant.spotAccess,
      conditions,
    };
    backoffs.delete(`${namespace}/${nameOf(lease)}`);
    return patchStatus(leaseRt, namespace, nameOf(lease), status) !== undefined;
  }

  /** Sets Pending=True with the reason; returns when to retry (1 s doubling to 30 s). */
  function markPending(
    lease: Lease,
    namespace: string,
    reason: string,
    message: string,
    now: number,
  ): number {
    const current = findCondition(lease.status?.conditions, LeaseConditionTypes.Pending);
    if (current?.status !== 'True' || current.reason !== reason || current.message !== message) {
      const conditions = setCondition(
        lease.status?.conditions,
        { type: LeaseConditionTypes.Pending, status: 'True', reason, message },
        now,
      );
      patchStatus(leaseRt, namespace, nameOf(lease), { ended: false, conditions });
    }
    const key = `${namespace}/${nameOf(lease)}`;
    let backoff = backoffs.get(key);
    if (backoff === undefined || backoff.retryAt <= now) {
      const attempts = (backoff?.attempts ?? 0) + 1;
      const delay = Math.min(backoffInitialMs * 2 ** (attempts - 1), backoffMaxMs);
      backoff = { attempts, retryAt: now + delay };
      backoffs.set(key, backoff);
    }
    return backoff.retryAt;
  }

  function writeExporterStatus(exporter: Exporter, namespace: string, desired: ExporterStatus): void {
    const current = (exporter.status ?? {}) as Record<string, unknown>;
    const wanted = desired as Record<string, unknown>;
    const patch: Record<string, unknown> = {};
    for (const field of OWNED_EXPORTER_FIELDS) {
      if (wanted[field] === undefined) {
        if (current[field] !== undefined) patch[field] = null;
      } else if (!isDeepStrictEqual(current[field], wanted[field])) {
        patch[field] = wanted[field];
      }
    }
    if (Object.keys(patch).length > 0) patchStatus(exporterRt, namespace, nameOf(exporter), patch);
  }

  // --- the pass ----------------------------------------------------------------------------------

  function reconcileNamespace(namespace: string): void {
    if (stopped) return;
    options.onPass?.(namespace);
    const now = clock.now();
    const wakeTimes: number[] = [];
    const exporters = sortedOf(exportersByNamespace, namespace);
    // A Lease without a spec object (only a looser CRD admits one) is skipped, as Jumpstarter's
    // controller leaves a Lease it cannot decode: it must not stop the namespace's other Leases.
    const leases = sortedOf(leasesByNamespace, namespace).filter(
      (lease) => lease.metadata.deletionTimestamp === undefined && isJsonMap(lease.spec),
    );

    // Ends: release and expiry; make sure every ended lease carries the label.
    const active: Lease[] = [];
    for (const lease of leases) {
      if (lease.status?.ended === true) {
        labelEnded(lease, namespace);
        continue;
      }
      const end = decideLeaseEnd(lease, now);
      if (end.ended) {
        endLease(
          lease,
          namespace,
          { type: LeaseConditionTypes.Ready, status: 'False', reason: end.reason, message: end.message },
          now,
        );
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
    const statusOf = (exporter: Exporter): ExporterStatus => {
      const issued = tokens.has(secretKey(namespace, nameOf(exporter)));
      const credentialName =
        issued || credentialDelayOver(exporter, now, wakeTimes)
          ? ensureCredential(exporter, namespace)
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
    };
    const known = exporters.map((exporter) => ({ ...exporter, status: statusOf(exporter) }));
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
        case 'end':
          endLease(
            lease,
            namespace,
            { type: decision.condition, status: 'True', reason: decision.reason, message: decision.message },
            now,
          );
          break;
        case 'pending':
          wakeTimes.push(markPending(lease, namespace, decision.reason, decision.message, now));
          break;
        case 'assign':
          if (assignLease(lease, namespace, decision.exporter, decision.grant, now)) {
            const exporter = nameOf(decision.exporter);
            leased.add(exporter);
            leaseOf.set(exporter, nameOf(lease));
            const index = indexOf.get(exporter);
            if (index !== undefined) known[index] = { ...known[index], status: statusOf(known[index]) };
          }
          break;
      }
    }
    leaseOfExporter.set(namespace, leaseOf);

    exporters.forEach((exporter, index) => writeExporterStatus(exporter, namespace, known[index].status));
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
  const watches = [
    store.watch(exporterRt, undefined, {}, (event) => {
      const namespace = namespaceOf(event.object);
      if (namespace === undefined || event.type === 'BOOKMARK') return;
      indexEvent(exportersByNamespace, namespace, event.type, event.object as unknown as Exporter);
      queue.add(namespace);
    }),
    store.watch(leaseRt, undefined, {}, (event) => {
      const namespace = namespaceOf(event.object);
      if (namespace === undefined || event.type === 'BOOKMARK') return;
      const uid = event.object.metadata.uid ?? '';
      if (event.type === 'DELETED') {
        backoffs.delete(`${namespace}/${nameOf(event.object)}`);
        leaseOrder.delete(uid);
      } else if (!leaseOrder.has(uid)) {
        leaseOrder.set(uid, leaseCounter++);
      }
      indexEvent(leasesByNamespace, namespace, event.type, event.object as unknown as Lease);
      queue.add(namespace);
    }),
    store.watch(secretRt, undefined, {}, (event) => {
      const namespace = namespaceOf(event.object);
      const name = nameOf(event.object);
      if (namespace === undefined || event.type === 'BOOKMARK' || !exporterOfCredentialSecret(name)) return;
      const key = `${namespace}/${name}`;
      const token = event.type === 'DELETED' ? undefined : secretValue(event.object, 'token');
      if (token === undefined) tokens.delete(key);
      else tokens.set(key, token);
      queue.add(namespace);
    }),
  ];
  const unsubscribe = processes.subscribe({ changed: (namespace) => queue.add(namespace) });
  processes.setAuthenticator({ authenticate, clock });

  const simulator: JumpstarterSimulator = {
    endpoint,
    processes,
    leases: createLeaseClient(store),
    errors,
    token(namespace, exporter) {
      return tokens.get(secretKey(namespace, exporter));
    },
    rotateToken(namespace, exporter) {
      const token = issueToken(namespace, exporter, clock.now(), `https://${endpoint}`);
      store.patch(secretRt, namespace, credentialSecretName(exporter), 'merge', {
        data: { token: Buffer.from(token).toString('base64') },
      });
      tokens.set(secretKey(namespace, exporter), token);
      return token;
    },
    idle: () => queue.idle(),
    settle: () => settle([simulator]),
    stop() {
      if (stopped) return;
      stopped = true;
      queue.stop();
      for (const watch of watches) watch.stop();
      unsubscribe();
      processes.setAuthenticator(undefined);
      for (const timer of timers.values()) timer.cancel();
      timers.clear();
    },
  };
  return simulator;
}
