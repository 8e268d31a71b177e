/**
 * The warm buffer a set asks for at a moment, raised as the controller raises it: by the windows of
 * `spec.schedules` open then or within their lead time, and by the forecast in mode Apply, computed
 * from the demand history kept in the set's ConfigMap — the maximum of all, capped by `maxReplicas`
 * (SPEC: warm-buffer raises). The oracles expect this value, not `minAvailableReplicas` alone.
 *
 * The arithmetic is the planner's own, through the controller's entry (`evaluateSchedules`,
 * `decideForecast`, `effectiveBuffer`): what a window or a forecast asks is the design, written once;
 * what this file adds is reading the inputs from the objects alone, as an operator would (the spec,
 * the history object, the leases the set's instances hold). The demand object is read as the
 * controller reads it (`parseDemand`), so a history the controller would refuse is refused here too.
 */
import { Defaults, type ExporterSet } from 'virtual-exporters/internal';
import {
  decideForecast,
  effectiveBuffer,
  evaluateSchedules,
  forecastSettingsOf,
  parseDemand,
  startupP95Ms,
  type ForecastDecision,
} from 'virtual-exporters-controller/internal';
import type { KubeObject } from 'virtual-exporters-test-cluster';

export interface RaiseInputs {
  /** The controller's clock: windows and the forecast's hours are read on it. */
  readonly now: number;
  /** The set's demand ConfigMap (`<set>-demand`), when there is one. */
  readonly demand?: KubeObject;
  /**
   * When the controller read that object, on its clock (default `now`): a history that ends after it
   * is refused, as the controller refuses it.
   */
  readonly readAt?: number;
}

export interface RaisedBuffer {
  /** The spec's own values. */
  readonly spec: {
    readonly minAvailable: number;
    readonly minReplicas: number;
    readonly maxReplicas: number;
  };
  /** The values in effect: the spec's, raised. */
  readonly minAvailable: number;
  readonly minReplicas: number;
  /** Whether an open window (or one within its lead time) raises the buffer above the spec's. */
  readonly bySchedule: boolean;
  /** Whether the forecast raises it (mode Apply). */
  readonly byForecast: boolean;
  /** The forecast's decision, when the mode is not Off. */
  readonly forecast?: ForecastDecision;
}

/** A count of the spec, its default when absent (admission keeps what is there a count). */
const count = (value: unknown, absent: number): number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : absent;

/** Whether the ConfigMap is the set's own (controlled by it, by uid): only then does the controller read it. */
function isSetsObject(object: KubeObject | undefined, set: ExporterSet): boolean {
  const uid = set.metadata?.uid;
  return (
    uid !== undefined &&
    (object?.metadata.ownerReferences ?? []).some((r) => r.uid === uid && r.controller === true)
  );
}

type Schedules = ReturnType<typeof evaluateSchedules>;

/**
 * Evaluations of `spec.schedules` by their inputs, each good from when it was made until the next
 * change it names: reading a cron costs about a millisecond, and the oracles read every set's windows
 * at every check and every boot.
 */
const evaluations = new Map<string, { readonly from: number; readonly result: Schedules }>();
const MAX_EVALUATIONS = 256;

function schedulesAt(schedules: unknown, now: number, p95: number | undefined): Schedules {
  if (!Array.isArray(schedules) || schedules.length === 0) return evaluateSchedules(schedules, now, p95);
  const key = `${p95}|${JSON.stringify(schedules)}`;
  const kept = evaluations.get(key);
  const until = kept?.result.nextChangeAt;
  if (kept && now >= kept.from && until !== undefined && now < until) return kept.result;
  const result = evaluateSchedules(schedules, now, p95);
  if (evaluations.size >= MAX_EVALUATIONS) evaluations.clear();
  evaluations.set(key, { from: now, result });
  return result;
}

export function raisedBuffer(set: ExporterSet, inputs: RaiseInputs): RaisedBuffer {
  const spec = {
    minAvailable: count(set.spec?.minAvailableReplicas, Defaults.minAvailableReplicas),
    minReplicas: count(set.spec?.minReplicas, Defaults.minReplicas),
    maxReplicas: count(set.spec?.maxReplicas, Defaults.maxReplicas),
  };
  const { now } = inputs;
  const record = isSetsObject(inputs.demand, set)
    ? parseDemand(inputs.demand?.data, inputs.readAt ?? now).record
    : undefined;
  const p95 = record ? startupP95Ms(record) : undefined;
  const schedules = schedulesAt(set.spec?.schedules, now, p95);
  const forecast = decideForecast({
    settings: forecastSettingsOf(set),
    spec,
    history: record?.history,
    now,
    ...(p95 !== undefined ? { startupP95Ms: p95 } : {}),
  });
  const scheduled = effectiveBuffer(spec, schedules.raises);
  const all = effectiveBuffer(spec, [...schedules.raises, ...(forecast?.raise ? [forecast.raise] : [])]);
  return {
    spec,
    minAvailable: all.minAvailable,
    minReplicas: all.minReplicas,
    bySchedule: scheduled.raisedBy.length > 0,
    byForecast: all.raisedBy.some((r) => r.source === 'forecast'),
    ...(forecast !== undefined ? { forecast } : {}),
  };
}
