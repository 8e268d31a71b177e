/**
 * What a pass tells the outside once its status is written: the events (actions applied, startup
 * failures, corrected status fields, a requested recycle completed, schedule windows, names found taken,
 * changed conditions), the pool's metrics and a log line per applied action.
 */
import { Defaults, EventReasons, type ExporterSet, type ExporterSetStatus } from 'virtual-exporters/internal';
import type { Logger } from '../process/logger';
import type { ControllerMetrics, SetRef } from '../process/metrics';
import { actionEvents, conditionEvents, type Action, type Plan, type PlanEvent } from '../planner';
import type { Execution } from './execution';

/**
 * The plan's events sent as they are; scale and condition events come from what was applied and from
 * the status.
 */
const SENT_PLAN_EVENTS: ReadonlySet<string> = new Set([
  EventReasons.StartupFailure,
  EventReasons.StatusCorrected,
  EventReasons.ProvisionerChanged,
  EventReasons.RecycleCompleted,
  EventReasons.ScheduleWindowOpened,
  EventReasons.ScheduleWindowClosed,
]);

const UP: ReadonlySet<Action['type']> = new Set(['CreateExporter', 'PromoteStandby']);
const DOWN: ReadonlySet<Action['type']> = new Set(['DeleteExporter', 'ReleaseExporter']);

/**
 * Events of what was applied, the startup failures seen, the status fields corrected, a requested
 * recycle completed, schedule windows opened or closed, the names found taken, and the conditions
 * that changed from `before` to `after`.
 */
export function passEvents(
  result: Plan,
  execution: Execution,
  before: ExporterSetStatus | undefined,
  after: ExporterSetStatus | undefined,
): PlanEvent[] {
  return [
    ...actionEvents(execution.applied),
    ...result.events.filter((e) => SENT_PLAN_EVENTS.has(e.reason)),
    ...execution.taken.map(({ name, owner }) => ({
      type: 'Warning' as const,
      reason: EventReasons.InstanceNameTaken,
      message: `the instance name ${name} is taken by an Exporter the set does not own (${owner}); the name is skipped and the next free one used (names are never reused)`,
    })),
    ...(after ? conditionEvents(before?.conditions, after.conditions ?? []) : []),
  ];
}

/** The scale actions applied, and the pool's gauges from the status the pass computed. */
export function recordPassMetrics(
  metrics: ControllerMetrics,
  ref: SetRef,
  applied: readonly Action[],
  status: ExporterSetStatus | undefined,
  set: ExporterSet,
): void {
  for (const action of applied) {
    if (!('reason' in action)) continue;
    if (UP.has(action.type)) metrics.recordScaleAction(ref, 'up', action.reason);
    else if (DOWN.has(action.type)) metrics.recordScaleAction(ref, 'down', action.reason);
  }
  if (!status) return;
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

/** A line per applied action: the revision recorded or pruned, or the instance written. */
export function logApplied(log: Logger, applied: readonly Action[]): void {
  for (const action of applied) {
    if (action.type === 'RecordRevision' || action.type === 'DeleteRevision') {
      const revision = action.type === 'RecordRevision' ? action.revision.metadata.name : action.revisionName;
      log.info({ revision, action: action.type }, 'applied');
    } else if (action.type !== 'AddFinalizer' && action.type !== 'RemoveFinalizer') {
      log.info({ exporter: action.name, action: action.type }, 'applied');
    }
  }
}
