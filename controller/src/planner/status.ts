/**
 * The status counters (upstream's, with their meanings, plus ours) computed from the classified
 * instances, and the comparison that decides whether a status write is needed (SPEC §3.15).
 */
import { canonicalJson, type ExporterSetStatus } from 'virtual-exporters/internal';
import type { InstanceView } from './instances';

/** The counter fields of ExporterSetStatus. */
export type StatusCounters = Pick<
  ExporterSetStatus,
  | 'replicas'
  | 'readyReplicas'
  | 'availableReplicas'
  | 'unavailableReplicas'
  | 'leasedReplicas'
  | 'exportersActive'
  | 'exportersDisabled'
  | 'exportersIdle'
  | 'exportersOffline'
  | 'podsFailed'
  | 'podsPending'
  | 'podsRunning'
  | 'podsUnknown'
  | 'startingReplicas'
  | 'standbyReplicas'
  | 'updatedReplicas'
>;

/**
 * Counters over the set's instances (detached and deleting ones excluded):
 * replicas = all, standbys and retiring ones included; ready = online and registered; available =
 * ready, enabled, not leased, Pod not ended; unavailable = enabled, not ready, not standby;
 * leased = exportersActive = held by a non-ended lease; disabled = `spec.enabled: false`; idle =
 * ready, enabled, not leased; offline = enabled, not online; pods by phase (Unknown counts Succeeded,
 * as upstream's does); starting, standby; updated = current template revision.
 */
export function statusCounters(instances: readonly InstanceView[]): StatusCounters {
  const count = (predicate: (v: InstanceView) => boolean): number => instances.filter(predicate).length;
  const phase = (v: InstanceView): string | undefined => v.source.pod?.status?.phase;
  return {
    replicas: instances.length,
    readyReplicas: count((v) => v.ready),
    availableReplicas: count((v) => v.state === 'available'),
    unavailableReplicas: count((v) => v.enabled && !v.ready && v.state !== 'standby'),
    leasedReplicas: count((v) => v.leased),
    exportersActive: count((v) => v.leased),
    exportersDisabled: count((v) => !v.enabled),
    exportersIdle: count((v) => v.ready && v.enabled && !v.leased),
    exportersOffline: count((v) => v.enabled && !v.online),
    podsFailed: count((v) => v.source.pod !== undefined && phase(v) === 'Failed'),
    podsPending: count((v) => v.source.pod !== undefined && (phase(v) ?? 'Pending') === 'Pending'),
    podsRunning: count((v) => v.source.pod !== undefined && phase(v) === 'Running'),
    podsUnknown: count(
      (v) => v.source.pod !== undefined && (phase(v) === 'Unknown' || phase(v) === 'Succeeded'),
    ),
    startingReplicas: count((v) => v.state === 'starting'),
    standbyReplicas: count((v) => v.state === 'standby'),
    updatedReplicas: count((v) => v.current),
  };
}

/** Whether two statuses say the same (key order ignored): equal means no write (SPEC §3.15). */
export function statusEquals(a: ExporterSetStatus | undefined, b: ExporterSetStatus | undefined): boolean {
  return canonicalJson(a ?? null) === canonicalJson(b ?? null);
}
