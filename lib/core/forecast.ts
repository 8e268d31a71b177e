/**
 * The forecast fields of an ExporterSet (`spec.forecast`): their allowed values and the
 * rules the CRD applies to them (same messages).
 */
import type { ForecastMode } from '../api';
import { INT32_MAX, IssueCollector } from './issue-collector';

export const FORECAST_MODES: readonly ForecastMode[] = ['Off', 'ForecastOnly', 'Apply'];

/** Issues of spec.forecast: the CRD's schema messages. */
export function checkForecast(issues: IssueCollector, value: unknown): void {
  const forecast = issues.object(value, 'spec.forecast');
  if (!forecast) return;
  issues.oneOf(forecast.mode, 'spec.forecast.mode', FORECAST_MODES);
  issues.integer(forecast.maxExtra, 'spec.forecast.maxExtra', { min: 0, max: INT32_MAX });
}
