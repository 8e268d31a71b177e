/**
 * The demand recorder: at each pass of a set, folds what the pass sees (observe-demand.ts) into
 * the set's demand record (demand-record.ts), feeds the planner (`demandHistory`, `startupP95Ms`,
 * `servedLeases`), counts the new facts in the metrics (startup and lease-wait histograms, leases served
 * warm and cold), and keeps the record in the set's own ConfigMap (demand-config-map.ts) so a restarted
 * controller continues it.
 *
 * Reads: one GET of the object at a set's first pass (retried after {@link READ_RETRY_MS} when it
 * fails; the set is planned meanwhile without history, and its status keeps its objectives).
 * Writes (create, then merge patches), never a storm: only lease facts (arrivals, raised peaks, served
 * leases) make the record dirty, and a dirty record is written at the first pass in a new hour or
 * once {@link WRITE_AFTER_CHANGES} facts accumulated — at once when an arrival was counted into an hour
 * already over, since the forecast reads complete hours: the object then holds every fact the set's
 * `status.forecast` was computed from, so an operator (or a restarted controller) reading it gets the
 * same forecast. Startups alone never cause a write (they are
 * written with the next lease facts), so a pool without leases writes nothing, ever (benchmark P3).
 * A failed write is retried after {@link WRITE_RETRY_MS}; a fact lost to a crash before its write is
 * seen again from the leases still there. While facts await their write or served leases are in the
 * objectives' window, the set's pass is requeued for the next hour (`dueIn`), so the write and the
 * hourly window move happen even when no event comes.
 *
 * An object of that name the set does not control (by uid) is never read or written: the history is
 * kept in memory only, with a warning, and the object looked at again each hour.
 */
import type { CoreV1Api, V1ConfigMap } from '@kubernetes/client-node';
import type { ExporterSet } from 'virtual-exporters/internal';
import { apiErrorMessage, isAlreadyExists, isNotFound } from '../../kube/api-errors';
import { mergePatch, patchOptions } from '../../kube/patch';
import type { Logger } from '../../process/logger';
import type { ControllerMetrics, SetRef } from '../../process/metrics';
import {
  DEMAND_INTERVAL_MS,
  bucketStart,
  emptyRecord,
  recordPass,
  startupP95Ms,
  waitMs,
  type DemandRecord,
  type PlannerSnapshot,
} from '../../planner';
import type { Clock } from '../../queue/clock';
import { demandObject, demandObjectName, isSetsObject, parseDemand } from './demand-config-map';
import { observeDemand } from './observe-demand';

/** Lease facts after which a dirty record is written within the hour. */
export const WRITE_AFTER_CHANGES = 25;
export const READ_RETRY_MS = 30_000;
export const WRITE_RETRY_MS = 60_000;
/** A pass woken for the next hour comes this long after it starts, so the hour has surely turned. */
const HOUR_MARGIN_MS = 1_000;

export interface DemandRecorderDeps {
  readonly core: Pick<
    CoreV1Api,
    'readNamespacedConfigMap' | 'createNamespacedConfigMap' | 'patchNamespacedConfigMap'
  >;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics?: ControllerMetrics;
}

/** What the API holds under the object's name, as last seen. */
type ObjectState = 'absent' | 'ours' | 'foreign';

interface SetDemand {
  /** The set's uid: a set recreated under the same name starts over. */
  readonly uid: string;
  record?: DemandRecord;
  object: ObjectState;
  /** Lease facts not written yet. */
  dirty: number;
  /** Some of them are in hours already over (the forecast reads them): written at the next flush. */
  pastHour: boolean;
  /** The hour of the last write (or read). */
  writtenHour: number;
  /** No read or write before this (controller clock). */
  notBefore: number;
}

/** The recorder's contribution to a pass's snapshot. */
export type RecordedDemand = Pick<PlannerSnapshot, 'demandHistory' | 'startupP95Ms' | 'servedLeases'>;

export class DemandRecorder {
  private readonly sets = new Map<string, SetDemand>();

  constructor(private readonly deps: DemandRecorderDeps) {}

  /** Records the pass's observation of the set; what the planner gets of the record. */
  async observe(key: string, ref: SetRef, snapshot: PlannerSnapshot): Promise<RecordedDemand> {
    const { set, now } = snapshot;
    const uid = set.metadata?.uid;
    if (!uid) return {};
    let state = this.sets.get(key);
    if (state?.uid !== uid) {
      state = { uid, object: 'absent', dirty: 0, pastHour: false, writtenHour: hourOf(now), notBefore: 0 };
      this.sets.set(key, state);
    }
    if (state.record === undefined) {
      if (now < state.notBefore) return {};
      await this.read(state, set, now);
      if (state.record === undefined) return {};
    }
    const observation = observeDemand(snapshot);
    const waited = new Set(observation.served.filter((s) => s.waited).map((s) => s.uid));
    const passed = recordPass(state.record, observation);
    state.record = passed.record;
    state.dirty += passed.changes - passed.newStartups.length;
    if (passed.pastHourArrivals > 0) state.pastHour = true;
    const metrics = this.deps.metrics;
    if (metrics) {
      for (const s of passed.newStartups) metrics.observeInstanceStartup(ref, s.ms / 1000);
      for (const lease of passed.newServed) {
        metrics.observeServedLease(ref, {
          lease: lease.name,
          warm: lease.warm,
          ...(waited.has(lease.uid) ? { waitSeconds: waitMs(lease) / 1000 } : {}),
        });
      }
    }
    const p95 = startupP95Ms(passed.record);
    return {
      demandHistory: passed.record.history,
      ...(p95 !== undefined ? { startupP95Ms: p95 } : {}),
      servedLeases: passed.record.served,
    };
  }

  /** Writes the set's record when it is due (see the module doc). Never throws. */
  async flush(key: string, set: ExporterSet): Promise<void> {
    const state = this.sets.get(key);
    const now = this.deps.clock.now();
    if (state?.record === undefined || state.uid !== set.metadata?.uid || state.dirty === 0) return;
    if (now < state.notBefore) return;
    if (!state.pastHour && hourOf(now) === state.writtenHour && state.dirty < WRITE_AFTER_CHANGES) return;
    const namespace = set.metadata?.namespace ?? '';
    const name = demandObjectName(set.metadata?.name ?? '');
    const log = this.deps.logger.child({ namespace, configMap: name });
    if (state.object === 'foreign') {
      // Looked at again once an hour: the object may have gone (a set recreated under its name).
      const found = await this.get(namespace, name).catch(() => 'error' as const);
      if (found === 'error' || (found !== undefined && !isSetsObject(found, set))) {
        state.notBefore = hourOf(now) + DEMAND_INTERVAL_MS;
        return;
      }
      state.object = found === undefined ? 'absent' : 'ours';
    }
    const body = demandObject(set, state.record);
    try {
      if (state.object === 'absent') {
        await this.deps.core.createNamespacedConfigMap({ namespace, body });
      } else {
        const patch = mergePatch({
          metadata: { labels: body.metadata.labels, ownerReferences: body.metadata.ownerReferences },
          data: body.data,
        });
        await this.deps.core.patchNamespacedConfigMap(
          { namespace, name, body: patch.type === 'merge' ? patch.body : {} },
          patchOptions(patch),
        );
      }
      state.object = 'ours';
      state.dirty = 0;
      state.pastHour = false;
      state.writtenHour = hourOf(now);
    } catch (error) {
      if (isAlreadyExists(error)) {
        // Someone else's, perhaps: looked at before any write.
        state.object = 'foreign';
      } else if (isNotFound(error) && state.object === 'ours') {
        state.object = 'absent';
      } else {
        state.notBefore = now + WRITE_RETRY_MS;
        log.warn({ err: apiErrorMessage(error) }, 'the demand history could not be written; it is retried');
      }
    }
  }

  /**
   * How long until the set's record changes with the clock alone, ms: at the next hour while facts
   * await their write or served leases are in the window (`status.leaseWait` moves with the hour);
   * undefined when nothing would change (a pool without leases is never woken).
   */
  dueIn(key: string, now: number): number | undefined {
    const state = this.sets.get(key);
    if (state?.record === undefined || (state.dirty === 0 && state.record.served.length === 0))
      return undefined;
    const nextHour = hourOf(now) + DEMAND_INTERVAL_MS - now + HOUR_MARGIN_MS;
    // Past-hour facts whose write failed: retried when allowed, not an hour later.
    if (state.dirty > 0 && state.pastHour && state.notBefore > now)
      return Math.min(nextHour, state.notBefore - now);
    return nextHour;
  }

  forget(key: string): void {
    this.sets.delete(key);
  }

  private async read(state: SetDemand, set: ExporterSet, now: number): Promise<void> {
    const namespace = set.metadata?.namespace ?? '';
    const name = demandObjectName(set.metadata?.name ?? '');
    const log = this.deps.logger.child({ namespace, configMap: name });
    let found: V1ConfigMap | undefined;
    try {
      found = await this.get(namespace, name);
    } catch (error) {
      state.notBefore = now + READ_RETRY_MS;
      log.warn(
        { err: apiErrorMessage(error) },
        'the demand history could not be read; the set is planned without it',
      );
      return;
    }
    state.writtenHour = hourOf(now);
    if (found === undefined) {
      state.object = 'absent';
      state.record = emptyRecord(now);
      return;
    }
    if (!isSetsObject(found, set)) {
      state.object = 'foreign';
      state.record = emptyRecord(now);
      log.warn(
        `ConfigMap ${namespace}/${name} is not controlled by ExporterSet ${set.metadata?.name} (uid ${set.metadata?.uid}): it is left alone and the demand history kept in memory only; delete or rename it to let the controller keep the history there`,
      );
      return;
    }
    state.object = 'ours';
    const { record, findings } = parseDemand(found.data, now);
    state.record = record;
    for (const finding of findings.slice(0, 10)) {
      log.warn(
        { field: finding.field },
        `ConfigMap ${namespace}/${name}: ${finding.field} ${finding.problem}; it is not used, and the object is rewritten at its next write`,
      );
    }
    // A malformed object is replaced at the next write.
    if (findings.length > 0) state.dirty = Math.max(state.dirty, 1);
  }

  private get(namespace: string, name: string): Promise<V1ConfigMap | undefined> {
    return this.deps.core.readNamespacedConfigMap({ namespace, name }).then(
      (found) => found,
      (error: unknown) => {
        if (isNotFound(error)) return undefined;
        throw error;
      },
    );
  }
}

function hourOf(now: number): number {
  return bucketStart(now, DEMAND_INTERVAL_MS);
}
