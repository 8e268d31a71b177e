/**
 * The two latency histograms of SPEC §3 metrics, read off the objects the pass already has:
 * instance startup (Exporter created → first `Online=True`) and lease wait (Lease created → assigned,
 * for leases that waited `Pending`). Each instance and lease is observed once per controller process;
 * the seen-sets are pruned to what still exists, so they do not grow without bound.
 */
import { ExporterConditionTypes, type Exporter, type Lease } from 'virtual-exporters/internal';
import type { ControllerMetrics, SetRef } from '../operations/metrics';
import {
  conditionIsTrue,
  leaseConcernsSet,
  listOf,
  nameOf,
  toMillis,
  type PlannerSnapshot,
} from '../planner';

function onlineSince(exporter: Exporter): number | undefined {
  const online = listOf<{ type?: unknown; status?: unknown; lastTransitionTime?: string }>(
    exporter.status?.conditions,
  ).find((c) => c.type === ExporterConditionTypes.Online);
  return online?.status === 'True' ? toMillis(online.lastTransitionTime) : undefined;
}

function waited(lease: Lease): boolean {
  return conditionIsTrue(lease.status?.conditions, 'Pending');
}

export class LatencyObserver {
  private readonly started = new Map<string, Set<string>>();
  private readonly served = new Map<string, Set<string>>();

  constructor(private readonly metrics: ControllerMetrics) {}

  observe(key: string, ref: SetRef, snapshot: PlannerSnapshot): void {
    const started = this.seen(
      this.started,
      key,
      snapshot.instances.map((i) => i.exporter.metadata?.uid ?? ''),
    );
    for (const { exporter } of snapshot.instances) {
      const uid = exporter.metadata?.uid;
      const created = toMillis(exporter.metadata?.creationTimestamp);
      const online = onlineSince(exporter);
      if (!uid || started.has(uid) || created === undefined || online === undefined) continue;
      started.add(uid);
      this.metrics.observeInstanceStartup(ref, Math.max(0, online - created) / 1000);
    }
    const leases = snapshot.leases.filter((l) => leaseConcernsSet(l, snapshot.set));
    const served = this.seen(
      this.served,
      key,
      leases.map((l) => l.metadata?.uid ?? ''),
    );
    for (const lease of leases) {
      const uid = lease.metadata?.uid;
      const created = toMillis(lease.metadata?.creationTimestamp);
      const begin = toMillis(lease.status?.beginTime);
      if (!uid || served.has(uid) || !nameOf(lease.status?.exporterRef) || !waited(lease)) continue;
      if (created === undefined || begin === undefined) continue;
      served.add(uid);
      this.metrics.observeLeaseWait(ref, Math.max(0, begin - created) / 1000);
    }
  }

  forget(key: string): void {
    this.started.delete(key);
    this.served.delete(key);
  }

  /** The set's seen uids, keeping only those still present. */
  private seen(map: Map<string, Set<string>>, key: string, present: readonly string[]): Set<string> {
    const live = new Set(present);
    const kept = new Set([...(map.get(key) ?? [])].filter((uid) => live.has(uid)));
    map.set(key, kept);
    return kept;
  }
}
