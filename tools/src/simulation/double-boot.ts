/**
 * lease-double-boot: one lease boots VMs in two sets whose selectors overlap (SPEC §3.3). In the
 * overlapping sets (no floor and no warm buffer of their own, a class nobody edits) a VM boots for a
 * waiting lease, or for a window of `spec.schedules` that raises a set's buffer. So whenever one
 * boots, the VMs booting and unleased in both sets may not outnumber the unassigned leases that select
 * them (those that ended, or went to another instance, in the last 30 s included: a boot may be under
 * way for one), plus, for each pause or unpause of those sets in the last 30 s, the leases then
 * waiting (a pause hands every lease the set was booting for to the other set at once), plus each
 * set's raised buffer, the largest seen in the last 30 s (raised-buffer.ts, on the controller's clock:
 * the planner's own evaluation of the windows). Only instances created in the last 30 s count (a VM
 * that never gets ready boots until its startup timeout); a Pod replaced in place on an instance that
 * was online is no new VM.
 *
 * On a loaded machine a pass may run for many cluster seconds (one is a few wall milliseconds): a
 * VM created now may have been planned when a lease was still waiting well over 30 s ago. So what
 * explains a boot (leases, toggles, raises) is looked for over 30 s plus the longest pass of the
 * controller still running at the boot.
 */
import {
  Annotations,
  Labels,
  matchesSelector,
  type Exporter,
  type ExporterSet,
  type Lease,
} from 'virtual-exporters/internal';
import type { KubeObject, TestCluster, WatchEvent } from 'virtual-exporters-test-cluster';
import type { PassesInFlight } from './passes';
import { raisedBuffer } from './raised-buffer';

/** How long a lease that ended unassigned, a pause toggle or a raise may still explain a boot under way. */
const RECENT_MS = 30_000;
/** How far back on the controller's clock a raise may still explain a create landing now. */
const RAISE_LAG_MS = 2_000;
/** How long the explanations are kept: room for passes that ran long on a loaded machine. */
const KEEP_MS = 10 * RECENT_MS;

/** The lease-double-boot check (see the module doc), fed by the invariant monitor's watches. */
export function startDoubleBootCheck(
  cluster: TestCluster,
  namespace: string,
  overlapSets: readonly string[],
  leases: () => Lease[],
  violate: (message: string) => void,
  passesInFlight: PassesInFlight = () => [],
) {
  const { store, registry, clock } = cluster;
  const sets = new Set(overlapSets);
  const inOverlap = (labels: Readonly<Record<string, string>> | undefined) =>
    sets.has(labels?.[Labels.exporterSetName] ?? '');
  /** Whether each overlapping set is paused, from its latest event (a set not seen yet is not). */
  const paused = new Map<string, boolean>();
  /** Pauses and unpauses: when, and how many waiting leases they could hand over. */
  const toggles: { readonly at: number; readonly leases: number }[] = [];
  /** Exporters seen online: a Pod replaced in place (InPlaceReuse) is no new VM for a lease. */
  const everOnline = new Set<string>();
  /** Leases deleted, and when: a deleted lease ended then, and a boot may be under way for it. */
  const deleted: { readonly lease: Lease; readonly at: number }[] = [];
  const list = <T>(group: string, plural: string, version = 'v1alpha1') =>
    store.list(registry.get(group, version, plural)!, namespace).items as unknown as T[];
  let reported = false;
  /** The window of what explains a boot: 30 s, and the longest pass running now (see the module doc). */
  let explainMs = RECENT_MS;
  const within = (at: number, windowMs: number) => clock.now() - at <= windowMs;
  const recent = (time: string | Date | undefined, windowMs = explainMs) =>
    time !== undefined && within(new Date(time).getTime(), windowMs);
  /** Per overlapping set: its raised buffers (above 0), and when they were seen. */
  const raises = new Map<string, { readonly at: number; readonly buffer: number }[]>();
  /**
   * Records each overlapping set's raised buffer now and as it was a moment ago on the controller's
   * clock (a pass that created just before a window closed planned with the raise).
   */
  const sampleRaises = () => {
    const now = clock.now();
    const controllerNow = cluster.clocks.controller.now();
    for (const set of list<ExporterSet>('virtualtarget.jumpstarter.dev', 'exportersets')) {
      const name = set.metadata?.name ?? '';
      if (!sets.has(name) || !Array.isArray(set.spec?.schedules) || set.spec.schedules.length === 0) continue;
      const buffer = Math.max(
        ...[controllerNow, controllerNow - RAISE_LAG_MS].map((at) => {
          const raised = raisedBuffer(set, { now: at });
          return Math.max(raised.minAvailable, raised.minReplicas);
        }),
      );
      const kept = (raises.get(name) ?? []).filter((r) => now - r.at <= KEEP_MS);
      if (buffer > 0) kept.push({ at: now, buffer });
      raises.set(name, kept);
    }
  };
  /** The boots the windows explain: each set's largest raise of the last 30 s. */
  const raised = () =>
    [...raises.values()].reduce(
      (n, seen) => n + Math.max(0, ...seen.filter((r) => within(r.at, explainMs)).map((r) => r.buffer)),
      0,
    );

  /**
   * Leases the overlapping sets may be booting for: unassigned and not ended, or ended unassigned or
   * assigned (to another instance) only just now.
   */
  const demand = (all: readonly Lease[]): number => {
    const live = list<ExporterSet>('virtualtarget.jumpstarter.dev', 'exportersets').filter((s) =>
      sets.has(s.metadata?.name ?? ''),
    );
    const labelsOf = (s: ExporterSet) => ({
      ...(s.spec?.template?.metadata?.labels ?? {}),
      [Labels.exporterSetName]: s.metadata?.name ?? '',
    });
    const selects = (l: Lease) => live.some((s) => matchesSelector(l.spec?.selector, labelsOf(s)));
    const gone = deleted.filter((d) => within(d.at, explainMs)).map((d) => d.lease);
    return (
      all.filter((l) => {
        // Assigned at status.beginTime (Jumpstarter's clock, the true one): Ready=True is gone once it ends.
        if (l.status?.exporterRef?.name && !recent(l.status.beginTime)) return false;
        if (l.status?.ended === true && !recent(l.status.endTime)) return false;
        return selects(l);
      }).length +
      // A lease deleted just now ended just now, assigned or not.
      gone.filter(selects).length
    );
  };

  return {
    onSet(set: ExporterSet) {
      const name = set.metadata?.name ?? '';
      if (!sets.has(name)) return;
      sampleRaises();
      const now = set.spec?.paused === true;
      // A pause hands every lease the set was booting for to the other set at once (SPEC §3.20).
      if ((paused.get(name) ?? false) !== now) toggles.push({ at: clock.now(), leases: demand(leases()) });
      paused.set(name, now);
    },
    onLease(event: WatchEvent) {
      if (event.type !== 'DELETED') return;
      deleted.push({ lease: event.object as unknown as Lease, at: clock.now() });
      while (deleted.length > 0 && !within(deleted[0].at, KEEP_MS)) deleted.shift();
    },
    onExporter(event: WatchEvent) {
      const exporter = event.object as unknown as Exporter;
      if (event.type === 'ADDED' && inOverlap(exporter.metadata?.labels)) sampleRaises();
      if (exporter.status?.conditions?.some((c) => c.type === 'Online' && c.status === 'True'))
        everOnline.add(exporter.metadata?.uid ?? '');
    },
    /** At each VM boot in an overlapping set: VMs booting and unleased across both vs the demand. */
    onPod(event: WatchEvent) {
      const pod = event.object;
      if (event.type !== 'ADDED' || reported || !inOverlap(pod.metadata.labels)) return;
      sampleRaises();
      const longest = Math.max(0, ...passesInFlight().map((p) => p.forMs));
      explainMs = RECENT_MS + Math.min(longest, KEEP_MS - RECENT_MS);
      const all = leases();
      const held = new Set(
        all.filter((l) => l.status?.ended !== true).map((l) => l.status?.exporterRef?.name),
      );
      const running = new Set(
        list<KubeObject>('', 'pods', 'v1')
          .filter((p) => !['Failed', 'Succeeded'].includes((p.status as { phase?: string })?.phase ?? ''))
          .map((p) => p.metadata.name),
      );
      const booting = list<Exporter>('jumpstarter.dev', 'exporters').filter(
        (e) =>
          inOverlap(e.metadata?.labels) &&
          running.has(e.metadata?.name) &&
          e.metadata?.deletionTimestamp === undefined &&
          e.metadata?.annotations?.[Annotations.retiring] === undefined &&
          e.spec?.enabled !== false &&
          !held.has(e.metadata?.name) &&
          !everOnline.has(e.metadata?.uid ?? '') &&
          recent(e.metadata?.creationTimestamp, RECENT_MS) &&
          !e.status?.conditions?.some((c) => c.type === 'Online' && c.status === 'True'),
      );
      const handovers = toggles
        .filter((t) => within(t.at, explainMs))
        .reduce((n, t) => n + Math.max(1, t.leases), 0);
      const wanted = demand(all);
      const windows = raised();
      if (booting.length > wanted + handovers + windows) {
        reported = true;
        violate(
          `the overlapping sets ${overlapSets.join(', ')} boot ${booting.length} VMs (${booting.map((e) => e.metadata?.name).join(', ')}) for ${wanted} waiting leases that select them (${handovers} pauses or unpauses just now, ${windows} raised by windows)`,
        );
      }
    },
  };
}
