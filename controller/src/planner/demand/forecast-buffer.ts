/**
 * The forecast's warm buffer (`spec.forecast`): what the forecast (forecast.ts) asks of the
 * pool, and whether it asks. `Off` (the default) computes nothing; `ForecastOnly` reports the buffer in
 * status and metrics and changes nothing; `Apply` raises the warm buffer to it (a `BufferRaise`,
 * warm-buffer-raise.ts), so it only ever adds instances: a falling forecast lowers the raise, and the
 * surplus then leaves under the spec's own rules (cooldown, §3.7), never on the forecast alone.
 *
 * The buffer is the forecast's over the horizon `[now, now + lead]`: the most idle instances any hour
 * of it needs for the share of its leases expected to arrive to find one Online (forecast.ts, learnt
 * from how crowded the same hours' arrivals came). It is capped by `maxReplicas` (when not 0) and by
 * `minAvailableReplicas + maxExtra` when `maxExtra` is set. (The rule before it — the hour's expected
 * peak minus the leases held, or the arrivals of one lead time at a Poisson 95th percentile — spent
 * 1.24 times the instance-hours of a hand-tuned schedule on the CI trace of bench/README.md, P7.)
 */
import type {
  ExporterSet,
  ExporterSetStatus,
  ForecastMode,
  ForecastStatus,
} from 'virtual-exporters/internal';
import type { DemandHistory } from '../model/demand-history';
import { toTimestamp } from '../model/time';
import type { SpecValues } from '../spec/spec-values';
import { DEFAULT_FORECAST_LEAD_MS, forecastHorizon, nextHorizonChange } from './forecast';
import type { BufferRaise } from './warm-buffer-raise';

/** `spec.forecast` as the planner reads it (wire values checked, defaults filled in). */
export interface ForecastSettings {
  readonly mode: ForecastMode;
  readonly maxExtra?: number;
}

const MODES: ReadonlySet<string> = new Set(['Off', 'ForecastOnly', 'Apply']);

/** `spec.forecast` of the set; a mode the CRD would refuse reads as Off. */
export function forecastSettingsOf(set: ExporterSet): ForecastSettings {
  const forecast: unknown = set.spec?.forecast;
  if (typeof forecast !== 'object' || forecast === null) return { mode: 'Off' };
  const { mode, maxExtra } = forecast as { mode?: unknown; maxExtra?: unknown };
  const read: ForecastMode = typeof mode === 'string' && MODES.has(mode) ? (mode as ForecastMode) : 'Off';
  const extra =
    typeof maxExtra === 'number' && Number.isFinite(maxExtra) && maxExtra >= 0
      ? Math.floor(maxExtra)
      : undefined;
  return { mode: read, ...(extra !== undefined ? { maxExtra: extra } : {}) };
}

/** What the forecast found this pass (mode not Off). */
export interface ForecastDecision {
  readonly mode: Exclude<ForecastMode, 'Off'>;
  /** The most leases expected at once over the horizon; absent without a forecast. */
  readonly expectedPeak?: number;
  /** The minAvailableReplicas the forecast would set (capped); absent without a forecast. */
  readonly warmBuffer?: number;
  /** Apply mode, and the buffer is above the spec's: the raise to pass to `effectiveBuffer`. */
  readonly raise?: BufferRaise;
  /** Why there is no forecast, when there is none. */
  readonly missing?: string;
  /** When the horizon's intervals change next (a timer of the pass). */
  readonly nextChange?: number;
}

export interface ForecastInputs {
  readonly settings: ForecastSettings;
  /** The spec's own values (before any raise). */
  readonly spec: Pick<SpecValues, 'minAvailable' | 'maxReplicas'>;
  readonly history: DemandHistory | undefined;
  readonly now: number;
  /** The set's measured p95 startup (ms), if known. */
  readonly startupP95Ms?: number;
}

/** The lead time: the measured p95 startup, else {@link DEFAULT_FORECAST_LEAD_MS}. */
export function forecastLead(startupP95Ms: number | undefined): number {
  return startupP95Ms !== undefined && Number.isFinite(startupP95Ms) && startupP95Ms > 0
    ? startupP95Ms
    : DEFAULT_FORECAST_LEAD_MS;
}

/** The forecast's buffer capped by the ceiling and maxExtra. */
export function forecastWarmBuffer(
  buffer: number,
  spec: Pick<SpecValues, 'minAvailable' | 'maxReplicas'>,
  maxExtra: number | undefined,
): number {
  let capped = Math.max(0, Math.floor(buffer));
  if (spec.maxReplicas > 0) capped = Math.min(capped, spec.maxReplicas);
  if (maxExtra !== undefined) capped = Math.min(capped, spec.minAvailable + maxExtra);
  return capped;
}

/** The forecast of this pass; undefined when the mode is Off (nothing computed, nothing reported). */
export function decideForecast(inputs: ForecastInputs): ForecastDecision | undefined {
  const { settings, spec, history, now } = inputs;
  if (settings.mode === 'Off') return undefined;
  const mode = settings.mode;
  if (history === undefined) return { mode, missing: 'no demand history is recorded yet' };
  const lead = forecastLead(inputs.startupP95Ms);
  const horizon = forecastHorizon(history, now, lead);
  const nextChange = nextHorizonChange(history, now, lead);
  if (horizon === undefined) {
    return { mode, missing: 'the demand history has no recorded hour to forecast from', nextChange };
  }
  const warmBuffer = forecastWarmBuffer(horizon.warmBuffer, spec, settings.maxExtra);
  const raise: BufferRaise | undefined =
    mode === 'Apply' && warmBuffer > spec.minAvailable
      ? { source: 'forecast', name: 'forecast', minAvailable: warmBuffer }
      : undefined;
  return {
    mode,
    expectedPeak: horizon.expectedPeak,
    warmBuffer,
    ...(raise ? { raise } : {}),
    nextChange,
  };
}

/**
 * `status.forecast` of a pass: the decision's integers, and `at` kept from the previous status while
 * every value is the same (a settled forecast writes nothing, §3.15); undefined when the mode is Off.
 */
export function forecastStatus(
  decision: ForecastDecision | undefined,
  previous: ExporterSetStatus | undefined,
  now: number,
): ForecastStatus | undefined {
  if (decision === undefined) return undefined;
  const values = {
    mode: decision.mode,
    ...(decision.expectedPeak !== undefined ? { expectedPeak: decision.expectedPeak } : {}),
    ...(decision.warmBuffer !== undefined ? { warmBuffer: decision.warmBuffer } : {}),
    applied: decision.raise !== undefined,
    ...(decision.missing !== undefined ? { message: decision.missing } : {}),
  };
  const before = previous?.forecast;
  const same =
    before !== undefined &&
    typeof before.at === 'string' &&
    before.mode === values.mode &&
    before.expectedPeak === values.expectedPeak &&
    before.warmBuffer === values.warmBuffer &&
    before.applied === values.applied &&
    before.message === values.message;
  return { ...values, at: same ? before.at : toTimestamp(now) };
}
