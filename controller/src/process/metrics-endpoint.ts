/**
 * The `/metrics` endpoint on `--metrics-bind-address`: the Prometheus text format, or OpenMetrics when
 * the scraper's `Accept` asks for `application/openmetrics-text` — only OpenMetrics carries exemplars:
 * each lease-wait bucket names the last lease observed in it (`{lease="<name>"}`), so a slow wait
 * leads to its Lease.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Registry, type Metric, type OpenMetricsContentType } from 'prom-client';
import { listen, parseBindAddress, reply, type HttpEndpoint } from './http-server';

/** A registry that renders OpenMetrics (the only one prom-client lets hold exemplars). */
export function openMetricsRegistry(): Registry<OpenMetricsContentType> {
  const registry = new Registry<OpenMetricsContentType>();
  registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  return registry;
}

/** Renders (one at a time, process-wide: see `renderOpenMetrics`). */
let rendering: Promise<unknown> = Promise.resolve();

/**
 * The registry's metrics in OpenMetrics, with exemplars. prom-client renders OpenMetrics from a
 * registry of that content type only, and while doing so renames every counter it renders (it drops
 * `_total` from the metric object, which other registries share): the metrics are rendered from a
 * registry of that type holding the same metric objects, and the names put back after. Renders are
 * serialised so a Prometheus-text render never sees a renamed counter.
 */
export function renderOpenMetrics(registry: Registry): Promise<string> {
  const run = async (): Promise<string> => {
    const metrics = registry.getMetricsAsArray() as unknown as { name: string }[];
    const names = metrics.map((m) => m.name);
    const open = openMetricsRegistry();
    for (const metric of registry.getMetricsAsArray()) open.registerMetric(metric as unknown as Metric);
    try {
      return await open.metrics();
    } finally {
      metrics.forEach((m, i) => (m.name = names[i]!));
    }
  };
  const result = rendering.then(run, run);
  rendering = result.catch(() => undefined);
  return result;
}

/** The Prometheus text of the registry, after any OpenMetrics render in progress. */
export function renderText(registry: Registry): Promise<string> {
  const run = () => registry.metrics();
  const result = rendering.then(run, run);
  rendering = result.catch(() => undefined);
  return result;
}

/** Whether an `Accept` header asks for OpenMetrics (with a non-zero quality). */
export function wantsOpenMetrics(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((part) => {
    const [type, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    if (type !== 'application/openmetrics-text') return false;
    const q = params.find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

export interface MetricsServerOptions {
  /** `--metrics-bind-address`, e.g. `:8080`; `0` disables the server. */
  readonly bindAddress: string;
  readonly registry: Registry;
}

/** Serves `/metrics`; resolves to undefined when the address is `0`. */
export async function startMetricsServer(options: MetricsServerOptions): Promise<HttpEndpoint | undefined> {
  const address = parseBindAddress(options.bindAddress);
  if (!address) return undefined;
  const { registry } = options;
  return listen(address, (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://metrics').pathname;
    if (path !== '/metrics') return reply(res, 404, 'not found\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(res, 405, 'method not allowed\n');
    const openMetrics = wantsOpenMetrics(req.headers.accept);
    (openMetrics ? renderOpenMetrics(registry) : renderText(registry)).then(
      (text) => reply(res, 200, text, openMetrics ? Registry.OPENMETRICS_CONTENT_TYPE : registry.contentType),
      (error: unknown) => reply(res, 500, `metrics collection failed: ${String(error)}\n`),
    );
  });
}
