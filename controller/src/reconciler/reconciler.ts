/**
 * One reconcile pass for one ExporterSet key (SPEC §3, level-triggered), as named steps:
 *
 * 1. **observe**: the set's world from the caches (read-set-world.ts), with the demand history folded
 *    in (demand/demand-store.ts) when this controller serves the set's class;
 * 2. **plan**: the pure planner; a set it leaves alone with nothing left to do (another provisioner's,
 *    its switch recorded and the instances this controller made drained) is forgotten;
 * 3. **act**: the executor applies the plan (executor.ts); right before Exporter deletes, their names
 *    are recorded (§3.10) and the pass planned again with the live Lease list (lease-check.ts, §3.7),
 *    and that plan is the pass's plan; each delete is guarded by the Exporter the pass decided on
 *    (apply-action.ts); then the leftover sweep of a lifecycle (leftover-sweep.ts);
 * 4. **status**: the planner's `finalizeStatus` of the outcome, written through `/status` once — only
 *    when it differs from the newest known one (status-writes.ts; §3.15: a settled pool writes nothing);
 * 5. **report**: the demand history when its write is due, events, metrics and logs (pass-report.ts);
 * 6. **retry or wait**: a failed write fails the pass, so the work queue backs the key off; otherwise
 *    the pass asks to run again at its next deadline, or soon when a delete found its Exporter changed.
 *
 * A set missing from the cache was deleted: everything kept for it (expectations, create window, status
 * and render memos, CA bundle reads, Pod waits, metrics, demand record, first-observed times) is dropped.
 */
import type { ReconcileResult } from '../queue/work-queue';
import { elapsedOf } from '../queue/clock';
import { parseObjectKey } from '../queue/object-key';
import { exporterSetLogger, type Logger } from '../process/logger';
import type { ControllerMetrics, SetRef } from '../process/metrics';
import { finalizeStatus, plan, type Plan, type PlanEvent } from '../planner';
import type { DemandRecorder } from './demand/demand-store';
import type { EventRecorder } from './event-recorder';
import type { Execution } from './execution';
import { execute, type ExecutorDeps } from './executor';
import { withLeaseCheck, withoutDeletes } from './lease-check';
import { sweepLeftovers } from './leftover-sweep';
import { logApplied, passEvents, recordPassMetrics } from './pass-report';
import { readSetWorld, type SetWorld, type SnapshotDeps } from './read-set-world';
import { recordOrdinals, statusToWrite, writeStatus } from './status-writes';

/**
 * A delete refused because its Exporter changed is decided again once the cache shows the change (its
 * event queues the set); this long after, the set is looked at again even if that event is late.
 */
export const LOOK_AGAIN_AFTER_CHANGE_MS = 1000;

export interface ReconcilerDeps extends SnapshotDeps, ExecutorDeps {
  readonly logger: Logger;
  readonly events: EventRecorder;
  readonly metrics?: ControllerMetrics;
  /** The demand history, the lease-wait objectives' facts and their metrics (demand/demand-store.ts). */
  readonly demand?: DemandRecorder;
}

/** What the act step did. */
interface Acted {
  /** The pass's plan: the one made with the live Lease list when the deletes asked for one. */
  readonly plan: Plan;
  readonly execution: Execution;
  /** Why `status.nextOrdinal` could not be recorded before the deletes, which then waited (§3.10). */
  readonly unrecorded?: string;
  /** The leftover sweep's events. */
  readonly sweptEvents: readonly PlanEvent[];
}

export class Reconciler {
  constructor(private readonly deps: ReconcilerDeps) {}

  /** The work queue's handler. */
  readonly reconcile = async (key: string): Promise<ReconcileResult> => {
    const ref = parseObjectKey(key);
    const started = elapsedOf(this.deps.clock);
    try {
      const result = await this.pass(key, ref);
      this.deps.metrics?.observeReconcile(ref, (elapsedOf(this.deps.clock) - started) / 1000, 'success');
      return result;
    } catch (error) {
      this.deps.metrics?.observeReconcile(ref, (elapsedOf(this.deps.clock) - started) / 1000, 'error');
      throw error;
    }
  };

  /** Drops everything kept for a set. */
  forget(key: string): void {
    this.deps.expectations.forget(key);
    this.deps.slowStart.forget(key);
    this.deps.statuses.forget(key);
    this.deps.renders.forget(key);
    this.deps.caBundles.forget(key);
    this.deps.podWaits.forget(key);
    this.deps.metrics?.forgetSet(parseObjectKey(key));
    this.deps.demand?.forget(key);
    this.deps.firstObserved?.forget(key);
  }

  private async pass(key: string, ref: SetRef): Promise<ReconcileResult> {
    const { deps } = this;
    const world = await this.observe(key, ref);
    if (!world) return this.dropped(key);
    const log = exporterSetLogger(deps.logger, ref);
    const first = plan(world.snapshot);
    if (first.ignored !== undefined && first.actions.length === 0 && first.status === undefined) {
      log.debug({ why: first.ignored }, 'set ignored');
      return this.dropped(key);
    }
    const acted = await this.act(key, world, first);
    deps.podWaits.record(key, acted.execution);
    const set = world.snapshot.set;
    const status = finalizeStatus(acted.plan, { ...acted.execution, now: deps.clock.now() });
    if (statusToWrite(set, status, acted.execution)) await writeStatus(deps, key, set, status);
    if (set.metadata?.deletionTimestamp === undefined) await deps.demand?.flush(key, set);
    await deps.events.record(set, [
      ...passEvents(acted.plan, acted.execution, set.status, status),
      ...acted.sweptEvents,
      ...(world.lifecycle?.takeNotices() ?? []).map((n) => ({ type: 'Normal' as const, ...n })),
    ]);
    // A set handed over (only its switch recorded) has no pool to measure.
    const measured = acted.plan.ignored === undefined ? status : undefined;
    if (deps.metrics) recordPassMetrics(deps.metrics, ref, acted.execution.applied, measured, set);
    logApplied(log, acted.execution.applied);
    if (acted.execution.changed.length > 0) {
      log.info(
        { changed: acted.execution.changed },
        'kept instances that changed since the pass decided to delete them',
      );
    }
    const replicaFailure = acted.execution.replicaFailure ?? acted.plan.statusInputs?.deleteFailure;
    if (replicaFailure) log.warn({ failure: replicaFailure }, 'replica failure');
    failOnFailedWrites(key, acted, replicaFailure);
    return this.nextPass(key, acted);
  }

  /** The set's world, with what its demand record gives the planner; undefined once the set is gone. */
  private async observe(key: string, ref: SetRef): Promise<SetWorld | undefined> {
    const { deps } = this;
    const read = await readSetWorld(key, deps);
    // Only the controller of the set's class records its demand: one writer per history object (a set
    // without its class, which every provisioner's controller passes over, is recorded by none).
    const ours = read?.snapshot.virtualTargetClass?.spec?.provisioner === deps.provisioner.name;
    if (!read || !deps.demand || !ours) return read;
    return {
      ...read,
      snapshot: { ...read.snapshot, ...(await deps.demand.observe(key, ref, read.snapshot)) },
    };
  }

  /** Forgets a set that is gone or left alone: nothing to do for it until its next event. */
  private dropped(key: string): ReconcileResult {
    this.forget(key);
    return {};
  }

  /** Applies `first`, its deletes confirmed right before they go, then sweeps the leftovers. */
  private async act(key: string, world: SetWorld, first: Plan): Promise<Acted> {
    const { deps } = this;
    const set = world.snapshot.set;
    let confirmed: Plan | undefined;
    let unrecorded: string | undefined;
    const execution = await execute(world, first, deps, async () => {
      unrecorded = await recordOrdinals(deps, key, set, first);
      // §3.10: a name not on record is not deleted; the pass fails and is retried.
      confirmed =
        unrecorded === undefined
          ? await withLeaseCheck(first, world.snapshot, deps.clients)
          : withoutDeletes(first);
      return confirmed;
    });
    // §3.20: a paused set is left alone, leftovers included.
    const lifecycle = set.spec?.paused !== true ? world.lifecycle : undefined;
    const swept = lifecycle
      ? await sweepLeftovers(set, lifecycle, execution, deps.caches.exporters)
      : undefined;
    return {
      plan: confirmed ?? first,
      execution: swept?.execution ?? execution,
      ...(unrecorded !== undefined ? { unrecorded } : {}),
      sweptEvents: swept?.events ?? [],
    };
  }

  /** When to run the pass again without an event: the earliest of the waits that apply. */
  private nextPass(key: string, acted: Acted): ReconcileResult {
    const { deps } = this;
    // A name found taken was skipped: the next pass creates under the next free name at once.
    const waits = [acted.plan.requeueAfterMs, ...(acted.execution.taken.length > 0 ? [0] : [])];
    if (acted.execution.changed.length > 0) waits.push(LOOK_AGAIN_AFTER_CHANGE_MS);
    // An expectation that never shows up times out; look again then even if no event comes.
    if (deps.expectations.pending(key) > 0) waits.push(deps.expectations.timeoutMs);
    // The demand history's write and the objectives' window wait for the next hour.
    const demandDue = deps.demand?.dueIn(key, deps.clock.now());
    if (demandDue !== undefined) waits.push(demandDue);
    const due = waits.filter((w): w is number => w !== undefined);
    return due.length > 0 ? { requeueAfterMs: Math.min(...due) } : {};
  }
}

/**
 * Fails the pass when a write failed (a create or delete, whose ReplicaFailure the status carries,
 * included), after its status is written: the key is retried with the work queue's backoff.
 */
function failOnFailedWrites(
  key: string,
  acted: Acted,
  replicaFailure: { readonly message: string } | undefined,
): void {
  const { errors } = acted.execution;
  const failed = [
    ...(errors.length > 0 ? errors : replicaFailure ? [replicaFailure.message] : []),
    ...(acted.unrecorded !== undefined ? [acted.unrecorded] : []),
  ];
  if (failed.length > 0) {
    throw new Error(`${failed.length} write(s) of ${key} failed: ${failed.join('; ')}`);
  }
}
