/**
 * The controller's Prometheus metrics (SPEC §3; names, labels and buckets in metric-names.ts) on their
 * own registry (never prom-client's global one, so two controllers in one test process do not
 * collide), served by metrics-endpoint.ts. Reconcile durations carry no set label (a histogram per set
 * is costly and the per-set question is "does it fail", which the errors counter answers). Each
 * instance and lease counts once, also across controller restarts (the demand recorder remembers them,
 * reconciler/demand/demand-store.ts). A served lease is `warm` when its instance was Online before the
 * lease was created, else `cold`.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { openMetricsRegistry, renderOpenMetrics, renderText } from './metrics-endpoint';
import {
  LEASE_WAIT_BUCKETS,
  POOL_GAUGES,
  RECONCILE_BUCKETS,
  SET_LABELS,
  STARTUP_BUCKETS,
  type PoolCounts,
  type SetLabel,
} from './metric-names';
import { processMetricsRegistry } from './process-metrics';

export interface SetRef {
  readonly namespace: string;
  readonly name: string;
}

export type ScaleDirection = 'up' | 'down';
export type ReconcileOutcome = 'success' | 'error';

export interface ControllerMetricsOptions {
  /** Also export Node process metrics (CPU, memory, event loop). @default false */
  readonly processMetrics?: boolean;
}

export class ControllerMetrics {
  /** This controller's metrics, and the process's when `processMetrics` is on. */
  readonly registry: Registry;
  private readonly pool: Record<keyof PoolCounts, Gauge<SetLabel>>;
  private readonly effectiveMinAvailable: Gauge<SetLabel>;
  private readonly scaleActions: Counter<'namespace' | 'exporterset' | 'direction' | 'reason'>;
  private readonly startup: Histogram<SetLabel>;
  private readonly leaseWait: Histogram<SetLabel>;
  private readonly leasesServed: Counter<'namespace' | 'exporterset' | 'start'>;
  private readonly reconcileDuration: Histogram<'result'>;
  private readonly reconcileErrors: Counter<SetLabel>;
  private readonly forecastLeases: Gauge<SetLabel>;
  private readonly forecastWarmBuffer: Gauge<SetLabel>;
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
    ) as Record<keyof PoolCounts, Gauge<SetLabel>>;
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

/** OpenMetrics limits an exemplar's labels to 128 characters, names included. */
function exemplarValue(lease: string): string {
  return lease.slice(0, 128 - 'lease'.length);
}

function labelsOf(set: SetRef): Record<SetLabel, string> {
  return { namespace: set.namespace, exporterset: set.name };
}
