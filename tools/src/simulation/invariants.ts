/**
 * The invariants the simulation checks at every change of the store, from the objects
 * alone — an oracle independent of the planner's code (but for the buffer a window raises, which
 * lease-double-boot reads with the planner's own evaluation of the windows: raised-buffer.ts):
 *
 * - **leased-deleted**: an Exporter is deleted (or marked for deletion) while a Lease that has not
 *   ended names it.
 * - **ceiling**: an instance that runs appears (created, or a standby promoted) while the set already
 *   has its maxReplicas (when not 0) of them, counting the instances
 *   that run or may run: not Pod-less standbys (a standby whose Pod runs, as when its promotion's label
 *   patch was refused, runs already, and its promotion starts nothing), not being deleted, not disabled on their way out
 *   (retiring), Pod not ended. The ceiling is the largest of every spec generation from the one the
 *   set's status last reported on, so a create planned just before an operator lowered maxReplicas is
 *   not blamed, however slow the pass.
 * - **name-reused**: an instance name comes back within one set's life, or a new instance takes a
 *   name some Lease already named (SPEC §3.10); its ordinal annotation must match its name. A name
 *   whose ordinal a status writer rewound `status.nextOrdinal` to or below, after the name was issued,
 *   is not held against the controller: once that instance is gone, the rewound counter is the only
 *   record left, and a restarted controller has nothing else to go by.
 * - **lease-double-boot**: one lease boots VMs in two sets whose selectors overlap (SPEC §3.3): the
 *   VMs booting in the overlapping sets outnumber what waiting leases, pauses and raised buffers
 *   explain (double-boot.ts).
 * - **create-loop**: one set gets more than `CREATE_LOOP_LIMIT` new instances within
 *   `CREATE_LOOP_WINDOW_MS` of cluster time, beyond one for each lease that arrived in that window
 *   and selects them (with ExitAndReplace each lease uses up an instance: a burst of leases, as the
 *   daily and weekly lease loads have, is demand, not a loop) — far beyond what its rules can want,
 *   so creates loop without a bound (SPEC §3.9).
 *
 * It also records when a set reports a failed write (ReplicaFailure=True, by reason), for the check
 * that a refused write shows on the conditions (refusals.ts).
 *
 * The store calls watchers synchronously inside each write, so nothing between two writes is missed.
 */
import {
  Annotations,
  ConditionReasons,
  Labels,
  matchesSelector,
  type Condition,
  type Exporter,
  type ExporterSet,
  type Lease,
} from 'virtual-exporters/internal';
import type { KubeObject, TestCluster, WatchEvent } from 'virtual-exporters-test-cluster';
import { startDoubleBootCheck } from './double-boot';
import type { PassesInFlight } from './passes';

export type InvariantName =
  | 'leased-deleted'
  | 'ceiling'
  | 'name-reused'
  | 'create-loop'
  | 'lease-double-boot'
  /** clock-invariants.ts */
  | 'unbounded-creates'
  | 'timer-cap'
  /** revision-invariants.ts */
  | 'revision-modified'
  | 'revision-in-use-pruned'
  /** operation-endings.ts */
  | 'operation-reopened';

export interface Violation {
  readonly invariant:
    | InvariantName
    | 'convergence'
    | 'controller-crashed'
    | 'requests-accepted'
    | 'failure-unreported'
    | 'deep-input-reported'
    /** operation-endings.ts */
    | 'operation-ended';
  /** Cluster time, epoch ms. */
  readonly at: number;
  readonly message: string;
}

/**
 * A set reporting a failed write: ReplicaFailure turned True, or changed reason while True; or an
 * ExporterOperation whose WriteFailure turned True (`set` is then the operation's name).
 */
export interface ReportedFailure {
  /** Cluster time, epoch ms. */
  readonly at: number;
  readonly set: string;
  readonly reason: string;
}

export interface InvariantMonitor {
  readonly violations: readonly Violation[];
  readonly reportedFailures: readonly ReportedFailure[];
  /** The reasons of the ReplicaFailure conditions True now. */
  failingReasons(): ReadonlySet<string>;
  stop(): void;
}

/** More new instances of one set than this within the window is a create loop. */
export const CREATE_LOOP_LIMIT = 40;
export const CREATE_LOOP_WINDOW_MS = 60_000;

export interface MonitorOptions {
  readonly namespace: string;
  /** The sets whose selectors overlap (checked by lease-double-boot). @default none */
  readonly overlapSets?: readonly string[];
  /** The controller's passes running now (lease-double-boot widens its window by the longest). @default none */
  readonly passesInFlight?: PassesInFlight;
}

const ownerUid = (exporter: Exporter): string | undefined =>
  exporter.metadata?.ownerReferences?.find((o) => o.controller === true && o.kind === 'ExporterSet')?.uid;

/** The Lease, not ended, that names the Exporter. */
function activeLeaseOf(leases: readonly Lease[], exporter: string): Lease | undefined {
  return leases.find((l) => l.status?.exporterRef?.name === exporter && l.status?.ended !== true);
}

export function startInvariantMonitor(cluster: TestCluster, options: MonitorOptions): InvariantMonitor {
  const { store, registry, clock } = cluster;
  const ns = options.namespace;
  const exportersRt = registry.get('jumpstarter.dev', 'v1alpha1', 'exporters')!;
  // Looked up at each use: a seed may start without the Lease CRD.
  const leasesRt = () => registry.get('jumpstarter.dev', 'v1alpha1', 'leases');
  const setsRt = registry.get('virtualtarget.jumpstarter.dev', 'v1alpha1', 'exportersets')!;
  const violations: Violation[] = [];
  const reportedFailures: ReportedFailure[] = [];
  /** Per set uid: the cluster times of its recent creates. */
  const creates = new Map<string, number[]>();
  /** Leases as they arrived (cluster time) and what they select: each may explain one create. */
  const arrivals: { readonly at: number; readonly selector: Lease['spec']['selector'] }[] = [];
  /** Sets a create-loop was reported for (once each). */
  const loopReported = new Set<string>();
  const violate = (invariant: InvariantName, message: string) =>
    violations.push({ invariant, at: clock.now(), message });

  /** The Lease watch (for deletions), started once the Lease CRD is served. */
  let leaseWatch: { stop(): void } | undefined;
  const leases = () => {
    const rt = leasesRt();
    if (rt && leaseWatch === undefined) {
      leaseWatch = store.watch(rt, ns, { resourceVersion: store.resourceVersion() }, (event) => {
        if (event.type === 'ADDED') {
          const lease = event.object as unknown as Lease;
          arrivals.push({ at: clock.now(), selector: lease.spec?.selector });
        }
        doubleBoot.onLease(event);
      });
    }
    return rt ? (store.list(rt, ns).items as unknown as Lease[]) : [];
  };
  const doubleBoot = startDoubleBootCheck(
    cluster,
    ns,
    options.overlapSets ?? [],
    leases,
    (message) => violate('lease-double-boot', message),
    options.passesInFlight,
  );
  /** Per set uid: maxReplicas by generation, as the set's spec had it. */
  const ceilings = new Map<string, Map<number, number>>();
  /** Per set uid: every instance name it ever had. */
  const namesOfSet = new Map<string, Set<string>>();
  /** Per set uid: `status.nextOrdinal` as last seen, and the rewinds (a lower value) since. */
  const lastNextOrdinal = new Map<string, number>();
  const rewinds = new Map<string, { at: number; to: number }[]>();
  /** Per set uid and name: when the name was first issued. */
  const issuedAt = new Map<string, number>();
  /** Orders issues and rewinds (events in one cluster millisecond included). */
  let sequence = 0;
  /** Exporters already seen marked for deletion (reported once). */
  const deleting = new Set<string>();
  /** Exporters last seen as standbys (a promotion makes one count against the ceiling). */
  const standbyUids = new Set<string>();

  const recordCeiling = (set: ExporterSet) => {
    const uid = set.metadata?.uid;
    if (!uid) return;
    const byGeneration = ceilings.get(uid) ?? new Map<number, number>();
    byGeneration.set(set.metadata?.generation ?? 0, set.spec?.maxReplicas ?? 0);
    ceilings.set(uid, byGeneration);
  };
  /**
   * The ceiling a controller may have planned with: any generation from the one its status last
   * reported on (a pass reads a spec at least that new); the largest of them, 0 if any is unbounded.
   */
  const ceilingOf = (uid: string): number => {
    const set = (store.list(setsRt, ns).items as unknown as ExporterSet[]).find(
      (s) => s.metadata?.uid === uid,
    );
    const observed = set?.status?.observedGeneration ?? 0;
    let ceiling = -1;
    for (const [generation, max] of ceilings.get(uid) ?? []) {
      if (generation < observed) continue;
      if (max === 0) return 0;
      ceiling = Math.max(ceiling, max);
    }
    return ceiling < 0 ? 0 : ceiling;
  };

  const onExporter = (event: WatchEvent) => {
    const exporter = event.object as unknown as Exporter;
    const name = exporter.metadata?.name ?? '';
    const key = exporter.metadata?.uid ?? name;
    const marked = event.type === 'DELETED' || exporter.metadata?.deletionTimestamp !== undefined;
    doubleBoot.onExporter(event);
    if (marked && !deleting.has(key)) {
      deleting.add(key);
      const lease = activeLeaseOf(leases(), name);
      if (lease)
        violate('leased-deleted', `Exporter ${name} deleted while Lease ${lease.metadata?.name} holds it`);
    }
    const setUid = ownerUid(exporter);
    const setName = exporter.metadata?.labels?.[Labels.exporterSetName];
    if (!setUid || !setName) return;
    const isStandby = exporter.metadata?.labels?.[Labels.standby] === 'true';
    const wasStandby = standbyUids.has(key);
    if (isStandby) standbyUids.add(key);
    else standbyUids.delete(key);
    // The ceiling is checked when an instance that runs appears: created, or a Pod-less standby
    // promoted. A standby that has a Pod already (a promotion whose label patch was refused, say) is
    // running, or its Pod ended: either way the label's removal starts nothing.
    const podsRt = registry.get('', 'v1', 'pods')!;
    const hasPod = () =>
      (store.list(podsRt, ns).items as KubeObject[]).some(
        (p) => p.metadata.name === name && p.metadata.deletionTimestamp === undefined,
      );
    const livePods = () =>
      new Set(
        (store.list(podsRt, ns).items as KubeObject[])
          .filter(
            (p) =>
              p.metadata.deletionTimestamp === undefined &&
              !['Failed', 'Succeeded'].includes((p.status as { phase?: string } | undefined)?.phase ?? ''),
          )
          .map((p) => p.metadata.name),
      );
    const startsRunning =
      !isStandby && (event.type === 'ADDED' || (event.type === 'MODIFIED' && wasStandby && !hasPod()));
    if (event.type === 'ADDED') {
      const ordinal = exporter.metadata?.annotations?.[Annotations.ordinal];
      if (ordinal !== undefined && name !== `${setName}-${ordinal}`) {
        violate('name-reused', `Exporter ${name} carries ordinal ${ordinal}, which does not match its name`);
      }
      const seen = namesOfSet.get(setUid) ?? new Set<string>();
      const first = issuedAt.get(`${setUid}/${name}`);
      const issuedOrdinal = Number(ordinal ?? name.slice(setName.length + 1));
      const forgotten =
        first !== undefined &&
        Number.isInteger(issuedOrdinal) &&
        (rewinds.get(setUid) ?? []).some((r) => r.at > first && r.to <= issuedOrdinal);
      if (seen.has(name) && !forgotten)
        violate('name-reused', `set ${setName} made an instance named ${name} a second time`);
      if (!seen.has(name)) issuedAt.set(`${setUid}/${name}`, (sequence += 1));
      seen.add(name);
      namesOfSet.set(setUid, seen);
      const now = clock.now();
      const recent = (creates.get(setUid) ?? []).filter((t) => now - t < CREATE_LOOP_WINDOW_MS);
      recent.push(now);
      creates.set(setUid, recent);
      while (arrivals.length > 0 && now - arrivals[0]!.at >= CREATE_LOOP_WINDOW_MS) arrivals.shift();
      const labels = exporter.metadata?.labels ?? {};
      const demand = arrivals.filter((a) => a.selector !== undefined && matchesSelector(a.selector, labels));
      if (recent.length > CREATE_LOOP_LIMIT + demand.length && !loopReported.has(setUid)) {
        loopReported.add(setUid);
        violate(
          'create-loop',
          `set ${setName} made ${recent.length} instances within ${CREATE_LOOP_WINDOW_MS} ms, for ${demand.length} leases that arrived in it`,
        );
      }
      // Nothing can have leased an Exporter in the instant of its creation: a Lease naming it is older.
      const named = leases().find((l) => l.status?.exporterRef?.name === name);
      if (named)
        violate('name-reused', `new instance ${name} takes the name Lease ${named.metadata?.name} names`);
    }
    if (!startsRunning) return;
    const ceiling = ceilingOf(setUid);
    if (ceiling > 0) {
      const ended = new Set(
        (store.list(podsRt, ns).items as KubeObject[])
          .filter((p) =>
            ['Failed', 'Succeeded'].includes((p.status as { phase?: string } | undefined)?.phase ?? ''),
          )
          .map((p) => p.metadata.name),
      );
      const live = (store.list(exportersRt, ns).items as unknown as Exporter[]).filter(
        (e) =>
          ownerUid(e) === setUid &&
          e.metadata?.deletionTimestamp === undefined &&
          e.metadata?.annotations?.[Annotations.retiring] === undefined &&
          !ended.has(e.metadata?.name ?? ''),
      );
      // The ceiling bounds what runs: a Pod-less standby may outnumber it for a moment while the
      // instances it replaces leave (created first, so a waiting lease never finds the pool empty).
      const running = livePods();
      const realised = live.filter(
        (e) => e.metadata?.labels?.[Labels.standby] !== 'true' || running.has(e.metadata?.name ?? ''),
      ).length;
      if (realised > ceiling)
        violate('ceiling', `set ${setName} has ${realised} instances, maxReplicas ${ceiling}`);
    }
  };
  /** Per set uid: the reasons its ReplicaFailure shows while True (its own and those it names). */
  const failing = new Map<string, ReadonlySet<string>>();
  const onSet = (event: WatchEvent) => {
    doubleBoot.onSet(event.object as unknown as ExporterSet);
    if (event.type === 'DELETED') return;
    const set = event.object as unknown as ExporterSet;
    recordCeiling(set);
    const uid = set.metadata?.uid ?? '';
    const next = set.status?.nextOrdinal;
    if (typeof next === 'number') {
      const last = lastNextOrdinal.get(uid);
      if (last !== undefined && next < last) {
        rewinds.set(uid, [...(rewinds.get(uid) ?? []), { at: (sequence += 1), to: next }]);
      }
      lastNextOrdinal.set(uid, next);
    }
    const failure = set.status?.conditions?.find((c) => c.type === 'ReplicaFailure' && c.status === 'True');
    const reasons = failure ? reportedReasons(failure.reason, failure.message) : new Set<string>();
    const before = failing.get(uid);
    for (const reason of reasons) {
      if (!before?.has(reason))
        reportedFailures.push({ at: clock.now(), set: set.metadata?.name ?? '', reason });
    }
    if (failure) failing.set(uid, reasons);
    else failing.delete(uid);
  };

  /** An ExporterOperation's failed write (its Exporter patch) shows on its WriteFailure condition. */
  const onOperation = (event: WatchEvent) => {
    const uid = `operation/${event.object.metadata.uid ?? ''}`;
    const conditions = (event.object.status as { conditions?: Condition[] } | undefined)?.conditions;
    const failure =
      event.type === 'DELETED'
        ? undefined
        : conditions?.find((c) => c.type === 'WriteFailure' && c.status === 'True');
    const before = failing.get(uid);
    if (failure && !before?.has(failure.reason))
      reportedFailures.push({
        at: clock.now(),
        set: event.object.metadata.name ?? '',
        reason: failure.reason,
      });
    if (failure) failing.set(uid, new Set([failure.reason]));
    else failing.delete(uid);
  };

  const from = { resourceVersion: store.resourceVersion() };
  leases(); // starts the Lease watch when the CRD is served already
  for (const set of store.list(setsRt, ns).items as KubeObject[])
    recordCeiling(set as unknown as ExporterSet);
  const watches = [
    store.watch(exportersRt, ns, from, onExporter),
    store.watch(setsRt, ns, from, onSet),
    store.watch(registry.get('', 'v1', 'pods')!, ns, from, (event) => doubleBoot.onPod(event)),
    store.watch(
      registry.get('virtualtarget.jumpstarter.dev', 'v1alpha1', 'exporteroperations')!,
      ns,
      from,
      onOperation,
    ),
  ];
  return {
    violations,
    reportedFailures,
    failingReasons: () => new Set([...failing.values()].flatMap((reasons) => [...reasons])),
    stop: () => [...watches, ...(leaseWatch ? [leaseWatch] : [])].forEach((w) => w.stop()),
  };
}

const KNOWN_REASONS: ReadonlySet<string> = new Set(Object.values(ConditionReasons));

/**
 * The write failures a ReplicaFailure condition reports: its reason, and the other kinds its message
 * names as `(also <Reason>: …; <Reason>: …)` when a pass failed in several ways.
 */
export function reportedReasons(reason: string, message: string | undefined): Set<string> {
  const reasons = new Set([reason]);
  // The message may have been cut to the condition's bound: its closing parenthesis is not needed.
  const also = / \(also (.*)$/s.exec(message ?? '')?.[1] ?? '';
  for (const match of also.matchAll(/(?:^|; )(Failed[A-Za-z]+): /g)) {
    // Only the controller's reasons: an API message of its own may hold "; FailedX: ".
    if (KNOWN_REASONS.has(match[1])) reasons.add(match[1]);
  }
  return reasons;
}
