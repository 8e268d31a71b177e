/**
 * Reads the pools' ExporterSet status from the test cluster's store (no API request, so the counters
 * stay the controller's) into table rows: what `kubectl get exportersets -w` would show.
 */
import { API_VERSION, Kinds, type ExporterSet } from 'virtual-exporters/internal';
import { ApiError, type ObjectStore } from 'virtual-exporters-test-cluster';
import type { LabPool } from './manifests';
import type { PoolRow } from './table';

/**
 * The set's row; zeros until the controller has written a status (or when the set is gone). The
 * schedule, forecast and lease-wait fields are read by their wire paths from the status as plain
 * data, and only when present with the expected type, so a controller that does not report them
 * leaves them out of the row.
 */
export function poolRow(name: string, set: ExporterSet | undefined): PoolRow {
  const status = set?.status;
  const plain = status as Record<string, unknown> | undefined;
  const active = field(plain, 'schedules', 'active');
  const windows = Array.isArray(active)
    ? active.flatMap((w) => {
        const windowName = field(w, 'name');
        return typeof windowName === 'string' ? [windowName] : [];
      })
    : undefined;
  const forecastWarmBuffer = finite(field(plain, 'forecast', 'warmBuffer'));
  const warmHitRatio = finite(field(plain, 'leaseWait', 'warmHitRatio'));
  return {
    name,
    replicas: status?.replicas ?? 0,
    ready: status?.readyReplicas ?? 0,
    available: status?.availableReplicas ?? 0,
    leased: status?.leasedReplicas ?? 0,
    starting: status?.startingReplicas ?? 0,
    standby: status?.standbyReplicas ?? 0,
    pending: status?.pendingLeases ?? 0,
    ...(windows !== undefined ? { windows } : {}),
    ...(forecastWarmBuffer !== undefined ? { forecastWarmBuffer } : {}),
    ...(warmHitRatio !== undefined ? { warmHitRatio } : {}),
  };
}

/** `value.a.b…`, or undefined when a step is not an object. */
function field(value: unknown, ...path: string[]): unknown {
  let at = value;
  for (const key of path) {
    if (typeof at !== 'object' || at === null || Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function readPoolRows(store: ObjectStore, pools: readonly LabPool[]): PoolRow[] {
  const rt = store.registry.byKind(API_VERSION, Kinds.ExporterSet);
  if (rt === undefined) throw new Error('the test cluster does not serve ExporterSets');
  return pools.map((pool) => {
    try {
      return poolRow(pool.name, store.get(rt, pool.namespace, pool.name) as unknown as ExporterSet);
    } catch (error) {
      if (error instanceof ApiError && error.code === 404) return poolRow(pool.name, undefined);
      throw error;
    }
  });
}
