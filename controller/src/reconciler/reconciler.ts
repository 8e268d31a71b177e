/**
 * One reconcile pass for one ExporterSet key (SPEC §3, level-triggered): read the set's world from
 * the caches, plan (again with the live Lease list right before Exporter deletes), apply the plan,
 * and write the status the planner's `finalizeStatus` makes of the outcome through `/status` once —
 * only when it differs from the newest known one (SPEC §3.15: a settled pool writes nothing). Events go out for the actions
 * applied and the conditions that changed; the pool's metrics are updated. Before planning, the demand
 * recorder folds the pass into the set's demand history (demand-recorder.ts), which the snapshot
 * carries to the planner; after the status, the history is written when it is due.
 *
 * A set missing from the cache was deleted: everything kept for it (expectations, create window, status
 * and render memos, CA bundle reads, metrics, demand record) is dropped. A set of another provisioner
 * is left alone (the planner's `ignored`). Writes that failed other than creates and
 * deletes (which become ReplicaFailure) make the pass throw after the status is written, so the key
 * is retried with the work queue's backoff.
 */
import {
  ConditionReasons as R,
  Defaults,
  EventReasons,
  type ExporterSet,
  type ExporterSetStatus,
  JUMPSTARTER_API_VERSION,
} from 'virtual-exporters/internal';
import type { ControllerMetrics, SetRef } from '../process/metrics';
import { exporterSetLogger, type Logger } from '../process/logger';
import {
  actionEvents,
  type PlanEvent,
  conditionEvents,
  finalizeStatus,
  ordinalsToRecord,
  plan,
  statusEquals,
  type Action,
  type LeaseCheck,
  type Plan,
  type PlannerSnapshot,
} from '../planner';
import type { KubeClients } from '../kube/clients';
import { parseObjectKey } from '../queue/object-key';
import { elapsedOf } from '../queue/clock';
import type { ReconcileResult } from '../queue/work-queue';
import { apiErrorMessage, isNotFound } from '../kube/api-errors';
import type { EventRecorder } from './event-recorder';
import type { DemandRecorder } from './demand-recorder';
import { execute, type Execution, type ExecutorDeps } from './executor';
import { readSetWorld, type SetWorld, type SnapshotDeps } from './snapshot';
import { boundedMessage } from './write-failure';
import { statusMergePatch } from './status-patch';

export interface ReconcilerDeps extends SnapshotDeps, ExecutorDeps {
  readonly logger: Logger;
  readonly events: EventRecorder;
  readonly metrics?: ControllerMetrics;
  /** The demand history, the lease-wait objectives' facts and their metrics (demand-recorder.ts). */
  readonly demand?: DemandRecorder;
}

const UP: ReadonlySet<Action['type']> = new Set(['CreateExporter', 'PromoteStandby']);
const DOWN: ReadonlySet<Action['type']> = new Set(['DeleteExporter', 'ReleaseExporter']);

/**
 * The plan with its deletes confirmed (SPEC §3.7): when `first` deletes Exporters, the live Lease list
 * is read (the cache may lag Jumpstarter, which can assign an instance until it has seen the disable)
 * and the pass planned again with it, so no instance a live lease names is deleted; a failed list
 * deletes nothing. The executor asks for it right before the deletes, so the list is fresh.
 */
export async function withLeaseCheck(
  first: Plan,
  snapshot: PlannerSnapshot,
  clients: Pick<KubeClients, 'leases'>,
): Promise<Plan> {
  if (!first.actions.some((a) => a.type === 'DeleteExporter')) return first;
  let leaseCheck: LeaseCheck;
  try {
    leaseCheck = { leases: (await clients.leases.list(snapshot.set.metadata?.namespace ?? '')).items };
  } catch (error) {
    leaseCheck = { error: apiErrorMessage(error) };
  }
  return plan({ ...snapshot, leaseCheck });
}

/** `plan` with none of its Exporter deletes confirmed. */
function withoutDeletes(plan: Plan): Plan {
  return { ...plan, actions: plan.actions.filter((a) => a.type !== 'DeleteExporter') };
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
    const read = await readSetWorld(key, deps);
    if (!read) {
      this.forget(key);
      return {};
    }
    const log = exporterSetLogger(deps.logger, ref);
    const set = read.snapshot.set;
    // Only the controller of the set's class records its demand: one writer per history object (a set
    // without its class, which every provisioner's controller passes over, is recorded by none).
    const ours = read.snapshot.virtualTargetClass?.spec?.provisioner === deps.provisioner.name;
    const world: SetWorld =
      deps.demand && ours
        ? { ...read, snapshot: { ...read.snapshot, ...(await deps.demand.observe(key, ref, read.snapshot)) } }
        : read;
    const first = plan(world.snapshot);
    if (first.ignored !== undefined && first.actions.length === 0 && first.status === undefined) {
      log.debug({ why: first.ignored }, 'set ignored');
      this.forget(key);
      return {};
    }
    let confirmed: Plan | undefined;
    let unrecorded: string | undefined;
    let execution = await execute(world, first, deps, async () => {
      unrecorded = await this.recordOrdinals(key, set, first);
      // §3.10: a name not on record is not deleted; the pass fails and is retried.
      confirmed =
        unrecorded === undefined
          ? await withLeaseCheck(first, world.snapshot, deps.clients)
          : withoutDeletes(first);
      return confirmed;
    });
    // §3.20: a paused set is left alone, leftovers included.
    const swept =
      world.lifecycle && set.spec?.paused !== true ? await this.sweepLeftovers(world, execution) : undefined;
    if (swept) execution = swept.execution;
    deps.podWaits.record(key, execution);
    // The plan made with the live Lease list, when the deletes asked for one, is the pass's plan.
    const result = confirmed ?? first;
    const status = finalizeStatus(result, { ...execution, now: deps.clock.now() });
    const replicaFailure = execution.replicaFailure ?? result.statusInputs?.deleteFailure;
    const gone =
      execution.applied.some((a) => a.type === 'RemoveFinalizer') && set.metadata?.deletionTimestamp;
    if (status !== undefined && !gone && !statusEquals(set.status, status)) {
      await this.writeStatus(key, set, status);
    }
    if (set.metadata?.deletionTimestamp === undefined) await deps.demand?.flush(key, set);
    await deps.events.record(set, [
      ...this.eventsOf(result, execution, set.status, status),
      ...(swept?.events ?? []),
      ...(world.lifecycle?.takeNotices() ?? []).map((n) => ({ type: 'Normal' as const, ...n })),
    ]);
    this.recordMetrics(ref, execution.applied, status, set);
    for (const action of execution.applied) {
      if (action.type === 'RecordRevision' || action.type === 'DeleteRevision') {
        const revision =
          action.type === 'RecordRevision' ? action.revision.metadata.name : action.revisionName;
        log.info({ revision, action: action.type }, 'applied');
      } else if (action.type !== 'AddFinalizer' && action.type !== 'RemoveFinalizer')
        log.info({ exporter: action.name, action: action.type }, 'applied');
    }
    if (replicaFailure) log.warn({ failure: replicaFailure }, 'replica failure');
    // A failed create or delete is retried like any failed write: with the key's backoff.
    const failed = [
      ...(execution.errors.length > 0 ? execution.errors : replicaFailure ? [replicaFailure.message] : []),
      ...(unrecorded !== undefined ? [unrecorded] : []),
    ];
    if (failed.length > 0) {
      throw new Error(`${failed.length} write(s) of ${key} failed: ${failed.join('; ')}`);
    }
    // A name found taken was skipped: the next pass creates under the next free name at once.
    const waits = [result.requeueAfterMs, ...(execution.taken.length > 0 ? [0] : [])];
    // An expectation that never shows up times out; look again then even if no event comes.
    if (deps.expectations.pending(key) > 0) waits.push(deps.expectations.timeoutMs);
    // The demand history's write and the objectives' window wait for the next hour.
    const demandDue = deps.demand?.dueIn(key, deps.clock.now());
    if (demandDue !== undefined) waits.push(demandDue);
    const due = waits.filter((w): w is number => w !== undefined);
    return due.length > 0 ? { requeueAfterMs: Math.min(...due) } : {};
  }

  /**
   * Tears down the set's leftovers (a realise the controller never recorded on an Exporter, or whose
   * Exporter went before its teardown): each an event; a failure the pass's ReplicaFailure
   * (FailedTeardown) like any failed write.
   */
  private async sweepLeftovers(
    world: SetWorld,
    execution: Execution,
  ): Promise<{ execution: Execution; events: PlanEvent[] }> {
    const set = world.snapshot.set;
    const namespace = set.metadata?.namespace ?? '';
    const existing = new Set(this.deps.caches.exporters.list(namespace).map((e) => e.metadata?.name ?? ''));
    const template = {
      apiVersion: JUMPSTARTER_API_VERSION,
      kind: 'Exporter' as const,
      metadata: { namespace, name: set.metadata?.name ?? '' },
    };
    try {
      const removed = await world.lifecycle!.sweepLeftovers(template, existing);
      return {
        execution,
        events: removed.map((name) => ({
          type: 'Normal' as const,
          reason: EventReasons.LeftoverTornDown,
          message: `instance ${name} was realised but no Exporter records it; it was torn down`,
        })),
      };
    } catch (error) {
      const message = boundedMessage(
        `the leftover sweep of ${`${set.metadata?.namespace}/${set.metadata?.name}`} failed: ${apiErrorMessage(error)}`,
      );
      return {
        execution: {
          ...execution,
          replicaFailure: execution.replicaFailure ?? { reason: R.FailedTeardown, message },
          errors: [...execution.errors, message],
        },
        events: [{ type: 'Warning', reason: R.FailedTeardown, message }],
      };
    }
  }

  /**
   * §3.10: puts `status.nextOrdinal` past the Exporters `plan` deletes before they go, when the status
   * does not cover them yet (names.ts `ordinalsToRecord`). Says why it could not, or undefined.
   */
  private async recordOrdinals(key: string, set: ExporterSet, plan: Plan): Promise<string | undefined> {
    const nextOrdinal = ordinalsToRecord(set, plan.actions);
    if (nextOrdinal === undefined) return undefined;
    const { namespace, name } = parseObjectKey(key);
    try {
      const written = await this.deps.clients.exporterSets.patchStatus(namespace, name, {
        type: 'merge',
        body: { status: { nextOrdinal } },
      });
      if (written.status) this.deps.statuses.remember(key, written.status, written.metadata?.resourceVersion);
      return undefined;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      return `status.nextOrdinal ${nextOrdinal} of ExporterSet ${key} was not recorded, so its Exporter deletes wait: ${apiErrorMessage(error)}`;
    }
  }

  private async writeStatus(key: string, set: ExporterSet, status: ExporterSetStatus): Promise<void> {
    const { namespace, name } = parseObjectKey(key);
    try {
      const written = await this.deps.clients.exporterSets.patchStatus(namespace, name, {
        type: 'merge',
        body: { status: statusMergePatch(set.status, status) as object },
      });
      this.deps.statuses.remember(key, written.status ?? status, written.metadata?.resourceVersion);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  /**
   * Events of what was applied, the startup failures seen, the status fields corrected, a requested
   * recycle completed, schedule windows opened or closed, and the conditions that changed.
   */
  private eventsOf(
    result: Plan,
    execution: Execution,
    before: ExporterSetStatus | undefined,
    after: ExporterSetStatus | undefined,
  ) {
    return [
      ...actionEvents(execution.applied),
      ...result.events.filter(
        (e) =>
          e.reason === EventReasons.StartupFailure ||
          e.reason === EventReasons.StatusCorrected ||
          e.reason === EventReasons.ProvisionerChanged ||
          e.reason === EventReasons.RecycleCompleted ||
          e.reason === EventReasons.ScheduleWindowOpened ||
          e.reason === EventReasons.ScheduleWindowClosed,
      ),
      ...execution.taken.map(({ name, owner }) => ({
        type: 'Warning' as const,
        reason: EventReasons.InstanceNameTaken,
        message: `the instance name ${name} is taken by an Exporter the set does not own (${owner}); the name is skipped and the next free one used (names are never reused)`,
      })),
      ...(after ? conditionEvents(before?.conditions, after.conditions ?? []) : []),
    ];
  }

  private recordMetrics(
    ref: SetRef,
    applied: readonly Action[],
    status: ExporterSetStatus | undefined,
    set: ExporterSet,
  ): void {
    const metrics = this.deps.metrics;
    if (!metrics) return;
    for (const action of applied) {
      if (!('reason' in action)) continue;
      if (UP.has(action.type)) metrics.recordScaleAction(ref, 'up', action.reason);
      else if (DOWN.has(action.type)) metrics.recordScaleAction(ref, 'down', action.reason);
    }
    if (status) {
      metrics.setPool(ref, {
        replicas: status.replicas,
        ready: status.readyReplicas,
        available: status.availableReplicas,
        leased: status.leasedReplicas,
        starting: status.startingReplicas ?? 0,
        standby: status.standbyReplicas ?? 0,
        pendingLeases: status.pendingLeases ?? 0,
      });
      metrics.setForecast(ref, status.forecast);
      const specBuffer = set.spec?.minAvailableReplicas;
      metrics.setEffectiveMinAvailable(
        ref,
        status.effectiveMinAvailableReplicas ??
          (typeof specBuffer === 'number' ? specBuffer : Defaults.minAvailableReplicas),
      );
    }
  }
}
