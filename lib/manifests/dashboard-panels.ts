/**
 * The panels of the ops pack's dashboards, written once: the Grafana and the Perses dashboard are both
 * rendered from this list, so the two always show the same queries. Every query names only metrics the
 * controller exports (a test reads the names from the controller's own registry), filtered by the
 * dashboard variables `$namespace` and `$exporterset` (the ExporterSet's namespace and name).
 */

/** What a panel's values are, in both tools' words (Grafana unit, Perses unit). */
export type PanelUnit = 'count' | 'seconds' | 'perSecond' | 'ratio';

export interface DashboardQuery {
  /** PromQL; `$namespace` and `$exporterset` are the dashboard's variables. */
  readonly expr: string;
  /** The series name, with `{{label}}` placeholders. */
  readonly legend: string;
}

export interface DashboardPanel {
  /** Stable id (Perses panel key, Grafana panel id order). */
  readonly key: string;
  readonly title: string;
  readonly description: string;
  readonly unit: PanelUnit;
  readonly queries: readonly DashboardQuery[];
}

export interface DashboardRow {
  readonly title: string;
  readonly panels: readonly DashboardPanel[];
}

/** The series selector of one pool (or many: the variables are multi-valued regexes). */
const SET = 'namespace=~"$namespace",exporterset=~"$exporterset"';
const BY_SET = 'by (namespace, exporterset)';

function poolGauge(metric: string): DashboardQuery {
  return {
    expr: `max ${BY_SET} (jumpstarter_exporterset_${metric}{${SET}})`,
    legend: '{{namespace}}/{{exporterset}}',
  };
}

function quantile(q: number, histogram: string, by: string, legend: string): DashboardQuery {
  return {
    expr: `histogram_quantile(${q}, sum by (${by}le) (rate(jumpstarter_exporterset_${histogram}_bucket{${SET}}[5m])))`,
    legend,
  };
}

export const DASHBOARD_ROWS: readonly DashboardRow[] = [
  {
    title: 'Pools',
    panels: [
      {
        key: 'available',
        title: 'Warm instances (available)',
        description: 'Instances online, enabled and not leased: what a new lease is served from at once.',
        unit: 'count',
        queries: [poolGauge('available_replicas')],
      },
      {
        key: 'leased',
        title: 'Leased instances',
        description: 'Instances a non-ended Lease holds.',
        unit: 'count',
        queries: [poolGauge('leased_replicas')],
      },
      {
        key: 'pending',
        title: 'Pending leases (demand)',
        description: 'Pending Leases only a new instance of the set can serve.',
        unit: 'count',
        queries: [poolGauge('pending_leases')],
      },
      {
        key: 'starting',
        title: 'Starting and standby instances',
        description: 'Instances created but not online yet, and standbys kept without a Pod.',
        unit: 'count',
        queries: [
          {
            expr: `max ${BY_SET} (jumpstarter_exporterset_starting_replicas{${SET}})`,
            legend: '{{namespace}}/{{exporterset}} starting',
          },
          {
            expr: `max ${BY_SET} (jumpstarter_exporterset_standby_replicas{${SET}})`,
            legend: '{{namespace}}/{{exporterset}} standby',
          },
        ],
      },
      {
        key: 'replicas',
        title: 'Instances (all, and online)',
        description: 'Every instance of the set, standbys included, and those whose Exporter is online.',
        unit: 'count',
        queries: [
          {
            expr: `max ${BY_SET} (jumpstarter_exporterset_replicas{${SET}})`,
            legend: '{{namespace}}/{{exporterset}} all',
          },
          {
            expr: `max ${BY_SET} (jumpstarter_exporterset_ready_replicas{${SET}})`,
            legend: '{{namespace}}/{{exporterset}} online',
          },
        ],
      },
      {
        key: 'warm-buffer',
        title: 'Warm buffer: effective and forecast',
        description:
          'The minAvailableReplicas the controller plans for (the spec raised by scheduled windows and a forecast in mode Apply), and the buffer the forecast would set.',
        unit: 'count',
        queries: [
          {
            expr: `max ${BY_SET} (jumpstarter_exporterset_effective_min_available_replicas{${SET}})`,
            legend: '{{namespace}}/{{exporterset}} effective',
          },
          {
            expr: `max ${BY_SET} (jumpstarter_exporterset_forecast_warm_buffer{${SET}})`,
            legend: '{{namespace}}/{{exporterset}} forecast',
          },
        ],
      },
      {
        key: 'forecast-leases',
        title: 'Forecast peak against leases held',
        description:
          'The most leases the forecast expects held or waiting at once over the next startup time, against the leases held now.',
        unit: 'count',
        queries: [
          {
            expr: `max ${BY_SET} (jumpstarter_exporterset_forecast_leases{${SET}})`,
            legend: '{{namespace}}/{{exporterset}} expected',
          },
          {
            expr: `max ${BY_SET} (jumpstarter_exporterset_leased_replicas{${SET}})`,
            legend: '{{namespace}}/{{exporterset}} held',
          },
        ],
      },
      {
        key: 'scale-actions',
        title: 'Scale actions',
        description: 'Instances created (up) or removed (down) per second, by the rule that asked.',
        unit: 'perSecond',
        queries: [
          {
            expr: `sum by (exporterset, direction, reason) (rate(jumpstarter_exporterset_scale_actions_total{${SET}}[5m]))`,
            legend: '{{exporterset}} {{direction}} {{reason}}',
          },
        ],
      },
    ],
  },
  {
    title: 'Lease wait',
    panels: [
      {
        key: 'lease-wait',
        title: 'Lease wait p50 / p95',
        description: 'Time a Lease waited Pending before an Exporter was assigned.',
        unit: 'seconds',
        queries: [
          quantile(0.5, 'lease_wait_seconds', 'exporterset, ', '{{exporterset}} p50'),
          quantile(0.95, 'lease_wait_seconds', 'exporterset, ', '{{exporterset}} p95'),
        ],
      },
      {
        key: 'warm-hit',
        title: 'Leases served warm',
        description:
          'Share of the leases served in the last hour whose instance was online before the lease was created (it did not boot for the lease).',
        unit: 'ratio',
        queries: [
          {
            expr: `sum by (exporterset) (rate(jumpstarter_exporterset_leases_served_total{${SET},start="warm"}[1h])) / sum by (exporterset) (rate(jumpstarter_exporterset_leases_served_total{${SET}}[1h]))`,
            legend: '{{exporterset}}',
          },
        ],
      },
      {
        key: 'leases-served',
        title: 'Leases served, warm and cold (per hour)',
        description: 'Leases served in the last hour by start: warm (from a ready instance) or cold.',
        unit: 'count',
        queries: [
          {
            expr: `sum by (exporterset, start) (increase(jumpstarter_exporterset_leases_served_total{${SET}}[1h]))`,
            legend: '{{exporterset}} {{start}}',
          },
        ],
      },
      {
        key: 'leases-assigned',
        title: 'Leases assigned',
        description: 'Leases assigned an Exporter per second.',
        unit: 'perSecond',
        queries: [
          {
            expr: `sum by (exporterset) (rate(jumpstarter_exporterset_lease_wait_seconds_count{${SET}}[5m]))`,
            legend: '{{exporterset}}',
          },
        ],
      },
    ],
  },
  {
    title: 'Startup',
    panels: [
      {
        key: 'startup',
        title: 'Instance startup p50 / p95',
        description: 'Time from creating an instance to its Exporter first being online.',
        unit: 'seconds',
        queries: [
          quantile(0.5, 'instance_startup_seconds', 'exporterset, ', '{{exporterset}} p50'),
          quantile(0.95, 'instance_startup_seconds', 'exporterset, ', '{{exporterset}} p95'),
        ],
      },
      {
        key: 'failed',
        title: 'Failed instances',
        description: 'Instances removed because their Pod failed or they never came online (per hour).',
        unit: 'count',
        queries: [
          {
            expr: `sum by (exporterset) (increase(jumpstarter_exporterset_scale_actions_total{${SET},direction="down",reason="failed"}[1h]))`,
            legend: '{{exporterset}}',
          },
        ],
      },
    ],
  },
  {
    title: 'Controller',
    panels: [
      {
        key: 'reconcile-errors',
        title: 'Reconcile errors',
        description: 'Failed reconcile passes per second (each is retried with backoff).',
        unit: 'perSecond',
        queries: [
          {
            expr: `sum by (namespace, exporterset) (rate(jumpstarter_exporterset_reconcile_errors_total{${SET}}[5m]))`,
            legend: '{{namespace}}/{{exporterset}}',
          },
        ],
      },
      {
        key: 'reconcile-duration',
        title: 'Reconcile duration p95',
        description: 'Duration of reconcile passes, every set together, by result.',
        unit: 'seconds',
        queries: [
          {
            expr: 'histogram_quantile(0.95, sum by (result, le) (rate(jumpstarter_exporterset_reconcile_duration_seconds_bucket[5m])))',
            legend: '{{result}}',
          },
        ],
      },
      {
        key: 'workqueue',
        title: 'Work queue depth',
        description: 'ExporterSets waiting to be reconciled, per controller replica.',
        unit: 'count',
        queries: [{ expr: 'jumpstarter_exporterset_workqueue_depth', legend: '{{pod}}' }],
      },
      {
        key: 'leader',
        title: 'Leader',
        description:
          '1 for the replica that leads (holds the election Lease) per provisioner, 0 for standbys.',
        unit: 'count',
        queries: [{ expr: 'jumpstarter_exporterset_leader', legend: '{{provisioner}} {{pod}}' }],
      },
    ],
  },
];
