/**
 * The refusal stretches of a seed (lab-plan.ts `Refusal`): from `fromMs` the API answers the
 * controller's writes of one resource and verb with a 403 (RBAC) or 422 (oversized Secret), until
 * `toMs`. When the stretch is lifted, a refusal that fired well before must have shown on some set's
 * ReplicaFailure condition, or an ExporterOperation's WriteFailure, with the reason of that write
 * (SPEC §3.18: nothing fails silently),
 * else the seed fails with `failure-unreported`.
 *
 * Only refusals met by the controller process running at the judgment are judged: a process stopped
 * (a restart, abrupt or not) may have been refused and stopped before its pass wrote the report, and
 * what it had in flight is lost with it; its successor reports the refusal only if it writes the same
 * again, and it does not when the write is no longer wanted (the set drained, the instance gone).
 *
 * The judgment waits for the controller's passes that were running at the lift: a pass refused in
 * time reports in its own status write, and on a loaded machine that pass may end only after the lift
 * (a cluster second is a few wall milliseconds). A pass still running `PASS_WAIT_MS` after the lift is
 * named instead.
 */
import { ConditionReasons as R } from 'virtual-exporters/internal';
import type { TestCluster } from 'virtual-exporters-test-cluster';
import type { InvariantMonitor, Violation } from './invariants';
import type { Refusal } from './lab-plan';
import type { PassesInFlight } from './passes';

/** A failed write reports within a pass; refusals later than this before the lift are not judged. */
const REPORT_WITHIN_MS = 10_000;

/** How long (cluster time) the judgment waits for the passes running at the lift to end. */
const PASS_WAIT_MS = 60_000;

/** The ReplicaFailure reasons a refused write of each resource and verb may show under. */
const REASONS: Readonly<Record<string, readonly string[]>> = {
  'exporters/create': [R.FailedCreate],
  'exporters/patch': [R.FailedPatch],
  'exporters/delete': [R.FailedDelete],
  'pods/create': [R.FailedCreatePod],
  'pods/delete': [R.FailedDeletePod],
  'secrets/create': [R.FailedCreateSecret],
  'secrets/patch': [R.FailedUpdateSecret],
};

/** A step of the seed's timeline. */
export interface TimedStep {
  /** Cluster milliseconds after the lab started. */
  readonly atMs: number;
  run(): void;
}

/** The steps that start, judge and lift each refusal, against the lab's start `t0`. */
export function refusalSteps(
  cluster: TestCluster,
  refusals: readonly Refusal[],
  t0: () => number,
  monitor: InvariantMonitor,
  report: { violate(violation: Violation): void; count(kind: string, n: number): void },
  passesInFlight: PassesInFlight = () => [],
  onControllerStop: (listener: () => void) => void = () => undefined,
): TimedStep[] {
  return refusals.flatMap((refusal) => {
    let id = '';
    let judged = 0;
    /** Hits when the controller last stopped during the stretch: met by a process gone since. */
    let hitsAtStop = 0;
    onControllerStop(() => {
      if (id !== '') hitsAtStop = cluster.faults.hits(id);
    });
    let shownBefore = false;
    const { code, resource, verb } = refusal;
    return [
      {
        atMs: refusal.fromMs,
        run: () => {
          id = cluster.faults.add({
            kind: 'error',
            code,
            resource,
            verb,
            subresource: '',
            identity: 'controller',
          });
          // A set already failing with that reason shows the refusal as it is.
          const failing = monitor.failingReasons();
          shownBefore = (REASONS[`${resource}/${verb}`] ?? []).some((r) => failing.has(r));
        },
      },
      {
        atMs: Math.max(refusal.fromMs, refusal.toMs - REPORT_WITHIN_MS),
        run: () => (judged = cluster.faults.hits(id)),
      },
      {
        atMs: refusal.toMs,
        run: async () => {
          report.count(`refused${code}`, cluster.faults.hits(id));
          cluster.faults.remove(id);
          id = ''; // lifted: later stops are not this stretch's
          const from = t0() + refusal.fromMs;
          const reasons = REASONS[`${resource}/${verb}`] ?? [];
          const shown = () =>
            shownBefore || monitor.reportedFailures.some((f) => f.at >= from && reasons.includes(f.reason));
          // Every refusal judged was met by a process that has stopped since: not judged.
          if (judged <= hitsAtStop || shown()) return;
          const running = await passesEnded(cluster, passesInFlight);
          if (shown()) return;
          const still = running.length > 0 ? `; passes still running: ${running.join(', ')}` : '';
          report.violate({
            invariant: 'failure-unreported',
            at: cluster.clock.now(),
            message: `${judged} ${verb} of ${resource} refused with ${code} from ${refusal.fromMs} ms (${judged - hitsAtStop} since the controller last started), but no set reported ${reasons.join(' or ')}${still}`,
          });
        },
      },
    ];
  });
}

/**
 * Waits until every pass running now has ended, or `PASS_WAIT_MS` of cluster time; returns the keys of
 * those still running then.
 */
async function passesEnded(cluster: TestCluster, passesInFlight: PassesInFlight): Promise<string[]> {
  const start = cluster.clock.now();
  const wallDeadline = Date.now() + PASS_WAIT_MS; // a clock that stands still must not hang the seed
  const atStart = new Map(passesInFlight().map((p) => [p.key, p.forMs]));
  for (;;) {
    const elapsed = cluster.clock.now() - start;
    // The same pass has run at least as long as then (passes are timed on the controller's clock,
    // which a skew fault may move, so only the order is compared); a shorter one is a new pass.
    const running = passesInFlight()
      .filter((p) => {
        const before = atStart.get(p.key);
        return before !== undefined && p.forMs >= before;
      })
      .map((p) => p.key);
    if (running.length === 0 || elapsed >= PASS_WAIT_MS || Date.now() > wallDeadline) return running;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
