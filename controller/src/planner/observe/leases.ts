/**
 * What the planner reads from Jumpstarter Leases (INTEROP §2, SPEC §3): which instances are leased,
 * which leases wait for capacity this set could add, and when a future lease begins.
 */
import {
  LeaseConditionTypes,
  Labels,
  instanceOrdinal,
  matchesSelector,
  type ExporterSet,
  type Lease,
} from 'virtual-exporters/internal';
import { instanceLabels } from '../model/exporter';
import { toMillis } from '../model/time';
import { conditionIsTrue, nameOf } from '../model/wire-guards';

/** Ended: `status.ended`, or the `jumpstarter.dev/lease-ended` label Jumpstarter puts on ended leases. */
export function isLeaseEnded(lease: Lease): boolean {
  return lease.status?.ended === true || lease.metadata?.labels?.[Labels.leaseEnded] === 'true';
}

/**
 * Names of the Exporters that non-ended Leases hold (`status.exporterRef`). The planner reads the Leases
 * themselves, never `Exporter.status.leaseRef`, which lags them (SPEC §3).
 */
export function leasedExporterNames(leases: readonly Lease[]): Set<string> {
  const names = new Set<string>();
  for (const lease of leases) {
    const name = nameOf(lease.status?.exporterRef);
    if (name && !isLeaseEnded(lease)) names.add(name);
  }
  return names;
}

/**
 * Names of the Exporters that non-ended Leases not assigned yet ask for by name (`spec.exporterRef`):
 * Jumpstarter may assign such a lease at any moment — to a disabled instance too, with allowDisabled —
 * so a delete confirmed before that moment could still take an instance from its lease.
 */
export function requestedExporterNames(leases: readonly Lease[]): Set<string> {
  const names = new Set<string>();
  for (const lease of leases) {
    const name = nameOf(lease.spec?.exporterRef);
    if (name && !isLeaseEnded(lease) && !nameOf(lease.status?.exporterRef)) names.add(name);
  }
  return names;
}

/** Names of the Exporters any Lease (ended or not) was assigned to: instances that served a lease. */
export function everLeasedExporterNames(leases: readonly Lease[]): Set<string> {
  const names = new Set<string>();
  for (const lease of leases) {
    const name = nameOf(lease.status?.exporterRef);
    if (name) names.add(name);
  }
  return names;
}

/** Names of the Leases known to have ended; a `leaseRef` naming any other lease may still be live. */
export function endedLeaseNames(leases: readonly Lease[]): Set<string> {
  const names = new Set<string>();
  for (const lease of leases) {
    if (lease.metadata?.name && isLeaseEnded(lease)) names.add(lease.metadata.name);
  }
  return names;
}

export interface PendingDemand {
  /** Leases waiting now that a new instance of the set would serve. */
  readonly pending: readonly Lease[];
  /** The earliest `beginTime` of a lease that would count once it begins; undefined when none. */
  readonly nextBeginTime?: number;
}

/**
 * The leases that are demand for this set (SPEC §3.3): not ended, not assigned, `Pending=True`, not
 * pinned to one exporter (a pin asks for that exporter, not for capacity), a selector that selects the
 * labels a new instance gets, and a `beginTime` that is not in the future. Sorted by name, so the same
 * cache always gives the same answer.
 */
export function pendingDemand(
  leases: readonly Lease[],
  instanceLabels: Readonly<Record<string, string>>,
  now: number,
): PendingDemand {
  const pending: Lease[] = [];
  let nextBeginTime: number | undefined;
  for (const lease of leases) {
    if (isLeaseEnded(lease) || nameOf(lease.status?.exporterRef) || nameOf(lease.spec?.exporterRef)) continue;
    if (!matchesSelector(lease.spec?.selector, instanceLabels)) continue;
    const begin = toMillis(lease.spec?.beginTime);
    if (begin !== undefined && begin > now) {
      nextBeginTime = nextBeginTime === undefined ? begin : Math.min(nextBeginTime, begin);
      continue;
    }
    const waiting = conditionIsTrue(lease.status?.conditions, LeaseConditionTypes.Pending);
    if (waiting) pending.push(lease);
  }
  pending.sort((a, b) => compareText(a.metadata?.name ?? '', b.metadata?.name ?? ''));
  return nextBeginTime === undefined ? { pending } : { pending, nextBeginTime };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Whether a lease concerns the set: its selector selects the labels a new instance of the set gets,
 * or it is assigned to (or pinned to) an Exporter named like one of the set's instances. The
 * reconciler's Lease event handler uses it to map a Lease to the sets to look at again.
 */
export function leaseConcernsSet(lease: Lease, set: ExporterSet): boolean {
  const setName = set.metadata?.name ?? '';
  const named = [nameOf(lease.status?.exporterRef), nameOf(lease.spec?.exporterRef)];
  if (named.some((name) => name !== undefined && instanceOrdinal(setName, name) !== undefined)) return true;
  return matchesSelector(
    lease.spec?.selector,
    instanceLabels(set, set.status?.templateRevision ?? '', false),
  );
}
