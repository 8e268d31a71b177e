import type { JsonObject } from '../api';
import { DASHBOARD_ROWS, type DashboardPanel, type PanelUnit } from './dashboard-panels';

/** The variables both dashboards offer, with the metric whose label values fill them. */
export const DASHBOARD_VARIABLES = [
  { name: 'namespace', label: 'Namespace', metric: 'jumpstarter_exporterset_replicas' },
  { name: 'exporterset', label: 'ExporterSet', metric: 'jumpstarter_exporterset_replicas' },
] as const;

export const DASHBOARD_TITLE = 'Jumpstarter virtual exporters';
export const DASHBOARD_UID = 'jumpstarter-exporterset';

const GRAFANA_UNITS: Record<PanelUnit, string> = {
  count: 'short',
  seconds: 's',
  perSecond: 'ops',
  ratio: 'percentunit',
};
const PANEL_WIDTH = 8;
const PANEL_HEIGHT = 8;
const GRID_COLUMNS = 24;

/** The variables' values are chained: the sets offered are those of the chosen namespaces. */
function variableQuery(variable: (typeof DASHBOARD_VARIABLES)[number]): string {
  const filter = variable.name === 'exporterset' ? '{namespace=~"$namespace"}' : '';
  return `label_values(${variable.metric}${filter}, ${variable.name})`;
}

function panel(p: DashboardPanel, id: number, x: number, y: number): JsonObject {
  return {
    id,
    type: 'timeseries',
    title: p.title,
    description: p.description,
    datasource: { type: 'prometheus', uid: '${datasource}' },
    gridPos: { x, y, w: PANEL_WIDTH, h: PANEL_HEIGHT },
    fieldConfig: { defaults: { unit: GRAFANA_UNITS[p.unit], min: 0 }, overrides: [] },
    options: { legend: { displayMode: 'list', placement: 'bottom', showLegend: true } },
    targets: p.queries.map((q, i) => ({
      refId: String.fromCharCode(65 + i),
      datasource: { type: 'prometheus', uid: '${datasource}' },
      expr: q.expr,
      legendFormat: q.legend,
    })),
  };
}

/**
 * The ops pack's Grafana dashboard (JSON model, schema version 39): a `datasource` variable, the
 * namespace and set variables, and one row per {@link DASHBOARD_ROWS} row, three panels a line.
 */
export function grafanaDashboard(): JsonObject {
  const panels: JsonObject[] = [];
  let id = 1;
  let y = 0;
  for (const row of DASHBOARD_ROWS) {
    panels.push({
      id: id++,
      type: 'row',
      title: row.title,
      collapsed: false,
      gridPos: { x: 0, y, w: GRID_COLUMNS, h: 1 },
      panels: [],
    });
    y += 1;
    row.panels.forEach((p, i) => {
      const x = (i * PANEL_WIDTH) % GRID_COLUMNS;
      if (i > 0 && x === 0) y += PANEL_HEIGHT;
      panels.push(panel(p, id++, x, y));
    });
    y += PANEL_HEIGHT;
  }
  return {
    uid: DASHBOARD_UID,
    title: DASHBOARD_TITLE,
    tags: ['jumpstarter', 'exporterset'],
    timezone: 'browser',
    editable: true,
    schemaVersion: 39,
    time: { from: 'now-24h', to: 'now' },
    refresh: '1m',
    templating: {
      list: [
        { name: 'datasource', label: 'Data source', type: 'datasource', query: 'prometheus' },
        ...DASHBOARD_VARIABLES.map((v) => ({
          name: v.name,
          label: v.label,
          type: 'query',
          datasource: { type: 'prometheus', uid: '${datasource}' },
          query: { query: variableQuery(v), refId: `${v.name}-values` },
          definition: variableQuery(v),
          refresh: 2,
          includeAll: true,
          multi: true,
          allValue: '.*',
          current: { text: 'All', value: '$__all' },
          sort: 1,
        })),
      ],
    },
    annotations: { list: [] },
    panels,
  };
}
