/**
 * `ClusterApi` on a real API server (`--backend kube`): a `startKubeCluster()` (etcd, kube-apiserver,
 * kube-controller-manager) with the Jumpstarter and kubelet simulators as its clients
 * (`startRemoteSimulators`), answered in the cluster child process as the test cluster's service is,
 * so the benchmarks run unchanged on either. Where the test cluster's service reads its own store and
 * counters, this one reads what any client of a real server can:
 *
 * - **requests** from the server's audit log (`audit-tail.ts`), with the time the server received
 *   each one (`requestReceivedTimestamp`, microseconds) and the user of its client certificate as the
 *   identity;
 * - **events and counts** from watches opened by this process (a list, then a watch from its
 *   resourceVersion, per resource across all namespaces): an event is timed when the watch delivers
 *   it, except where the audit log names the write that made it — a create (ADDED), a Lease's
 *   assignment (its status write) — whose answer time is used, so that "committed" means what it
 *   means on the test cluster: the server is done with the write;
 * - **seeding** through the API (`kube-seed.ts`), writes and reads as the `admin` identity.
 *
 * Test-cluster-only calls (fault rules) fail with a sentence that says so.
 */
import { readFileSync } from 'node:fs';
import { Watch } from '@kubernetes/client-node';
import type { Exporter, Lease } from 'virtual-exporters/internal';
import {
  startKubeCluster,
  startRemoteSimulators,
  type CounterFilter,
  type KubeCluster,
  type KubeObject,
  type RemoteSimulators,
  type WatchEvent,
} from 'virtual-exporters-test-cluster';
import { AuditTail, type AuditRecord } from './audit-tail';
import { epochNow, sleep } from './clock';
import {
  describe,
  Log,
  type ClusterCalls,
  type ClusterCounts,
  type EventRecord,
  type RequestRecord,
  type ResourceName,
} from './cluster-service';
import { keepAliveKubeConfig } from './keep-alive-kubeconfig';
import { collectionPath, kubeRest, type KubeRest } from './kube-rest';
import { seedSettledPoolsOverApi } from './kube-seed';
import { isOnline } from './seed';

/** The identity the simulators' requests carry. */
export const SIMULATORS_IDENTITY = 'simulators';

/** How long an event waits for the audit line of the write that made it before it keeps its watch time. */
const AUDIT_WAIT_MS = 2000;
const PAGE = 500;

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/** What a mirror keeps of each object: enough to count. */
interface Summary {
  readonly online?: boolean;
  readonly assigned?: boolean;
}

function summaryOf(resource: ResourceName, object: KubeObject): Summary {
  if (resource === 'exporters') return { online: isOnline(object as unknown as Exporter) };
  if (resource === 'leases') {
    const lease = object as unknown as Lease;
    return { assigned: Boolean(lease.status?.exporterRef?.name) && lease.status?.ended !== true };
  }
  return {};
}

const keyOf = (object: KubeObject) => `${object.metadata.namespace ?? ''}/${object.metadata.name ?? ''}`;

/**
 * One resource across all namespaces, listed (in pages) and then watched from the list's
 * resourceVersion; a watch that ends is opened again from the last version delivered, a 410 lists
 * again. Tells `onEvent` of every change after the first list.
 */
class Mirror {
  readonly objects = new Map<string, Summary>();
  readonly synced: Promise<void>;
  /** Lists so far; after the first (a 410, a failed watch), changes between two lists are not told. */
  lists = 0;
  private stopped = false;
  private abort?: AbortController;
  private markSynced!: () => void;

  constructor(
    private readonly resource: ResourceName,
    private readonly rest: KubeRest,
    private readonly watch: Watch,
    private readonly onEvent: (resource: ResourceName, event: WatchEvent, seenAt: number) => void,
    private readonly onRelist: (resource: ResourceName) => void,
  ) {
    this.synced = new Promise((resolve) => (this.markSynced = resolve));
    void this.run();
  }

  private async list(): Promise<string> {
    this.objects.clear();
    let next: string | undefined;
    let version = '';
    do {
      const page = await this.rest.list(this.resource, { limit: PAGE, ...(next ? { continue: next } : {}) });
      for (const item of page.items) this.objects.set(keyOf(item), summaryOf(this.resource, item));
      version = page.metadata.resourceVersion ?? version;
      next = page.metadata.continue || undefined;
    } while (next);
    return version;
  }

  /** Watches from `version` until the stream ends; resolves with the last version and whether it was gone. */
  private watchFrom(version: string): Promise<{ version: string; gone: boolean }> {
    return new Promise((resolve) => {
      let gone = false;
      let last = version;
      this.watch
        .watch(
          collectionPath(this.resource),
          { resourceVersion: version, allowWatchBookmarks: true },
          (type: string, object: KubeObject & { code?: number }) => {
            const seenAt = epochNow();
            if (type === 'ERROR') {
              gone ||= object.code === 410;
              return;
            }
            last = object.metadata?.resourceVersion ?? last;
            if (type === 'BOOKMARK') return;
            if (type === 'DELETED') this.objects.delete(keyOf(object));
            else this.objects.set(keyOf(object), summaryOf(this.resource, object));
            this.onEvent(this.resource, { type: type as WatchEvent['type'], object }, seenAt);
          },
          () => resolve({ version: last, gone }),
        )
        .then(
          (abort) => {
            this.abort = abort;
            if (this.stopped) abort.abort();
          },
          // The watch could not be opened: list again.
          () => resolve({ version: last, gone: true }),
        );
    });
  }

  private async run(): Promise<void> {
    let version: string | undefined;
    while (!this.stopped) {
      try {
        if (version === undefined) {
          if (this.lists++ > 0) {
            this.onRelist(this.resource);
            await sleep(200);
          }
          version = await this.list();
          this.markSynced();
        }
        const end = await this.watchFrom(version);
        version = end.gone ? undefined : end.version;
      } catch {
        version = undefined;
        await sleep(500);
      }
    }
  }

  stop(): void {
    this.stopped = true;
    this.abort?.abort();
  }
}

/** Microseconds of CPU of a process by /proc (utime + stime, in clock ticks of 10 ms). */
function procCpu(pid: number): { user: number; system: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(fields[11]) * 10_000, system: Number(fields[12]) * 10_000 };
  } catch {
    return { user: 0, system: 0 };
  }
}

const matches = (value: string, want: string | readonly string[] | undefined): boolean =>
  want === undefined || (typeof want === 'string' ? value === want : want.includes(value));

/** One instance of the simulators and the namespaces it watches. */
export interface SimulatorShard {
  readonly namespaces: readonly string[];
  readonly sims: RemoteSimulators;
}

export function createKubeClusterService(
  cluster: KubeCluster,
  shards: readonly SimulatorShard[],
  rest: KubeRest,
  log: (message: string) => void = () => undefined,
): ClusterCalls & { stop(): void } {
  const simsOf = (namespace: string): RemoteSimulators => {
    const shard = shards.find((s) => s.namespaces.includes(namespace));
    if (!shard)
      throw new Error(`no simulator watches namespace ${namespace}: start the cluster child with it`);
    return shard.sims;
  };
  const settle = async () => {
    await Promise.all(shards.map((s) => s.sims.settle(60_000)));
  };
  const audit = new AuditTail(cluster.audit.file);
  const requests = new Log<RequestRecord>();
  const byUser = new Map<string, AuditRecord[]>();
  /** When the server answered the create of each object, by `resource/namespace/name`. */
  const created = new Map<string, number>();
  /** The status writes of each Lease, by `namespace/name`. */
  const leaseStatusWrites = new Map<string, AuditRecord[]>();
  const readAudit = () => {
    for (const record of audit.read()) {
      requests.push({
        at: record.receivedAt,
        identity: record.user,
        verb: record.verb,
        resource: record.resource,
        subresource: record.subresource,
        namespace: record.namespace,
        name: record.name,
      });
      const mine = byUser.get(record.user) ?? [];
      mine.push(record);
      byUser.set(record.user, mine);
      if (record.code < 200 || record.code >= 300 || !WRITE_VERBS.has(record.verb)) continue;
      const key = `${record.namespace}/${record.name}`;
      if (record.verb === 'create' && record.subresource === '' && !created.has(`${record.resource}/${key}`))
        created.set(`${record.resource}/${key}`, record.answeredAt);
      if (record.resource === 'leases' && record.subresource === 'status') {
        const writes = leaseStatusWrites.get(key) ?? [];
        writes.push(record);
        leaseStatusWrites.set(key, writes);
      }
    }
  };
  // Read as it grows, so no call finds hundreds of megabytes to parse at once.
  const auditTimer = setInterval(readAudit, 500);

  const watch = new Watch(cluster.kubeConfigFor('bench-recorder'));
  const mirrors = new Map<ResourceName, Mirror>();
  /** Events with the write to look up in the audit log, if any. */
  interface Pending {
    readonly record: EventRecord;
    readonly write?: 'create' | 'lease-status';
  }
  const events = new Log<Pending>();
  let recording = new Set<ResourceName>();
  const assignedSeen = new Set<string>();
  const onEvent = (resource: ResourceName, event: WatchEvent, seenAt: number) => {
    if (!recording.has(resource)) return;
    const record = describe(resource, event, seenAt);
    if (!record) return;
    let write: Pending['write'];
    if (event.type === 'ADDED') write = 'create';
    else if (resource === 'leases' && record.exporterRef && !assignedSeen.has(keyOf(event.object))) {
      assignedSeen.add(keyOf(event.object));
      write = 'lease-status';
    }
    events.push({ record: { ...record, seenAt }, ...(write ? { write } : {}) });
  };
  const mirror = async (resource: ResourceName): Promise<Mirror> => {
    let found = mirrors.get(resource);
    if (!found) {
      found = new Mirror(resource, rest, watch, onEvent, (r) =>
        log(`kube service: the ${r} watch lists again; changes between the two lists are not recorded`),
      );
      mirrors.set(resource, found);
    }
    await found.synced;
    return found;
  };

  /** The time the server answered the write that made the event, or undefined while its audit line is not in. */
  const committedAt = (pending: Pending): number | undefined => {
    const { record, write } = pending;
    const key = `${record.namespace}/${record.name}`;
    if (write === 'create') return created.get(`${record.resource}/${key}`);
    if (write === 'lease-status') {
      const seenAt = record.seenAt ?? record.at;
      const writes = (leaseStatusWrites.get(key) ?? []).filter((w) => w.receivedAt <= seenAt);
      return writes.at(-1)?.answeredAt;
    }
    return record.at;
  };

  const count = (resource: ResourceName, namespaces: readonly string[] | undefined, when?: keyof Summary) => {
    const wanted = namespaces && new Set(namespaces);
    let n = 0;
    for (const [key, summary] of mirrors.get(resource)?.objects ?? []) {
      if (wanted && !wanted.has(key.slice(0, key.indexOf('/')))) continue;
      if (when === undefined || summary[when]) n += 1;
    }
    return n;
  };

  return {
    now: epochNow,
    seed: (layout) => seedSettledPoolsOverApi(rest, simsOf, settle, layout, { log }),
    create: (resource, namespace, object) => rest.create(resource, namespace, object),
    patch: (resource, namespace, name, patch, subresource) =>
      rest.patch(resource, namespace, name, patch, subresource),
    get: (resource, namespace, name) => rest.get(resource, namespace, name),
    async counts(namespaces): Promise<ClusterCounts> {
      await Promise.all((['sets', 'exporters', 'pods', 'leases'] as const).map(mirror));
      return {
        sets: count('sets', namespaces),
        exporters: count('exporters', namespaces),
        online: count('exporters', namespaces, 'online'),
        pods: count('pods', namespaces),
        leases: count('leases', namespaces),
        leasesAssigned: count('leases', namespaces, 'assigned'),
      };
    },
    requests(from) {
      readAudit();
      return requests.page(from);
    },
    async record(resources) {
      await Promise.all(resources.map(mirror));
      events.clear();
      assignedSeen.clear();
      recording = new Set(resources);
    },
    events(from) {
      readAudit();
      const page = events.page(from);
      const entries: EventRecord[] = [];
      let next = page.next - page.entries.length;
      for (const pending of page.entries) {
        const at = committedAt(pending);
        if (at === undefined && epochNow() - (pending.record.seenAt ?? 0) < AUDIT_WAIT_MS) break;
        entries.push(at === undefined ? pending.record : { ...pending.record, at });
        next += 1;
      }
      return { entries, next };
    },
    createLease: async (request) => {
      const lease = await simsOf(request.namespace).jumpstarter!.leases.create(request);
      return lease.metadata?.name ?? '';
    },
    addFault() {
      throw new Error(
        'fault rules are a test-cluster feature: the real API server (--backend kube) cannot inject them',
      );
    },
    clearFaults() {
      throw new Error(
        'fault rules are a test-cluster feature: the real API server (--backend kube) cannot inject them',
      );
    },
    requestTotal(filter: CounterFilter) {
      readAudit();
      const users =
        filter.identity === undefined
          ? [...byUser.keys()]
          : typeof filter.identity === 'string'
            ? [filter.identity]
            : filter.identity;
      let total = 0;
      for (const user of users) {
        for (const r of byUser.get(user) ?? []) {
          if (
            matches(r.verb, filter.verb) &&
            matches(r.group, filter.group) &&
            matches(r.resource, filter.resource) &&
            matches(r.subresource, filter.subresource) &&
            matches(r.namespace, filter.namespace)
          )
            total += 1;
        }
      }
      return total;
    },
    settle,
    cpuUsage() {
      // The whole server side: this process (the simulators, the audit reader, the watches) and the
      // kube-apiserver, etcd and kube-controller-manager processes.
      const own = process.cpuUsage();
      return cluster.processes
        .map((p) => procCpu(p.pid))
        .reduce((a, b) => ({ user: a.user + b.user, system: a.system + b.system }), own);
    },
    cpuByProcess() {
      const total = ({ user, system }: { user: number; system: number }) => user + system;
      return {
        'simulators (cluster child)': total(process.cpuUsage()),
        ...Object.fromEntries(cluster.processes.map((p) => [p.name, total(procCpu(p.pid))])),
      };
    },
    stop() {
      clearInterval(auditTimer);
      for (const m of mirrors.values()) m.stop();
    },
  };
}

export interface KubeBackend {
  readonly url: string;
  kubeconfigYaml(identity: string): string;
  readonly service: ClusterCalls & { stop(): void };
  stop(): Promise<void>;
}

/**
 * Namespaces per instance of the simulators. One remote instance works one namespace at a time and
 * makes one request at a time (its work queue never runs two keys at once), which on a real server
 * makes seeding 10,000 instances a matter of half an hour; instances of up to this many namespaces
 * each, ten at most, work side by side, as a real Jumpstarter controller's workers would.
 */
export function shardNamespaces(namespaces: readonly string[], shards = 10): string[][] {
  const size = Math.max(1, Math.ceil(namespaces.length / shards));
  const out: string[][] = [];
  for (let i = 0; i < namespaces.length; i += size) out.push(namespaces.slice(i, i + size));
  return out;
}

/** Starts the real cluster with `namespaces`, the simulators as its clients, and the service over both. */
export async function startKubeBackend(
  namespaces: readonly string[],
  log: (message: string) => void = () => undefined,
): Promise<KubeBackend> {
  const cluster = await startKubeCluster({ namespaces: [...namespaces] });
  const shards: SimulatorShard[] = [];
  let rest: KubeRest | undefined;
  // Connections kept between requests, as Jumpstarter's controller and a kubelet keep theirs.
  const simsKubeConfig = keepAliveKubeConfig(cluster.kubeconfigYaml(SIMULATORS_IDENTITY));
  const stopSims = async () => {
    await Promise.all(shards.map((s) => s.sims.stop()));
    await simsKubeConfig.close();
  };
  try {
    for (const group of shardNamespaces(namespaces)) {
      shards.push({
        namespaces: group,
        sims: await startRemoteSimulators({
          kubeConfig: simsKubeConfig,
          namespaces: group,
          jumpstarter: true,
          kubelet: true,
        }),
      });
    }
    rest = await kubeRest(cluster.kubeConfig);
    const service = createKubeClusterService(cluster, shards, rest, log);
    const r = rest;
    return {
      url: cluster.url,
      kubeconfigYaml: (identity) => cluster.kubeconfigYaml(identity),
      service,
      async stop() {
        service.stop();
        await stopSims();
        r.close();
        await cluster.stop();
      },
    };
  } catch (error) {
    await stopSims();
    rest?.close();
    await cluster.stop();
    throw error;
  }
}
