/** The status counters: how many instances of the set are in each state upstream and we report. */
import type { ExporterSetStatus } from 'virtual-exporters/internal';
import type { InstanceView } from '../observe/instance-view';

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
 * (enabled, not Online); Pods by phase — read from the runtime (runtime.ts), so an instance without a
 * Pod counts by its observed state (Unknown counts Succeeded / exited, as upstream's does). Ours: starting,
 * standby, updated (current template revision).
 *
 * The one judged deviation: a standby (an Exporter kept without a Pod by design so leases wait, SPEC
 * §3.6; upstream has none) is not in `unavailableReplicas`, so it never makes upstream's Progressing
 * or Degraded True; it is in `replicas` and `exportersOffline`, so the four-way split still holds.
 */
export function statusCounters(instances: readonly InstanceView[]): StatusCounters {
  const howMany = (predicate: (v: InstanceView) => boolean): number => instances.filter(predicate).length;
  return {
    replicas: instances.length,
    readyReplicas: howMany((v) => v.online),
    availableReplicas: howMany((v) => v.online && v.enabled && !v.leased),
    unavailableReplicas: howMany((v) => v.enabled && !v.online && !v.standby),
    leasedReplicas: howMany((v) => v.leased),
    exportersActive: howMany((v) => v.enabled && v.leased && v.online),
    exportersDisabled: howMany((v) => !v.enabled),
    exportersIdle: howMany((v) => v.enabled && v.online && !v.leased),
    exportersOffline: howMany((v) => v.enabled && !v.online),
    podsFailed: howMany((v) => v.runtime.state === 'failed'),
    podsPending: howMany((v) => v.runtime.state === 'realising'),
    podsRunning: howMany((v) => v.runtime.state === 'running'),
    podsUnknown: howMany((v) => v.runtime.state === 'unknown' || v.runtime.state === 'exited'),
    startingReplicas: howMany((v) => v.state === 'starting'),
    standbyReplicas: howMany((v) => v.state === 'standby'),
    updatedReplicas: howMany((v) => v.current),
  };
}
