/**
 * The demand history a seed records for a forecasting set before the controller starts, in the
 * object the controller keeps it in (`<set>-demand`, controlled by the set, the controller's own
 * format: `demandObject`). A seed's minute of chaos records no hour a forecast reads (the same hour
 * days and weeks back), so without it no forecast would ever raise a buffer in the simulation.
 *
 * Every hour of the last 15 days (the most the record keeps) held `peak` leases at once, and
 * {@link SEEDED_ARRIVALS} arrived in it, each finding `peak − 1` others within one startup before it
 * (its crowding), so the forecast asks for a warm buffer of `peak` (the smallest that serves 95 % of
 * them warm). The same hours everywhere keep the forecast the same whichever hour a skewed clock reads
 * and whichever basis the forecast picks; the crowding is stored, so the lead time the set's measured
 * startups give changes nothing either, and the oracle, which reads the object, and the controller,
 * whose memory of startups runs ahead of it, agree. Arrivals the chaos adds to an hour already over are
 * written at once (demand-store.ts), so the object holds them too; they are few beside these. The
 * history ends two hours back, so a controller clock up to an hour behind still reads it (a history that
 * ends after now is refused).
 */
import type { ExporterSet } from 'virtual-exporters/internal';
import { demandObject, DEMAND_INTERVAL_MS, DEMAND_MAX_BUCKETS } from 'virtual-exporters-controller/internal';

/** Arrivals in each seeded hour (with a peak): enough that a few more from the chaos move no forecast. */
export const SEEDED_ARRIVALS = 20;

const arrivals = (peak: number): number => (peak > 0 ? SEEDED_ARRIVALS : 0);

/** The ConfigMap to create for `set` (as stored: with its uid), `peak` leases in every hour. */
export function seededDemand(set: ExporterSet, peak: number, now: number) {
  const lastHour = Math.floor(now / DEMAND_INTERVAL_MS) * DEMAND_INTERVAL_MS - 2 * DEMAND_INTERVAL_MS;
  const start = lastHour - (DEMAND_MAX_BUCKETS - 1) * DEMAND_INTERVAL_MS;
  return demandObject(set, {
    history: {
      intervalMs: DEMAND_INTERVAL_MS,
      start,
      buckets: Array.from({ length: DEMAND_MAX_BUCKETS }, () => ({
        arrivals: arrivals(peak),
        peak,
        crowding: peak > 0 ? [...Array<number>(peak - 1).fill(0), SEEDED_ARRIVALS] : [],
      })),
    },
    startups: [],
    served: [],
  });
}
