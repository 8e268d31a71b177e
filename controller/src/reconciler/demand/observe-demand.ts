/**
 * What one pass sees of a set's demand and latencies (the demand recorder's input, demand-store.ts),
 * read off the objects the pass already has:
 * - the set's leases: those assigned or pinned to one of its instances, and the unassigned ones its
 *   selector matches and that it owns among the namespace's sets (lease-owner.ts), so a lease is
 *   counted by one set; live = not ended;
 * - startups: Exporter created → `Online=True` (its last transition), for instances Online now; one
 *   longer than the startup timeout is not a startup (the instance went offline and back since);
 * - served leases: assigned (`status.exporterRef` and `status.beginTime`) to an instance of the set,
 *   warm when that instance was Online before the lease was created — or, when its Exporter is gone or
 *   Online changed since, when the lease never waited `Pending`.
 */
import {
  ExporterConditionTypes,
  LeaseConditionTypes,
  instanceOrdinal,
  type Exporter,
  type Lease,
} from 'virtual-exporters/internal';
import {
  conditionIsTrue,
  isLeaseEnded,
  leaseConcernsSet,
  listOf,
  nameOf,
  ownedDemand,
  resolveOptions,
  toMillis,
  type DemandObservation,
  type ObservedLease,
  type PlannerSnapshot,
  type ServedLease,
  type StartupSample,
} from '../../planner';

/** A served lease as a pass sees it: also whether it waited `Pending` (the wait histogram's leases). */
export interface ObservedServed extends ServedLease {
  readonly waited: boolean;
}

function onlineSince(exporter: Exporter): number | undefined {
  const online = listOf<{ type?: unknown; status?: unknown; lastTransitionTime?: string }>(
    exporter.status?.conditions,
  ).find((c) => c.type === ExporterConditionTypes.Online);
  return online?.status === 'True' ? toMillis(online.lastTransitionTime) : undefined;
}

/** The lease waited `Pending` (Jumpstarter leaves `Pending=True` on a lease that waited). */
function waited(lease: Lease): boolean {
  return conditionIsTrue(lease.status?.conditions, LeaseConditionTypes.Pending);
}

export interface PassObservation extends DemandObservation {
  readonly served: readonly ObservedServed[];
}

/** The leases of the namespace that are the set's (see the module doc). */
export function setLeases(snapshot: PlannerSnapshot): Lease[] {
  const { set } = snapshot;
  const setName = set.metadata?.name ?? '';
  const self = { set, classExists: snapshot.virtualTargetClass !== undefined };
  return snapshot.leases.filter((lease) => {
    if (!leaseConcernsSet(lease, set)) return false;
    const named = nameOf(lease.status?.exporterRef) ?? nameOf(lease.spec?.exporterRef);
    if (named !== undefined) return instanceOrdinal(setName, named) !== undefined;
    return ownedDemand([lease], self, snapshot.peers).length === 1;
  });
}

/** One pass's observation of the set's demand, instance startups and served leases. */
export function observeDemand(snapshot: PlannerSnapshot): PassObservation {
  const leases = setLeases(snapshot);
  const observed: ObservedLease[] = [];
  for (const lease of leases) {
    const uid = lease.metadata?.uid;
    const created = toMillis(lease.metadata?.creationTimestamp);
    if (!uid || created === undefined) continue;
    observed.push({ uid, created, live: !isLeaseEnded(lease) });
  }
  const { startupTimeoutMs } = resolveOptions(snapshot.options);
  const onlineByName = new Map<string, number>();
  const startups: StartupSample[] = [];
  for (const { exporter } of snapshot.instances) {
    const uid = exporter.metadata?.uid;
    const created = toMillis(exporter.metadata?.creationTimestamp);
    const online = onlineSince(exporter);
    if (online !== undefined && exporter.metadata?.name) onlineByName.set(exporter.metadata.name, online);
    if (!uid || created === undefined || online === undefined) continue;
    const ms = Math.max(0, online - created);
    if (ms <= startupTimeoutMs) startups.push({ uid, at: online, ms });
  }
  const served: ObservedServed[] = [];
  for (const lease of leases) {
    const uid = lease.metadata?.uid;
    const name = lease.metadata?.name ?? '';
    const created = toMillis(lease.metadata?.creationTimestamp);
    const begin = toMillis(lease.status?.beginTime);
    const instance = nameOf(lease.status?.exporterRef);
    if (!uid || created === undefined || begin === undefined || instance === undefined) continue;
    const online = onlineByName.get(instance);
    const warm = online !== undefined && online <= created ? true : !waited(lease);
    served.push({ uid, name, created, begin, warm, waited: waited(lease) });
  }
  return { now: snapshot.now, leases: observed, startups, served };
}
