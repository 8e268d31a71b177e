/**
 * The ops pack: the installer's optional monitoring objects. Each part is off by default, so an
 * installation is unchanged unless asked: the ServiceMonitor and the PrometheusRule need the Prometheus
 * Operator's CRDs (`monitoring.coreos.com/v1`), which a cluster may not have; the dashboards are
 * ConfigMaps that only mean something where a Grafana or Perses sidecar loads them.
 */
import type { JsonObject } from '../api';
import { controllerAlerts } from './alerts';
import { grafanaDashboard } from './grafana-dashboard';
import { persesDashboard } from './perses-dashboard';

export interface OpsPackInput {
  /** A `ServiceMonitor` scraping the controllers' metrics Service (needs the Prometheus Operator). @default false */
  readonly serviceMonitor?: boolean;
  /** A `PrometheusRule` with the controller's alerts and their runbooks (needs the Prometheus Operator). @default false */
  readonly prometheusRule?: boolean;
  /** The Grafana dashboard in a ConfigMap labelled `grafana_dashboard: "1"` (the Grafana sidecar's default). @default false */
  readonly grafanaDashboard?: boolean;
  /** The Perses dashboard (a `PersesDashboard` object as JSON) in a ConfigMap. @default false */
  readonly persesDashboard?: boolean;
  /** Extra labels on the ServiceMonitor and PrometheusRule, e.g. the `release` label your Prometheus selects them by. */
  readonly labels?: Readonly<Record<string, string>>;
  /** How often Prometheus scrapes the controllers (a Prometheus duration). @default "30s" */
  readonly scrapeInterval?: string;
}

/** What the ops pack needs of the installation it belongs to. */
export interface OpsPackContext {
  readonly namespace: string;
  /** The metrics Service's name and its selector labels. */
  readonly metricsService: { readonly name: string; readonly labels: Readonly<Record<string, string>> };
  /** The installer's labels for an object of `component`. */
  readonly labelsFor: (component: string) => Record<string, string>;
  /** The name prefix of the installer's objects. */
  readonly name: string;
}

export const DEFAULT_SCRAPE_INTERVAL = '30s';
/** The label the Grafana sidecar (kiwigrid k8s-sidecar) looks for by default. */
export const GRAFANA_DASHBOARD_LABEL = { grafana_dashboard: '1' } as const;
/** The file name of both dashboards in their ConfigMaps. */
export const DASHBOARD_FILE = 'jumpstarter-exporterset.json';

/** True when `input` asks for any part of the pack. */
export function wantsOpsPack(input: OpsPackInput | undefined): boolean {
  return Boolean(
    input?.serviceMonitor || input?.prometheusRule || input?.grafanaDashboard || input?.persesDashboard,
  );
}

/** The ops pack's objects, in apply order; none when every part is off. */
export function buildOpsPack(input: OpsPackInput | undefined, ctx: OpsPackContext): JsonObject[] {
  if (!input) return [];
  const objects: JsonObject[] = [];
  const extra = input.labels ?? {};
  if (input.serviceMonitor) {
    objects.push({
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'ServiceMonitor',
      metadata: {
        name: ctx.name,
        namespace: ctx.namespace,
        labels: { ...ctx.labelsFor('metrics'), ...extra },
      },
      spec: {
        selector: { matchLabels: { ...ctx.metricsService.labels } },
        namespaceSelector: { matchNames: [ctx.namespace] },
        endpoints: [
          {
            port: 'metrics',
            path: '/metrics',
            interval: input.scrapeInterval ?? DEFAULT_SCRAPE_INTERVAL,
            // The pool metrics carry the ExporterSet's `namespace`; without this Prometheus would rename it
            // `exported_namespace` and put the controller's namespace in its place.
            honorLabels: true,
          },
        ],
      },
    });
  }
  if (input.prometheusRule) {
    const alerts = controllerAlerts({ namespace: ctx.namespace, job: ctx.metricsService.name });
    objects.push({
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'PrometheusRule',
      metadata: {
        name: ctx.name,
        namespace: ctx.namespace,
        labels: { ...ctx.labelsFor('alerts'), ...extra },
      },
      spec: {
        groups: [
          {
            name: 'jumpstarter-exporterset',
            rules: alerts.map((a) => ({
              alert: a.alert,
              expr: a.expr,
              for: a.for,
              labels: { severity: a.severity },
              annotations: { summary: a.summary, description: a.description, runbook: a.runbook },
            })),
          },
        ],
      },
    });
  }
  if (input.grafanaDashboard) {
    objects.push({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: `${ctx.name}-grafana-dashboard`,
        namespace: ctx.namespace,
        labels: { ...ctx.labelsFor('dashboard'), ...GRAFANA_DASHBOARD_LABEL },
      },
      data: { [DASHBOARD_FILE]: `${JSON.stringify(grafanaDashboard(), null, 2)}\n` },
    });
  }
  if (input.persesDashboard) {
    objects.push({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: `${ctx.name}-perses-dashboard`,
        namespace: ctx.namespace,
        labels: ctx.labelsFor('dashboard'),
      },
      data: { [DASHBOARD_FILE]: `${JSON.stringify(persesDashboard(ctx.namespace), null, 2)}\n` },
    });
  }
  return objects;
}
