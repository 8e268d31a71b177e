/**
 * The controller's Prometheus metrics (SPEC §3): their names, labels and buckets. Every name starts
 * with {@link METRIC_PREFIX}, as JEP-0013 prefixes every Jumpstarter metric `jumpstarter_` (the Node
 * process metrics too, when enabled).
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
 */

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

export const SET_LABELS = ['namespace', 'exporterset'] as const;

export type SetLabel = (typeof SET_LABELS)[number];

/** The prefix of every metric this controller exports (JEP-0013: `jumpstarter_`, then the component). */
export const METRIC_PREFIX = 'jumpstarter_exporterset_';

export const STARTUP_BUCKETS = [5, 10, 20, 30, 45, 60, 90, 120, 180, 300, 600, 1200];
export const LEASE_WAIT_BUCKETS = [1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800, 3600];
export const RECONCILE_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const POOL_GAUGES: readonly (readonly [keyof PoolCounts, string, string])[] = [
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
