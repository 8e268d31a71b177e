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
 * | `forecast_leases` (expected peak), `forecast_warm_buffer` (the buffer it would set), while `spec.forecast.mode` is not Off | gauge | namespace, exporterset |
 * | `effective_min_available_replicas` (the warm buffer in effect, schedules' raises included) | gauge | namespace, exporterset |
 * | `scale_actions_total` | counter | namespace, exporterset, direction (`up`/`down`), reason |
 * | `instance_startup_seconds` (created → online) | histogram | namespace, exporterset |
 * | `lease_wait_seconds` (pending → assigned), exemplar `lease` | histogram | namespace, exporterset |
 * | `leases_served_total` (assigned an instance) | counter | namespace, exporterset, start (`warm`/`cold`) |
 * | `reconcile_duration_seconds` | histogram | result (`success`/`error`) |
 * | `reconcile_errors_total` | counter | namespace, exporterset |
 * | `workqueue_depth` | gauge | — |
 * | `leader` (1 while this process leads and reconciles, else 0) | gauge | provisioner |
 *
 * Reconcile durations carry no set label (a histogram per set is costly and the per-set question is
 * "does it fail", which the errors counter answers). Each instance and lease counts once, also across
 * controller restarts (the demand recorder remembers them, demand-recorder.ts). A served lease is
 * `warm` when its instance was Online before the lease was created, else `cold`.
 *
 * `/metrics` answers in the Prometheus text format, or in OpenMetrics when the scraper's `Accept`
 * asks for `application/openmetrics-text` — only OpenMetrics carries exemplars: each lease-wait bucket
 * names the last lease observed in it (`{lease="<name>"}`), so a slow wait leads to its Lease.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type Metric,
  type OpenMetricsContentType,
} from 'prom-client';
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
    for (const name of PROCESS_GAUGES_NAMED_AS_COUNTERS) processRegistry.removeSingleMetric(name);
  }
  return processRegistry;
}

/**
 * prom-client's process gauges that it names `*_total`, a suffix Prometheus keeps for counters
 * (`promtool check metrics`: "non-counter metrics should not have "_total" suffix"). They are not
 * exported: each is the sum of the gauge of the same name without `_total`, which counts by `type`
 * (`sum(jumpstarter_exporterset_nodejs_active_handles)`).
 */
export const PROCESS_GAUGES_NAMED_AS_COUNTERS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
].map((name) => METRIC_PREFIX + name);

export class ControllerMetrics {
  /** This controller's metrics, and the process's when `processMetrics` is on. */
  readonly registry: Registry;
  private readonly pool: Record<keyof PoolCounts, Gauge<(typeof SET_LABELS)[number]>>;
  private readonly effectiveMinAvailable: Gauge<(typeof SET_LABELS)[number]>;
  private readonly scaleActions: Counter<'namespace' | 'exporterset' | 'direction' | 'reason'>;
  private readonly startup: Histogram<(typeof SET_LABELS)[number]>;
  private readonly leaseWait: Histogram<(typeof SET_LABELS)[number]>;
  private readonly leasesServed: Counter<'namespace' | 'exporterset' | 'start'>;
  private readonly reconcileDuration: Histogram<'result'>;
  private readonly reconcileErrors: Counter<(typeof SET_LABELS)[number]>;
  private readonly forecastLeases: Gauge<(typeof SET_LABELS)[number]>;
  private readonly forecastWarmBuffer: Gauge<(typeof SET_LABELS)[number]>;
  private queueDepth: () => number = () => 0;
  private leadership?: { provisioner: string; isLeader: () => boolean };

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
      enableExemplars: true,
      // prom-client refuses exemplars on a Prometheus-text registry at construction, not later.
      registers: [openMetricsRegistry()],
    });
    own.registerMetric(this.leaseWait);
    this.leasesServed = new Counter({
      name: 'jumpstarter_exporterset_leases_served_total',
      help: 'Leases of the set assigned an instance: start="warm" when the instance was Online before the lease was created, else "cold".',
      labelNames: [...SET_LABELS, 'start'],
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
    this.forecastLeases = new Gauge({
      name: 'jumpstarter_exporterset_forecast_leases',
      help: 'Forecast: the most leases expected held or waiting at once over the lead time (spec.forecast not Off).',
      labelNames: SET_LABELS,
      registers,
    });
    this.forecastWarmBuffer = new Gauge({
      name: 'jumpstarter_exporterset_forecast_warm_buffer',
      help: 'Forecast: the minAvailableReplicas it would set (applied in mode Apply).',
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
    // Every replica reports whether it leads, so "replicas are up but none leads" is a query: the
    // election Lease itself is not a metric, and standbys export no pool gauges.
    const leadershipOf = () => this.leadership;
    new Gauge({
      name: 'jumpstarter_exporterset_leader',
      help: 'Whether this process leads (1: it holds the election Lease and reconciles; always 1 once started without --leader-elect).',
      labelNames: ['provisioner'],
      registers,
      collect() {
        const leadership = leadershipOf();
        if (leadership) this.set({ provisioner: leadership.provisioner }, leadership.isLeader() ? 1 : 0);
      },
    });
    this.registry = options.processMetrics ? Registry.merge([own, processMetricsRegistry()]) : own;
  }

  /** Sets the pool gauges of `set`. */
  setPool(set: SetRef, counts: PoolCounts): void {
    const labels = labelsOf(set);
    for (const [key] of POOL_GAUGES) this.pool[key].set(labels, counts[key]);
  }

  /**
   * Sets the forecast gauges of `set`: each present value, the absent ones (mode Off, no forecast)
   * removed, so a dashboard shows no stale forecast.
   */
  setForecast(set: SetRef, forecast: { expectedPeak?: number; warmBuffer?: number } | undefined): void {
    const labels = labelsOf(set);
    if (forecast?.expectedPeak !== undefined) this.forecastLeases.set(labels, forecast.expectedPeak);
    else this.forecastLeases.remove(labels);
    if (forecast?.warmBuffer !== undefined) this.forecastWarmBuffer.set(labels, forecast.warmBuffer);
    else this.forecastWarmBuffer.remove(labels);
  }

  /** Sets the warm buffer `set` keeps now (status.effectiveMinAvailableReplicas, else the spec's). */
  setEffectiveMinAvailable(set: SetRef, replicas: number): void {
    this.effectiveMinAvailable.set(labelsOf(set), replicas);
  }

  /** Drops the pool gauges of a deleted set, so it stops reporting a stale pool. */
  forgetSet(set: SetRef): void {
    const labels = labelsOf(set);
    for (const [key] of POOL_GAUGES) this.pool[key].remove(labels);
    this.setForecast(set, undefined);
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

  /** A Lease of `set` was assigned `seconds` after it started waiting; `lease` names it in the exemplar. */
  observeLeaseWait(set: SetRef, seconds: number, lease?: string): void {
    // The exemplar's labels are not the metric's (prom-client types them as if they were).
    const exemplarLabels = (lease ? { lease: exemplarValue(lease) } : {}) as Record<string, string>;
    this.leaseWait.observe({ labels: labelsOf(set), value: Math.max(0, seconds), exemplarLabels });
  }

  /**
   * A Lease of `set` was served (assigned an instance), warm or cold; with `waitSeconds` when it
   * waited Pending, which the lease-wait histogram observes.
   */
  observeServedLease(
    set: SetRef,
    served: { readonly lease: string; readonly warm: boolean; readonly waitSeconds?: number },
  ): void {
    this.leasesServed.inc({ ...labelsOf(set), start: served.warm ? 'warm' : 'cold' });
    if (served.waitSeconds !== undefined) this.observeLeaseWait(set, served.waitSeconds, served.lease);
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

  /** Where leadership is read at each scrape; `provisioner` is the `--provisioner` this process runs. */
  bindLeader(provisioner: string, isLeader: () => boolean): void {
    this.leadership = { provisioner, isLeader };
  }

  /** The exposition text of every metric (Prometheus text; OpenMetrics with `openMetrics`). */
  render(openMetrics = false): Promise<string> {
    return openMetrics ? renderOpenMetrics(this.registry) : renderText(this.registry);
  }
}

function openMetricsRegistry(): Registry<OpenMetricsContentType> {
  const registry = new Registry<OpenMetricsContentType>();
  registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  return registry;
}

/** OpenMetrics limits an exemplar's labels to 128 characters, names included. */
function exemplarValue(lease: string): string {
  return lease.slice(0, 128 - 'lease'.length);
}

/** Renders (one at a time, process-wide: see `renderOpenMetrics`). */
let rendering: Promise<unknown> = Promise.resolve();

/**
 * The registry's metrics in OpenMetrics, with exemplars. prom-client renders OpenMetrics from a
 * registry of that content type only, and while doing so renames every counter it renders (it drops
 * `_total` from the metric object, which other registries share): the metrics are rendered from a
 * registry of that type holding the same metric objects, and the names put back after. Renders are
 * serialised so a Prometheus-text render never sees a renamed counter.
 */
export function renderOpenMetrics(registry: Registry): Promise<string> {
  const run = async (): Promise<string> => {
    const metrics = registry.getMetricsAsArray() as unknown as { name: string }[];
    const names = metrics.map((m) => m.name);
    const open = openMetricsRegistry();
    for (const metric of registry.getMetricsAsArray()) open.registerMetric(metric as unknown as Metric);
    try {
      return await open.metrics();
    } finally {
      metrics.forEach((m, i) => (m.name = names[i]!));
    }
  };
  const result = rendering.then(run, run);
  rendering = result.catch(() => undefined);
  return result;
}

/** The Prometheus text of the registry, after any OpenMetrics render in progress. */
function renderText(registry: Registry): Promise<string> {
  const run = () => registry.metrics();
  const result = rendering.then(run, run);
  rendering = result.catch(() => undefined);
  return result;
}

/** Whether an `Accept` header asks for OpenMetrics (with a non-zero quality). */
export function wantsOpenMetrics(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((part) => {
    const [type, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    if (type !== 'application/openmetrics-text') return false;
    const q = params.find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
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
    const openMetrics = wantsOpenMetrics(req.headers.accept);
    (openMetrics ? renderOpenMetrics(registry) : renderText(registry)).then(
      (text) => reply(res, 200, text, openMetrics ? Registry.OPENMETRICS_CONTENT_TYPE : registry.contentType),
      (error: unknown) => reply(res, 500, `metrics collection failed: ${String(error)}\n`),
    );
  });
}
