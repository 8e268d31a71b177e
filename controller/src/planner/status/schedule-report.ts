/**
 * What the status and events say about spec.schedules: `status.schedules` (the windows open
 * now and the next one), `status.effectiveMinAvailableReplicas` while a raise is in effect, and one
 * event per window that opened or closed. Transitions are read against the status the controller last
 * wrote, so a restarted controller does not announce a window twice, and one that was down while a
 * window came and went reports what it finds.
 */
import { EventReasons, type ScheduleWindowStatus, type SchedulesStatus } from 'virtual-exporters/internal';
import type { ScheduleWindow } from '../demand/schedules';
import type { PlanEvent } from '../model/events';
import { toTimestamp } from '../model/time';
import { listOf } from '../model/wire-guards';
import type { World } from '../observe/world';

/** The status fields of the schedules; empty when the spec has none and nothing raises. */
export interface ScheduleReport {
  readonly schedules?: SchedulesStatus;
  readonly effectiveMinAvailableReplicas?: number;
}

const windowStatus = (w: ScheduleWindow): ScheduleWindowStatus => ({
  name: w.name,
  opensAt: toTimestamp(w.opensAt),
  closesAt: toTimestamp(w.closesAt),
});

export function scheduleReport(world: World): ScheduleReport {
  const { schedules, buffer } = world;
  const listed = Array.isArray(world.set.spec?.schedules) && world.set.spec.schedules.length > 0;
  const { next } = schedules;
  return {
    ...(listed
      ? {
          schedules: {
            ...(schedules.active.length > 0 ? { active: schedules.active.map(windowStatus) } : {}),
            ...(next ? { next: { ...windowStatus(next), warmFrom: toTimestamp(next.warmFrom) } } : {}),
          },
        }
      : {}),
    ...(buffer.raisedBy.length > 0 ? { effectiveMinAvailableReplicas: buffer.minAvailable } : {}),
  };
}

/** The open windows of a status, by name and opening time (a status read back may hold anything). */
function windowKeys(schedules: SchedulesStatus | undefined): Map<string, ScheduleWindowStatus> {
  const keys = new Map<string, ScheduleWindowStatus>();
  for (const w of listOf<ScheduleWindowStatus>(schedules?.active)) {
    if (typeof w?.name === 'string' && typeof w.opensAt === 'string') keys.set(`${w.name}@${w.opensAt}`, w);
  }
  return keys;
}

/** One event per window opened or closed since the status was last written (`written`: this pass's). */
export function scheduleEvents(world: World, written: SchedulesStatus | undefined): PlanEvent[] {
  const before = windowKeys(world.set.status?.schedules);
  const after = windowKeys(written);
  const { spec, baseSpec } = world;
  const events: PlanEvent[] = [];
  for (const [key, w] of after) {
    if (before.has(key)) continue;
    const raise = world.schedules.raises.find((r) => r.name === w.name);
    const asked = raise
      ? ` it asks for a warm buffer of ${raise.minAvailable}${raise.minReplicas !== undefined ? ` and a floor of ${raise.minReplicas}` : ''};`
      : '';
    events.push({
      type: 'Normal',
      reason: EventReasons.ScheduleWindowOpened,
      message: `window of schedule ${w.name} opened at ${w.opensAt} and closes at ${w.closesAt}:${asked} the pool keeps minAvailableReplicas ${spec.minAvailable} and minReplicas ${spec.minReplicas} (spec: ${baseSpec.minAvailable} and ${baseSpec.minReplicas}, at most maxReplicas)`,
    });
  }
  for (const [key, w] of before) {
    if (after.has(key)) continue;
    events.push({
      type: 'Normal',
      reason: EventReasons.ScheduleWindowClosed,
      message: `window of schedule ${w.name} that opened at ${w.opensAt} closed: the pool keeps minAvailableReplicas ${spec.minAvailable} and minReplicas ${spec.minReplicas}; instances beyond that leave as surplus after scaleDownCooldown`,
    });
  }
  return events;
}
