/**
 * P2 reaction: 1,000 ExporterSets with 10,000 settled instances (Exporters Online, Pods running,
 * config Secrets, credentials), 9 of each set's 10 instances leased, warm buffer 1 — so one more
 * lease takes a set's last warm instance and the controller must create a refill at once.
 *
 * Per lease (a different set each time), three timestamps on one timeline:
 *   T0  the cluster commits the Lease's assignment (the Jumpstarter simulator; event log);
 *   T1  a separate watcher in the bench process receives that watch event;
 *   T2  the controller's refill Exporter create arrives at the server (request log).
 * The controller receives the same event at about T1, and its create travels back to the server about
 * as long as the event travelled to it, so its own reaction is (T2 − T0) − 2·d, with d the bare watch
 * delivery latency (T1 − T0) of this run (its median: a stall of the bench process must not make a
 * sample look fast). Equivalently: from the watch event as the watcher sees it to the create request,
 * minus the delivery latency. Target: p99 ≤ 20 ms.
 *
 * On the real server (`--backend kube`) T0 is when kube-apiserver answered the simulator's status
 * write that assigned the Lease (its audit log), T2 when it received the create (likewise), and one d
 * is subtracted, not two: the create's way back is not the event's way out there — kube-apiserver
 * stamps a request as it reads it, in its own goroutine, while d includes etcd's watch and the
 * apiserver's watch cache. So the kube figure is from the event reaching a watcher beside the
 * controller to the create reaching the server, the create's own trip included (the −2·d figure is in
 * the details).
 *
 * The 1,000 sets live in 100 namespaces of 10 sets: the Jumpstarter simulator reconciles a whole
 * namespace on every change (it lists and deep-copies every Exporter there), so one namespace of
 * 10,000 Exporters would keep the cluster process busy for tens of milliseconds after each
 * assignment and charge that to the controller's create (see bench/README.md).
 */
import { KubeConfig, Watch } from '@kubernetes/client-node';
import type { Lease } from 'virtual-exporters/internal';
import type { Benchmark } from './support/benchmark';
import { profileFlags } from './support/benchmark';
import { startClusterChild, type ClusterChild } from './support/cluster-child';
import type { RequestRecord } from './support/cluster-service';
import { epochNow, sleep } from './support/clock';
import { metricTotal, startControllerChild } from './support/controller-child';
import { CONTROLLER_IDENTITY, waitForQuiet, WRITE_VERBS } from './support/quiet';
import type { BenchResult } from './support/results';
import { poolLabels, setNameOf } from './support/seed';
import { median, summarize } from './support/stats';

const NAMESPACES = 100;
const SETS_PER_NAMESPACE = 10;
const INSTANCES_PER_SET = 10;
const LEASED_PER_SET = 9;
const WATCHER_IDENTITY = 'bench';

export const namespaceOf = (index: number): string => `reaction-${String(index).padStart(2, '0')}`;

/** The bench process's own Lease watch: when each Lease was first seen assigned (local time). */
class AssignmentWatcher {
  readonly seen = new Map<string, number>();
  private controller?: AbortController;
  private resourceVersion = '';
  private stopped = false;

  constructor(private readonly kubeConfig: KubeConfig) {}

  async start(): Promise<void> {
    if (this.stopped) return;
    this.controller = await new Watch(this.kubeConfig).watch(
      '/apis/jumpstarter.dev/v1alpha1/leases',
      {
        allowWatchBookmarks: true,
        ...(this.resourceVersion ? { resourceVersion: this.resourceVersion } : {}),
      },
      (phase, object: Lease) => {
        const at = epochNow();
        if (object?.metadata?.resourceVersion) this.resourceVersion = object.metadata.resourceVersion;
        const key = `${object?.metadata?.namespace}/${object?.metadata?.name}`;
        if (
          (phase === 'ADDED' || phase === 'MODIFIED') &&
          object.status?.exporterRef &&
          !this.seen.has(key)
        ) {
          this.seen.set(key, at);
        }
      },
      () => {
        // The server ends watches after its timeout: resume from the last version seen.
        // (A watch that cannot restart shows up as leases "the bench watcher did not see".)
        if (!this.stopped) setTimeout(() => this.start().catch(() => undefined), 0);
      },
    );
  }

  stop(): void {
    this.stopped = true;
    this.controller?.abort();
  }
}

interface Sample {
  readonly lease: string;
  /** Local timeline, ms. */
  readonly assignedAt: number;
  readonly watcherAt: number;
  readonly createAt: number;
  /** The controller's last CA bundle read before the create (a round trip of the refill's pass). */
  readonly caReadAt?: number;
}

async function measureOne(
  cluster: ClusterChild,
  watcher: AssignmentWatcher,
  index: number,
  cursors: { requests: number; events: number },
): Promise<Sample | string> {
  const namespace = namespaceOf(index % NAMESPACES);
  const set = setNameOf(Math.floor(index / NAMESPACES) % SETS_PER_NAMESPACE);
  const lease = `reaction-${index}`;
  await cluster.call('createLease', {
    namespace,
    name: lease,
    selector: { matchLabels: poolLabels(set) },
    duration: '1h',
    clientName: 'bench',
  });
  let assignedAt: number | undefined;
  let createAt: number | undefined;
  let caReadAt: number | undefined;
  const ours = (r: RequestRecord) => r.identity === CONTROLLER_IDENTITY && r.namespace === namespace;
  const deadline = Date.now() + 10_000;
  const seen = () => watcher.seen.has(`${namespace}/${lease}`);
  while (Date.now() < deadline && (assignedAt === undefined || createAt === undefined || !seen())) {
    // The times come from the logs; polling slowly keeps the cluster process free for the controller.
    await sleep(20);
    const events = await cluster.call('events', cursors.events);
    cursors.events = events.next;
    const assigned = events.entries.find(
      (e) => e.name === lease && e.namespace === namespace && e.exporterRef,
    );
    if (assigned && assignedAt === undefined) assignedAt = cluster.toLocal(assigned.at);
    if (createAt !== undefined) continue;
    const requests = await cluster.call('requests', cursors.requests);
    cursors.requests = requests.next;
    for (const r of requests.entries.filter(ours)) {
      if (r.verb === 'get' && r.resource === 'configmaps') caReadAt = cluster.toLocal(r.at);
      if (r.verb === 'create' && r.resource === 'exporters') {
        createAt = cluster.toLocal(r.at);
        break;
      }
    }
  }
  const watcherAt = watcher.seen.get(`${namespace}/${lease}`);
  if (assignedAt === undefined) return `${lease}: the lease was not assigned within 10 s`;
  if (watcherAt === undefined) return `${lease}: the bench watcher did not see the assignment`;
  if (createAt === undefined) return `${lease}: no refill create within 10 s`;
  return { lease, assignedAt, watcherAt, createAt, ...(caReadAt !== undefined ? { caReadAt } : {}) };
}

const round = (x: number) => Math.round(x * 100) / 100;

export const p2: Benchmark = {
  id: 'p2',
  name: 'p2-reaction',
  title: 'reaction: lease takes a set’s last warm instance → refill create (1,000 sets, 10,000 instances)',
  async run(context): Promise<BenchResult> {
    const namespaces = Array.from({ length: NAMESPACES }, (_, i) => namespaceOf(i));
    const cluster = await startClusterChild({
      backend: context.settings.backend,
      namespaces,
      identities: [CONTROLLER_IDENTITY, WATCHER_IDENTITY],
    });
    try {
      context.log('p2: seeding 1,000 sets, 10,000 instances, 9,000 leases');
      const seed = await cluster.call('seed', {
        namespaces,
        setsPerNamespace: SETS_PER_NAMESPACE,
        instancesPerSet: INSTANCES_PER_SET,
        leasedPerSet: LEASED_PER_SET,
        setSpec: { minReplicas: 0, minAvailableReplicas: 1, maxReplicas: 0 },
      });
      const controller = await startControllerChild({
        kubeconfigYaml: cluster.kubeconfigs[CONTROLLER_IDENTITY],
        nodeFlags: profileFlags(context.settings, 'p2'),
      });
      const kubeConfig = new KubeConfig();
      kubeConfig.loadFromString(cluster.kubeconfigs[WATCHER_IDENTITY]);
      const watcher = new AssignmentWatcher(kubeConfig);
      try {
        const started = Date.now();
        await controller.ready();
        const syncedMs = Date.now() - started;
        context.log(`p2: controller synced in ${syncedMs} ms; waiting for its first passes`);
        const settleMs = await waitForQuiet(cluster, { quietMs: 3000 });
        const warmUp = await cluster.call('requestTotal', {
          identity: CONTROLLER_IDENTITY,
          verb: [...WRITE_VERBS],
        });
        const warmUpCreates = await cluster.call('requestTotal', {
          identity: CONTROLLER_IDENTITY,
          verb: 'create',
          resource: 'exporters',
        });
        // What the warm-up wrote, by verb and resource (from the same log the samples are read from).
        const warmUpLog = await cluster.call('requests', 0);
        const warmUpByVerb: Record<string, number> = {};
        for (const r of warmUpLog.entries) {
          if (r.identity !== CONTROLLER_IDENTITY || !WRITE_VERBS.includes(r.verb as never)) continue;
          const key = `${r.verb} ${r.resource}${r.subresource ? `/${r.subresource}` : ''}`;
          warmUpByVerb[key] = (warmUpByVerb[key] ?? 0) + 1;
        }
        await watcher.start();
        await cluster.call('record', ['leases']);
        const cursors = { requests: warmUpLog.next, events: 0 };
        const samples: Sample[] = [];
        const failures: string[] = [];
        const iterations = Math.min(context.settings.reactionIterations, NAMESPACES * SETS_PER_NAMESPACE);
        for (let i = 0; i < iterations; i++) {
          const sample = await measureOne(cluster, watcher, i, cursors);
          if (typeof sample === 'string') failures.push(sample);
          else samples.push(sample);
          // Let the refill boot and the controller settle before the next lease.
          await waitForQuiet(cluster, { quietMs: 150, timeoutMs: 30_000 });
          if ((i + 1) % 50 === 0) context.log(`p2: ${i + 1}/${iterations} leases`);
        }
        if (samples.length === 0)
          throw new Error(`no lease was measured: ${failures.slice(0, 3).join('; ')}`);
        const delivery = samples.map((s) => s.watcherAt - s.assignedAt);
        const deliveryMs = median(delivery);
        const endToEnd = samples.map((s) => s.createAt - s.assignedAt);
        // Deliveries subtracted: the event's way out and, on the test cluster, the create's way back.
        const trips = context.settings.backend === 'kube' ? 1 : 2;
        const reaction = endToEnd.map((ms) => ms - trips * deliveryMs);
        const caReads = samples.flatMap((s) => (s.caReadAt !== undefined ? [s.createAt - s.caReadAt] : []));
        const metrics = await controller.metrics();
        const summary = summarize(reaction);
        return {
          name: 'p2-reaction',
          title: this.title,
          figures: [
            { label: 'reaction p99', value: round(summary.p99), unit: 'ms', target: { op: '<=', value: 20 } },
            { label: 'reaction p50', value: round(summary.p50), unit: 'ms' },
            {
              label: `watch delivery (median, subtracted ${trips === 2 ? 'twice' : 'once'})`,
              value: round(deliveryMs),
              unit: 'ms',
            },
          ],
          details: {
            layout: {
              namespaces: NAMESPACES,
              setsPerNamespace: SETS_PER_NAMESPACE,
              instancesPerSet: INSTANCES_PER_SET,
              leasedPerSet: LEASED_PER_SET,
            },
            seed,
            controllerSyncedMs: syncedMs,
            controllerSettledMs: settleMs,
            warmUpWrites: warmUp,
            warmUpExporterCreates: warmUpCreates,
            warmUpWritesByVerb: warmUpByVerb,
            clockOffset: cluster.clockOffset,
            leases: iterations,
            measured: samples.length,
            failures,
            reactionMs: summary,
            watchDeliveryMs: summarize(delivery),
            assignmentToCreateMs: summarize(endToEnd),
            ...(trips === 1
              ? { reactionMinusTwoDeliveriesMs: summarize(endToEnd.map((ms) => ms - 2 * deliveryMs)) }
              : {}),
            caBundleReadToCreateMs: caReads.length > 0 ? summarize(caReads) : null,
            reconcilePasses: metricTotal(metrics, 'jumpstarter_exporterset_reconcile_duration_seconds_count'),
          },
          notes: [
            `reaction = (refill create arrives − assignment committed) − ${trips} × median bare watch delivery latency`,
          ],
        };
      } finally {
        watcher.stop();
        await controller.stop();
      }
    } finally {
      await cluster.stop();
    }
  },
};
