/**
 * The demand history a seed records for a forecasting set before the controller starts, in the
 * object the controller keeps it in (`<set>-demand`, controlled by the set, the controller's own
 * format: `demandObject`). A seed's minute of chaos records no hour a forecast reads (the same hour
 * days and weeks back), so without it no forecast would ever raise a buffer in the simulation.
 *
 * Every hour of the last 15 days (the most the record keeps) held `peak` leases at once, and none
 * arrived. The same peak in every hour keeps the forecast the same whichever hour a skewed clock
 * reads; no arrivals keep it the same whatever lead time the set's measured startups give (the
 * turnover share is 0), so the oracle, which reads the object, and the controller, whose memory of
 * startups runs ahead of it, agree. The history ends two hours back, so a controller clock up to an
 * hour behind still reads it (a history that ends after now is refused).
 */
import type { ExporterSet } from 'virtual-exporters/internal';
import { demandObject, DEMAND_INTERVAL_MS, DEMAND_MAX_BUCKETS } from 'virtual-exporters-controller/internal';

/** The ConfigMap to create for `set` (as stored: with its uid), `peak` leases in every hour. */
export function seededDemand(set: ExporterSet, peak: number, now: number) {
  const lastHour = Math.floor(now / DEMAND_INTERVAL_MS) * DEMAND_INTERVAL_MS - 2 * DEMAND_INTERVAL_MS;
  const start = lastHour - (DEMAND_MAX_BUCKETS - 1) * DEMAND_INTERVAL_MS;
  return demandObject(set, {
    history: {
      intervalMs: DEMAND_INTERVAL_MS,
      start,
      buckets: Array.from({ length: DEMAND_MAX_BUCKETS }, () => ({ arrivals: 0, peak })),
    },
    startups: [],
    served: [],
  });
}
