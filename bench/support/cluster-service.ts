/**
 * What the cluster child process offers the benchmark over IPC: seeding settled pools straight into
 * the store, single writes, counts, fault rules, Leases created as a client would, and two logs with
 * server-side timestamps (`epochNow`, comparable with the bench process after offset calibration):
 *
 * - the **request log**: every API request as it arrives at the server (before its body is read),
 *   with identity, verb, resource, namespace and name — e.g. when the controller's refill create came;
 * - the **event log**: store changes of the resources asked for, as they are committed (when every
 *   watcher is sent the event), with the few fields the benchmarks look at.
 *
 * The service is a plain object over a `TestCluster`, so the harness tests drive it in process.
 */
import { Labels, type Exporter, type ExporterSet, type Lease } from 'virtual-exporters/internal';
import type {
  CounterFilter,
  FaultRule,
  KubeObject,
  LeaseRequest,
  TestCluster,
  WatchEvent,
} from 'virtual-exporters-test-cluster';
import { epochNow } from './clock';
import { isOnline, resourcesOf, seedSettledPools, type PoolLayout, type SeedReport } from './seed';

export type ResourceName = keyof ReturnType<typeof resourcesOf>;

/** One API request as it arrived. */
export interface RequestRecord {
  readonly at: number;
  readonly identity: string;
  readonly verb: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  /** `''` for creates and collections. */
  readonly name: string;
}

/** One committed change, with what the benchmarks read from it. */
export interface EventRecord {
  readonly at: number;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly resource: ResourceName;
  readonly namespace: string;
  readonly name: string;
  /** The set an Exporter or Pod belongs to (its `exporterset.jumpstarter.dev/name` label). */
  readonly set?: string;
  /** Leases: the Exporter assigned. */
  readonly exporterRef?: string;
  /** Exporters: a credential was issued. */
  readonly credential?: boolean;
  readonly online?: boolean;
  /** Sets: `status.scaleDownWindowStart`. */
  readonly windowStart?: string;
  /** Being deleted (finalizers pending). */
  readonly deleting?: boolean;
  /**
   * On the real server (`--backend kube`): when the bench's watch delivered the change. `at` is then
   * when the server answered the write that made it, where the audit log tells that write for sure (a
   * create; a Lease's assignment), and this same time otherwise.
   */
  readonly seenAt?: number;
}

export interface Page<T> {
  readonly entries: readonly T[];
  /** The cursor of the next call. */
  readonly next: number;
}

export interface ClusterCounts {
  readonly sets: number;
  readonly exporters: number;
  readonly online: number;
  readonly pods: number;
  readonly leases: number;
  readonly leasesAssigned: number;
}

/** The calls the cluster child answers (each may be async). */
export interface ClusterApi {
  now(): number;
  seed(layout: PoolLayout): Promise<SeedReport>;
  create(resource: ResourceName, namespace: string, object: KubeObject): KubeObject;
  patch(
    resource: ResourceName,
    namespace: string,
    name: string,
    patch: unknown,
    subresource?: 'status',
  ): KubeObject;
  get(resource: ResourceName, namespace: string, name: string): KubeObject | undefined;
  counts(namespaces?: readonly string[]): ClusterCounts;
  /** Requests from cursor `from` on (0: since the start). */
  requests(from: number): Page<RequestRecord>;
  /** Starts (or restarts, emptying the log) recording changes of `resources`. */
  record(resources: readonly ResourceName[]): void;
  events(from: number): Page<EventRecord>;
  /** Creates a Lease as a Jumpstarter client does; returns its name. */
  createLease(request: LeaseRequest): string;
  addFault(rule: FaultRule): string;
  clearFaults(): void;
  /** Requests answered so far that match `filter`. */
  requestTotal(filter: CounterFilter): number;
  /** Resolves when both simulators have reacted to everything so far. */
  settle(): Promise<void>;
  /**
   * The CPU time (µs) of the server side so far — the cluster process; on the real server also its
   * kube-apiserver, etcd and kube-controller-manager — to tell a busy server from a slow client.
   */
  cpuUsage(): NodeJS.CpuUsage;
  /** The same, user + system µs, by process. */
  cpuByProcess(): Record<string, number>;
}

/**
 * `ClusterApi` as a backend may answer it: each call now or as a Promise (the real server's backend
 * answers most over HTTP). The cluster child awaits every answer either way.
 */
export type ClusterCalls = {
  readonly [K in keyof ClusterApi]: (
    ...args: Parameters<ClusterApi[K]>
  ) => ReturnType<ClusterApi[K]> | Promise<Awaited<ReturnType<ClusterApi[K]>>>;
};

/** Requests kept at most (the oldest are dropped; cursors stay valid). */
const LOG_LIMIT = 500_000;

export class Log<T> {
  private items: T[] = [];
  private dropped = 0;

  push(item: T): void {
    this.items.push(item);
    if (this.items.length > LOG_LIMIT) {
      const cut = this.items.length - LOG_LIMIT;
      this.items = this.items.slice(cut);
      this.dropped += cut;
    }
  }

  page(from: number): Page<T> {
    const start = Math.max(0, from - this.dropped);
    return { entries: this.items.slice(start), next: this.dropped + this.items.length };
  }

  clear(): void {
    this.dropped += this.items.length;
    this.items = [];
  }
}

/** What the benchmarks read from one change (`at`: when it happened, default now). */
export function describe(
  resource: ResourceName,
  event: WatchEvent,
  at: number = epochNow(),
): EventRecord | undefined {
  if (event.type === 'BOOKMARK') return undefined;
  const { object } = event;
  const base = {
    at,
    type: event.type,
    resource,
    namespace: object.metadata.namespace ?? '',
    name: object.metadata.name ?? '',
    ...(object.metadata.deletionTimestamp ? { deleting: true } : {}),
  };
  const set = object.metadata.labels?.[Labels.exporterSetName];
  switch (resource) {
    case 'exporters': {
      const exporter = object as unknown as Exporter;
      return {
        ...base,
        ...(set ? { set } : {}),
        credential: exporter.status?.credential?.name !== undefined,
        online: isOnline(exporter),
      };
    }
    case 'leases': {
      const exporterRef = (object as unknown as Lease).status?.exporterRef?.name;
      return { ...base, ...(exporterRef ? { exporterRef } : {}) };
    }
    case 'sets': {
      const windowStart = (object as unknown as ExporterSet).status?.scaleDownWindowStart;
      return { ...base, ...(windowStart ? { windowStart } : {}) };
    }
    default:
      return { ...base, ...(set ? { set } : {}) };
  }
}

export function createClusterService(cluster: TestCluster): ClusterApi & { stop(): void } {
  const rt = resourcesOf(cluster);
  const requests = new Log<RequestRecord>();
  const events = new Log<EventRecord>();
  let watches: { stop(): void }[] = [];
  const unsubscribe = cluster.counters.onRequest((request) =>
    requests.push({
      at: epochNow(),
      identity: request.identity,
      verb: request.verb,
      resource: request.resource,
      subresource: request.subresource,
      namespace: request.namespace,
      name: request.name ?? '',
    }),
  );
  const jumpstarter = () => {
    if (!cluster.jumpstarter) throw new Error('the cluster runs without the Jumpstarter simulator');
    return cluster.jumpstarter;
  };
  const listIn = (resource: ResourceName, namespaces: readonly string[] | undefined) =>
    namespaces === undefined
      ? cluster.store.list(rt[resource], undefined).items
      : namespaces.flatMap((ns) => cluster.store.list(rt[resource], ns).items);

  return {
    now: epochNow,
    seed: (layout) => seedSettledPools(cluster, layout),
    create: (resource, namespace, object) => cluster.store.create(rt[resource], namespace, object),
    patch: (resource, namespace, name, patch, subresource) =>
      cluster.store.patch(rt[resource], namespace, name, 'merge', patch, subresource),
    get(resource, namespace, name) {
      try {
        return cluster.store.get(rt[resource], namespace, name);
      } catch {
        return undefined;
      }
    },
    counts(namespaces) {
      const exporters = listIn('exporters', namespaces) as unknown as Exporter[];
      const leases = listIn('leases', namespaces) as unknown as Lease[];
      return {
        sets: listIn('sets', namespaces).length,
        exporters: exporters.length,
        online: exporters.filter(isOnline).length,
        pods: listIn('pods', namespaces).length,
        leases: leases.length,
        leasesAssigned: leases.filter((l) => l.status?.exporterRef?.name && l.status.ended !== true).length,
      };
    },
    requests: (from) => requests.page(from),
    record(resources) {
      for (const watch of watches) watch.stop();
      events.clear();
      watches = resources.map((resource) =>
        cluster.store.watch(rt[resource], undefined, {}, (event) => {
          const record = describe(resource, event);
          if (record) events.push(record);
        }),
      );
    },
    events: (from) => events.page(from),
    createLease: (request) => jumpstarter().leases.create(request).metadata.name ?? '',
    addFault: (rule) => cluster.faults.add(rule),
    clearFaults: () => cluster.faults.clear(),
    requestTotal: (filter) => cluster.counters.total(filter),
    settle: () => cluster.settle(),
    cpuUsage: () => process.cpuUsage(),
    cpuByProcess() {
      const { user, system } = process.cpuUsage();
      return { 'test cluster': user + system };
    },
    stop() {
      unsubscribe();
      for (const watch of watches) watch.stop();
      watches = [];
    },
  };
}
