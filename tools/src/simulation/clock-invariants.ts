/**
 * The invariants of §3.17 clocks and §3.19 status bounds, checked at every change of the store from
 * the objects alone:
 *
 * - **unbounded-creates**: a set creates more Exporters within one minute of cluster time than any
 *   legitimate churn needs (`createsPerMinute`): a loop without a bound, such as a startup timeout
 *   measured against a skewed clock that fails every new instance at once;
 * - **timer-cap**: a status the set's status write changed carries `scaleDownWindowStart` or
 *   `lastStartupFailureTime` after the controller's own clock (beyond the store's one-second
 *   rounding, and the clock it had before a skew changed it in the last `SKEW_GRACE_MS`, as a write
 *   may be in flight) that the simulation did not write itself: a time from another clock trusted,
 *   so the window or the backoff would outlast its cap.
 */
import type { ExporterSet } from 'virtual-exporters/internal';
import type { Clock, TestCluster, WatchEvent } from 'virtual-exporters-test-cluster';
import type { Violation } from './invariants';

export interface ClockMonitorOptions {
  readonly namespace: string;
  /** The controller's clock (skewed like the controller's). */
  readonly controllerClock: Clock;
  /** Most Exporter creates of one set within a cluster minute. */
  readonly createsPerMinute: number;
}

export interface ClockMonitor {
  readonly violations: readonly Violation[];
  /** Values the simulation itself wrote into a status (tampering): not the controller's. */
  tampered(value: string): void;
  /** Call before the controller's clock offset changes: writes in flight still carry the old clock. */
  skewing(): void;
  /** The most creates any set made within one cluster minute. */
  peakCreatesPerMinute(): number;
  stop(): void;
}

const MINUTE = 60_000;
/** The store stamps whole seconds; the controller's times carry milliseconds. */
const ROUNDING_MS = 1_000;
/**
 * How long (cluster time) writes planned on the controller's previous clock may still land: a pass
 * that read its clock before a skew writes after it, and at speed-up 50 a pass of a few hundred real
 * milliseconds on a loaded machine spans 10–20 s of cluster time. A stale time still written after
 * this is a violation at the next status change.
 */
const SKEW_GRACE_MS = 60_000;

export function startClockMonitor(cluster: TestCluster, options: ClockMonitorOptions): ClockMonitor {
  const { store, registry, clock } = cluster;
  const exportersRt = registry.get('jumpstarter.dev', 'v1alpha1', 'exporters')!;
  const setsRt = registry.get('virtualtarget.jumpstarter.dev', 'v1alpha1', 'exportersets')!;
  const violations: Violation[] = [];
  const creates = new Map<string, number[]>();
  const lastStatus = new Map<string, string>();
  const tampered = new Set<string>();
  /** Violations already reported, by set, field and value: one write carrying them is enough. */
  const reported = new Set<string>();
  /** The controller's clock readings just before its offset changed, with the true time then. */
  const previous: { at: number; reading: number }[] = [];
  let peak = 0;

  const onExporter = (event: WatchEvent) => {
    if (event.type !== 'ADDED') return;
    const owner = (event.object.metadata.ownerReferences ?? []).find(
      (o) => o?.controller === true && o.kind === 'ExporterSet',
    );
    if (!owner) return;
    const now = clock.now();
    const recent = (creates.get(owner.uid) ?? []).filter((t) => t > now - MINUTE);
    recent.push(now);
    creates.set(owner.uid, recent);
    peak = Math.max(peak, recent.length);
    if (recent.length === options.createsPerMinute + 1) {
      violations.push({
        invariant: 'unbounded-creates',
        at: now,
        message: `set ${owner.name} created ${recent.length} Exporters within a minute (bound ${options.createsPerMinute})`,
      });
    }
  };

  const onSet = (event: WatchEvent) => {
    if (event.type === 'DELETED') return;
    const set = event.object as unknown as ExporterSet;
    const uid = set.metadata?.uid ?? '';
    const text = JSON.stringify(set.status ?? null);
    if (lastStatus.get(uid) === text) return;
    lastStatus.set(uid, text);
    const now = clock.now();
    const readings = previous.filter((p) => p.at > now - SKEW_GRACE_MS).map((p) => p.reading + now - p.at);
    const limit = Math.max(options.controllerClock.now(), ...readings) + ROUNDING_MS;
    for (const field of ['scaleDownWindowStart', 'lastStartupFailureTime'] as const) {
      const value = set.status?.[field];
      if (typeof value !== 'string' || tampered.has(value)) continue;
      const id = `${uid}/${field}/${value}`;
      if (Date.parse(value) > limit && !reported.has(id)) {
        reported.add(id);
        violations.push({
          invariant: 'timer-cap',
          at: clock.now(),
          message: `set ${set.metadata?.name} status.${field} ${value} is after the controller's clock (${new Date(limit - ROUNDING_MS).toISOString()})`,
        });
      }
    }
  };

  const from = { resourceVersion: store.resourceVersion() };
  const watches = [
    store.watch(exportersRt, options.namespace, from, onExporter),
    store.watch(setsRt, options.namespace, from, onSet),
  ];
  return {
    violations,
    tampered: (value) => void tampered.add(value),
    skewing: () => void previous.push({ at: clock.now(), reading: options.controllerClock.now() }),
    peakCreatesPerMinute: () => peak,
    stop: () => watches.forEach((w) => w.stop()),
  };
}
