/**
 * §3.3 demand when selectors overlap: a lease whose selector selects the instances of several sets is
 * counted by exactly one of them, or each would boot an instance for it. Every controller replica and
 * every provisioner's controller computes the same owner from what they all see in the caches — the
 * namespace's sets (spec and status) and whether their classes exist:
 *
 * - among the sets whose instances the lease's selector selects, the first by name that can take new
 *   demand: not being deleted, not paused (§3.20), its class exists, and below its ceiling
 *   (`status.replicas < maxReplicas`, or maxReplicas 0) — so a lease the first set cannot serve falls
 *   through to the next;
 * - when none can, the first by name (it reports the lease as pending; nothing else would).
 */
import { Defaults, matchesSelector, type ExporterSet, type Lease } from 'virtual-exporters/internal';
import { instanceLabels } from '../model/exporter';
import type { DemandPeer } from '../model/snapshot';
import { count } from '../model/wire-guards';
import { isPaused } from '../spec/off-switch';

/** Whether new instances of the set could serve a lease now (from its spec, status and class). */
export function canTakeDemand({ set, classExists }: DemandPeer): boolean {
  if (set.metadata?.deletionTimestamp !== undefined || isPaused(set) || !classExists) return false;
  const max = count(set.spec?.maxReplicas, Defaults.maxReplicas);
  return max === 0 || count(set.status?.replicas, 0) < max;
}

/** The labels every controller uses for the rule: those of the set's instances at its reported revision. */
function selects(lease: Lease, set: ExporterSet): boolean {
  return matchesSelector(
    lease.spec?.selector,
    instanceLabels(set, set.status?.templateRevision ?? '', false),
  );
}

const byName = (a: DemandPeer, b: DemandPeer): number => {
  const x = a.set.metadata?.name ?? '';
  const y = b.set.metadata?.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
};

/** The name of the set that counts `lease` as demand; undefined when no set's instances match it. */
export function leaseOwner(lease: Lease, sets: readonly DemandPeer[]): string | undefined {
  const matching = sets.filter((p) => selects(lease, p.set)).sort(byName);
  return (matching.find(canTakeDemand) ?? matching[0])?.set.metadata?.name;
}

/**
 * The leases of `pending` this set counts: those it owns among itself and `peers` (the namespace's
 * other sets); a lease no set's reported labels match stays the set's own (it matched its current ones).
 */
export function ownedDemand(
  pending: readonly Lease[],
  self: DemandPeer,
  peers: readonly DemandPeer[] | undefined,
): Lease[] {
  if (peers === undefined || peers.length === 0) return [...pending];
  const name = self.set.metadata?.name;
  const all = [self, ...peers.filter((p) => p.set.metadata?.name !== name)];
  return pending.filter((lease) => {
    const owner = leaseOwner(lease, all);
    return owner === undefined || owner === name;
  });
}
