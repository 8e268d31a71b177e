/**
 * Node process metrics (CPU, memory, event loop), exported beside the controller's own when its
 * metrics are made with `processMetrics` (metrics.ts), under the same prefix.
 */
import { collectDefaultMetrics, Registry } from 'prom-client';
import { METRIC_PREFIX } from './metric-names';

/** prom-client's event-loop delay sampling interval (its default, 10 ms, costs idle CPU). */
export const EVENT_LOOP_MONITORING_PRECISION_MS = 1000;

/**
 * Node process metrics belong to the process, not to a controller: they are collected once, into
 * this registry, however many controllers a process starts (tests and the simulation start hundreds;
 * each collection keeps an event-loop monitor and a GC observer alive for the life of the process).
 */
let processRegistry: Registry | undefined;

export function processMetricsRegistry(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    // The event-loop delay histogram samples every 10 ms by default, which is most of an idle
    // controller's CPU; a 1 s resolution still shows the stalls that matter to a reconcile.
    collectDefaultMetrics({
      register: processRegistry,
      prefix: METRIC_PREFIX,
      eventLoopMonitoringPrecision: EVENT_LOOP_MONITORING_PRECISION_MS,
    });
    for (const name of PROCESS_GAUGES_NAMED_AS_COUNTERS) processRegistry.removeSingleMetric(name);
  }
  return processRegistry;
}

/**
 * prom-client's process gauges that it names `*_total`, a suffix Prometheus keeps for counters
 * (`promtool check metrics`: "non-counter metrics should not have "_total" suffix"). They are not
 * exported: each is the sum of the gauge of the same name without `_total`, which counts by `type`
 * (`sum(jumpstarter_exporterset_nodejs_active_handles)`).
 */
export const PROCESS_GAUGES_NAMED_AS_COUNTERS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
].map((name) => METRIC_PREFIX + name);
