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
 * Counters over the set's instances (detached and deleting ones excluded), with upstream's meanings
 * (INTEROP §1.3): replicas = all, standbys and retiring ones included; ready = Online; available =
 * Online, enabled, not leased; unavailable = enabled, not Online; leased = held by a non-ended lease;
 * and each instance in exactly one of exportersActive (enabled, leased, Online), exportersIdle
 * (enabled, Online, not leased), exportersDisabled (`spec.enabled: false`) and exportersOffline
 * (enabled, not Online); Pods by phase (Unknown counts Succeeded, as upstream's does). Ours: starting,
 * standby, updated (current template revision).
 *
 * The one judged deviation: a standby (an Exporter kept without a Pod by design so leases wait, SPEC
 * §3.6; upstream has none) is not in `unavailableReplicas`, so it never makes upstream's Progressing
 * or Degraded True; it is in `replicas` and `exportersOffline`, so the four-way split still holds.
 */
export function statusCounters(instances: readonly InstanceView[]): StatusCounters {
  const count = (predicate: (v: InstanceView) => boolean): number => instances.filter(predicate).length;
  const phase = (v: InstanceView): string | undefined => v.source.pod?.status?.phase;
  return {
    replicas: instances.length,
    readyReplicas: count((v) => v.online),
    availableReplicas: count((v) => v.online && v.enabled && !v.leased),
    unavailableReplicas: count((v) => v.enabled && !v.online && !v.standby),
    leasedReplicas: count((v) => v.leased),
    exportersActive: count((v) => v.enabled && v.leased && v.online),
    exportersDisabled: count((v) => !v.enabled),
    exportersIdle: count((v) => v.enabled && v.online && !v.leased),
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
