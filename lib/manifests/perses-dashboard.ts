import type { JsonObject } from '../api';
import { DASHBOARD_ROWS, type PanelUnit } from './dashboard-panels';
import { DASHBOARD_TITLE, DASHBOARD_UID, DASHBOARD_VARIABLES } from './grafana-dashboard';

// Perses's format units (`yAxis.format.unit`): `percent-decimal` shows a 0–1 value as a percentage.
const PERSES_UNITS: Record<PanelUnit, JsonObject> = {
  count: { unit: 'decimal' },
  seconds: { unit: 'seconds' },
  perSecond: { unit: 'decimal', decimalPlaces: 3 },
  ratio: { unit: 'percent-decimal' },
};
const PANEL_WIDTH = 8;
const PANEL_HEIGHT = 8;
const GRID_COLUMNS = 24;

/** The series selector that fills a variable; the set variable is narrowed to the chosen namespaces. */
export function persesVariableMatcher(variable: (typeof DASHBOARD_VARIABLES)[number]): string {
  return variable.name === 'exporterset' ? `${variable.metric}{namespace=~"$namespace"}` : variable.metric;
}

/**
 * The ops pack's Perses dashboard (JEP-0013 picks Perses), as a `PersesDashboard` object of the Perses
 * operator (`perses.dev/v1alpha1`): the same rows and queries as the Grafana dashboard, each panel a
 * `TimeSeriesChart` with `PrometheusTimeSeriesQuery`s, laid out in one `Grid` per row.
 */
export function persesDashboard(namespace: string): JsonObject {
  const panels: Record<string, JsonObject> = {};
  const layouts: JsonObject[] = [];
  for (const row of DASHBOARD_ROWS) {
    const items: JsonObject[] = row.panels.map((p, i) => {
      panels[p.key] = {
        kind: 'Panel',
        spec: {
          display: { name: p.title, description: p.description },
          plugin: {
            kind: 'TimeSeriesChart',
            spec: { legend: { position: 'bottom' }, yAxis: { format: PERSES_UNITS[p.unit], min: 0 } },
          },
          queries: p.queries.map((q) => ({
            kind: 'TimeSeriesQuery',
            spec: {
              plugin: {
                kind: 'PrometheusTimeSeriesQuery',
                spec: { query: q.expr, seriesNameFormat: q.legend },
              },
            },
          })),
        },
      };
      return {
        x: (i * PANEL_WIDTH) % GRID_COLUMNS,
        y: Math.floor((i * PANEL_WIDTH) / GRID_COLUMNS) * PANEL_HEIGHT,
        width: PANEL_WIDTH,
        height: PANEL_HEIGHT,
        content: { $ref: `#/spec/panels/${p.key}` },
      };
    });
    layouts.push({ kind: 'Grid', spec: { display: { title: row.title, collapse: { open: true } }, items } });
  }
  return {
    apiVersion: 'perses.dev/v1alpha1',
    kind: 'PersesDashboard',
    metadata: { name: DASHBOARD_UID, namespace },
    spec: {
      display: { name: DASHBOARD_TITLE },
      duration: '24h',
      refreshInterval: '1m',
      variables: DASHBOARD_VARIABLES.map((v) => ({
        kind: 'ListVariable',
        spec: {
          name: v.name,
          display: { name: v.label },
          allowAllValue: true,
          allowMultiple: true,
          customAllValue: '.*',
          defaultValue: '$__all',
          plugin: {
            kind: 'PrometheusLabelValuesVariable',
            spec: { labelName: v.name, matchers: [persesVariableMatcher(v)] },
          },
        },
      })),
      panels,
      layouts,
    },
  };
}
