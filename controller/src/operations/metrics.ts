/**
 * Prometheus metrics of SPEC §3, on their own registry (never prom-client's global one, so two
 * controllers in one test process do not collide), served at `/metrics` on
 * `--metrics-bind-address`. Every name starts with {@link METRIC_PREFIX}, as JEP-0013 prefixes every
 * Jumpstarter metric `jumpstarter_` (the Node process metrics too, when enabled).
 *
 * | metric (after `jumpstarter_exporterset_`) | type | labels |
 * |---|---|---|
 * | `replicas`, `ready_replicas`, `available_replicas`, `leased_replicas`, `starting_replicas`, `standby_replicas` | gauge | namespace, exporterset |
 * | `pending_leases` (pending demand) | gauge | namespace, exporterset |
 * | `effective_min_available_replicas` (the warm buffer in effect, schedules' raises included) | gauge | namespace, exporterset |
 * | `scale_actions_total` | counter | namespace, exporterset, direction (`up`/`down`), reason |
 * | `instance_startup_seconds` (created → online) | histogram | namespace, exporterset |
 * | `lease_wait_seconds` (pending → assigned) | histogram | namespace, exporterset |
 * | `reconcile_duration_seconds` | histogram | result (`success`/`error`) |
 * | `reconcile_errors_total` | counter | namespace, exporterset |
 * | `workqueue_depth` | gauge | — |
 *
 * Reconcile durations carry no set label (a histogram per set is costly and the per-set question is
 * "does it fail", which the errors counter answers).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { listen, parseBindAddress, reply, type HttpEndpoint } from './http-server';

export interface SetRef {
  readonly namespace: string;
  readonly name: string;
}

/** The pool of one set as the last pass saw it. */
export interface PoolCounts {
  readonly replicas: number;
  readonly ready: number;
  readonly available: number;
  readonly leased: number;
  readonly starting: number;
  readonly standby: number;
  /** Pending Leases this pool should serve (demand). */
  readonly pendingLeases: number;
}

export type ScaleDirection = 'up' | 'down';
export type ReconcileOutcome = 'success' | 'error';

const SET_LABELS = ['namespace', 'exporterset'] as const;

/** The prefix of every metric this controller exports (JEP-0013: `jumpstarter_`, then the component). */
export const METRIC_PREFIX = 'jumpstarter_exporterset_';

export const STARTUP_BUCKETS = [5, 10, 20, 30, 45, 60, 90, 120, 180, 300, 600, 1200];
export const LEASE_WAIT_BUCKETS = [1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800, 3600];
export const RECONCILE_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const POOL_GAUGES: readonly (readonly [keyof PoolCounts, string, string])[] = [
  [
    'replicas',
    'jumpstarter_exporterset_replicas',
    'Instances of the set (Exporters it owns, standbys included).',
  ],
  [
    'ready',
    'jumpstarter_exporterset_ready_replicas',
    'Instances whose Exporter is Online (status.readyReplicas).',
  ],
  [
    'available',
    'jumpstarter_exporterset_available_replicas',
    'Instances Online, enabled and not leased (status.availableReplicas).',
  ],
  ['leased', 'jumpstarter_exporterset_leased_replicas', 'Instances named by a non-ended Lease.'],
  ['starting', 'jumpstarter_exporterset_starting_replicas', 'Instances created but not ready yet.'],
  [
    'standby',
    'jumpstarter_exporterset_standby_replicas',
    'Standby Exporters (no Pod) kept for scale from zero.',
  ],
  [
    'pendingLeases',
    'jumpstarter_exporterset_pending_leases',
    'Pending Leases the set should serve (demand).',
  ],
];

export interface ControllerMetricsOptions {
  /** Also export Node process metrics (CPU, memory, event loop). @default false */
  readonly processMetrics?: boolean;
}

/** prom-client's event-loop delay sampling interval (its default, 10 ms, costs idle CPU). */
export const EVENT_LOOP_MONITORING_PRECISION_MS = 1000;

/**
 * Node process metrics belong to the process, not to a controller: they are collected once, into
 * this registry, however many controllers a process starts (tests and the simulation start hundreds;
 * each collection keeps an event-loop monitor and a GC observer alive for the life of the process).
 */
let processRegistry: Registry | undefined;

function processMetricsRegistry(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    // The event-loop delay histogram samples every 10 ms by default, which is most of an idle
    // controller's CPU; a 1 s resolution still shows the stalls that matter to a reconcile.
    collectDefaultMetrics({
      register: processRegistry,
      prefix: METRIC_PREFIX,
      eventLoopMonitoringPrecision: EVENT_LOOP_MONITORING_PRECISION_MS,
    });
  }
  return processRegistry;
}

export class ControllerMetrics {
  /** This controller's metrics, and the process's when `processMetrics` is on. */
  readonly registry: Registry;
  private readonly pool: Record<keyof PoolCounts, Gauge<(typeof SET_LABELS)[number]>>;
  private readonly effectiveMinAvailable: Gauge<(typeof SET_LABELS)[number]>;
  private readonly scaleActions: Counter<'namespace' | 'exporterset' | 'direction' | 'reason'>;
  private readonly startup: Histogram<(typeof SET_LABELS)[number]>;
  private readonly leaseWait: Histogram<(typeof SET_LABELS)[number]>;
  private readonly reconcileDuration: Histogram<'result'>;
  private readonly reconcileErrors: Counter<(typeof SET_LABELS)[number]>;
  private queueDepth: () => number = () => 0;

  constructor(options: ControllerMetricsOptions = {}) {
    const own = new Registry();
    const registers = [own];
    this.pool = Object.fromEntries(
      POOL_GAUGES.map(([key, name, help]) => [
        key,
        new Gauge({ name, help, labelNames: SET_LABELS, registers }),
      ]),
    ) as Record<keyof PoolCounts, Gauge<(typeof SET_LABELS)[number]>>;
    this.effectiveMinAvailable = new Gauge({
      name: 'jumpstarter_exporterset_effective_min_available_replicas',
      help: 'The warm buffer the set keeps now: spec.minAvailableReplicas, raised by open schedule windows (capped at maxReplicas).',
      labelNames: SET_LABELS,
      registers,
    });
    this.scaleActions = new Counter({
      name: 'jumpstarter_exporterset_scale_actions_total',
      help: 'Instances created (up) or removed (down), by the rule that asked for it.',
      labelNames: [...SET_LABELS, 'direction', 'reason'],
      registers,
    });
    this.startup = new Histogram({
      name: 'jumpstarter_exporterset_instance_startup_seconds',
      help: 'Time from creating an instance to its Exporter first being Online.',
      labelNames: SET_LABELS,
      buckets: STARTUP_BUCKETS,
      registers,
    });
    this.leaseWait = new Histogram({
      name: 'jumpstarter_exporterset_lease_wait_seconds',
      help: 'Time a Lease of the set waited Pending before an Exporter was assigned.',
      labelNames: SET_LABELS,
      buckets: LEASE_WAIT_BUCKETS,
      registers,
    });
    this.reconcileDuration = new Histogram({
      name: 'jumpstarter_exporterset_reconcile_duration_seconds',
      help: 'Duration of reconcile passes.',
      labelNames: ['result'],
      buckets: RECONCILE_BUCKETS,
      registers,
    });
    this.reconcileErrors = new Counter({
      name: 'jumpstarter_exporterset_reconcile_errors_total',
      help: 'Reconcile passes that failed (retried with backoff).',
      labelNames: SET_LABELS,
      registers,
    });
    const depthOf = () => this.queueDepth();
    new Gauge({
      name: 'jumpstarter_exporterset_workqueue_depth',
      help: 'ExporterSet keys waiting to be reconciled.',
      registers,
      collect() {
        this.set(depthOf());
      },
    });
    this.registry = options.processMetrics ? Registry.merge([own, processMetricsRegistry()]) : own;
  }

  /** Sets the pool gauges of `set`. */
  setPool(set: SetRef, counts: PoolCounts): void {
    const labels = labelsOf(set);
    for (const [key] of POOL_GAUGES) this.pool[key].set(labels, counts[key]);
  }

  /** Sets the warm buffer `set` keeps now (status.effectiveMinAvailableReplicas, else the spec's). */
  setEffectiveMinAvailable(set: SetRef, replicas: number): void {
    this.effectiveMinAvailable.set(labelsOf(set), replicas);
  }

  /** Drops the pool gauges of a deleted set, so it stops reporting a stale pool. */
  forgetSet(set: SetRef): void {
    const labels = labelsOf(set);
    for (const [key] of POOL_GAUGES) this.pool[key].remove(labels);
    this.effectiveMinAvailable.remove(labels);
  }

  /** Counts `count` instances created (`up`) or removed (`down`) for `reason` (e.g. `warm-buffer`, `surplus`). */
  recordScaleAction(set: SetRef, direction: ScaleDirection, reason: string, count = 1): void {
    if (count > 0) this.scaleActions.inc({ ...labelsOf(set), direction, reason }, count);
  }

  /** An instance of `set` came Online `seconds` after it was created. */
  observeInstanceStartup(set: SetRef, seconds: number): void {
    this.startup.observe(labelsOf(set), Math.max(0, seconds));
  }

  /** A Lease of `set` was assigned `seconds` after it started waiting. */
  observeLeaseWait(set: SetRef, seconds: number): void {
    this.leaseWait.observe(labelsOf(set), Math.max(0, seconds));
  }

  /** One reconcile pass took `seconds`; a failed one also counts as an error of its set. */
  observeReconcile(set: SetRef, seconds: number, outcome: ReconcileOutcome): void {
    this.reconcileDuration.observe({ result: outcome }, Math.max(0, seconds));
    if (outcome === 'error') this.reconcileErrors.inc(labelsOf(set));
  }

  /** Where the work-queue depth is read at each scrape. */
  bindQueueDepth(depth: () => number): void {
    this.queueDepth = depth;
  }

  /** The exposition text of every metric. */
  render(): Promise<string> {
    return this.registry.metrics();
  }
}

function labelsOf(set: SetRef): Record<(typeof SET_LABELS)[number], string> {
  return { namespace: set.namespace, exporterset: set.name };
}

export interface MetricsServerOptions {
  /** `--metrics-bind-address`, e.g. `:8080`; `0` disables the server. */
  readonly bindAddress: string;
  readonly registry: Registry;
}

/** Serves `/metrics`; resolves to undefined when the address is `0`. */
export async function startMetricsServer(options: MetricsServerOptions): Promise<HttpEndpoint | undefined> {
  const address = parseBindAddress(options.bindAddress);
  if (!address) return undefined;
  const { registry } = options;
  return listen(address, (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://metrics').pathname;
    if (path !== '/metrics') return reply(res, 404, 'not found\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(res, 405, 'method not allowed\n');
    registry.metrics().then(
      (text) => reply(res, 200, text, registry.contentType),
      (error: unknown) => reply(res, 500, `metrics collection failed: ${String(error)}\n`),
    );
  });
}
