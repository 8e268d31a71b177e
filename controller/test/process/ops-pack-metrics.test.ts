/**
 * The ops pack's dashboards and alerts (lib/manifests) against the controller's real metrics: every
 * query parses as PromQL and names only metrics this controller's registry exports (histograms as their
 * `_bucket`, `_sum` and `_count` series), alerts may also use Prometheus's own `up`, and every metric the
 * controller exports is shown on the dashboards.
 */
import { describe, expect, it } from '@jest/globals';
import { parser } from '@prometheus-io/lezer-promql';
import {
  controllerAlerts,
  DASHBOARD_ROWS,
  DASHBOARD_VARIABLES,
  grafanaDashboard,
  persesDashboard,
  persesVariableMatcher,
} from 'virtual-exporters/internal';
import { ControllerMetrics } from '../../src/process/metrics';

/** The series names a registry exposes. */
async function exportedNames(metrics: ControllerMetrics): Promise<Set<string>> {
  const names = new Set<string>();
  for (const metric of (await metrics.registry.getMetricsAsJSON()) as unknown as {
    name: string;
    type: string;
  }[]) {
    if (metric.type === 'histogram') {
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(metric.name + suffix);
    } else if (metric.type === 'summary') {
      for (const suffix of ['', '_sum', '_count']) names.add(metric.name + suffix);
    } else {
      names.add(metric.name);
    }
  }
  return names;
}

/** Parses `expr` as PromQL; throws on a syntax error, else returns the metric names it selects. */
function selectedMetrics(expr: string): string[] {
  const tree = parser.parse(expr);
  const names: string[] = [];
  const errors: number[] = [];
  tree.iterate({
    enter(node) {
      if (node.type.isError) errors.push(node.from);
      if (node.name === 'VectorSelector') {
        const identifier = node.node.getChild('Identifier');
        if (identifier) names.push(expr.slice(identifier.from, identifier.to));
      }
    },
  });
  if (errors.length > 0)
    throw new Error(`PromQL syntax error in ${JSON.stringify(expr)} at ${errors.join(', ')}`);
  return names;
}

const dashboardQueries = DASHBOARD_ROWS.flatMap((r) => r.panels.flatMap((p) => p.queries.map((q) => q.expr)));
const alerts = controllerAlerts({ namespace: 'jumpstarter', job: 'exporter-set-controller-metrics' });

describe('the ops pack against the controller’s metrics', () => {
  it('finds the metric names in PromQL, and refuses broken PromQL', () => {
    expect(selectedMetrics('sum by (a) (rate(foo_total{x="y"}[5m])) > 0 and bar')).toEqual([
      'foo_total',
      'bar',
    ]);
    expect(selectedMetrics('histogram_quantile(0.9, sum by (le) (rate(h_bucket[5m])))')).toEqual([
      'h_bucket',
    ]);
    expect(() => selectedMetrics('sum by (a (rate(foo[5m]))')).toThrow('PromQL syntax error');
    expect(() => selectedMetrics('rate(foo[5m]) >')).toThrow('PromQL syntax error');
  });

  it('reads histograms as their _bucket, _sum and _count series', async () => {
    const names = await exportedNames(new ControllerMetrics());
    expect(names).toContain('jumpstarter_exporterset_lease_wait_seconds_bucket');
    expect(names).toContain('jumpstarter_exporterset_lease_wait_seconds_count');
    expect(names).not.toContain('jumpstarter_exporterset_lease_wait_seconds');
    expect(names).toContain('jumpstarter_exporterset_leader');
  });

  it('dashboards: every query parses and names only exported metrics', async () => {
    const exported = await exportedNames(new ControllerMetrics({ processMetrics: true }));
    const grafana = grafanaDashboard() as any;
    const perses = persesDashboard('jumpstarter') as any;
    const grafanaExprs = grafana.panels.flatMap((p: any) => (p.targets ?? []).map((t: any) => t.expr));
    const persesExprs = Object.values(perses.spec.panels).flatMap((p: any) =>
      p.spec.queries.map((q: any) => q.spec.plugin.spec.query),
    );
    expect(grafanaExprs).toEqual(dashboardQueries);
    expect(persesExprs).toEqual(dashboardQueries);
    const variableSelectors = DASHBOARD_VARIABLES.map(persesVariableMatcher);
    for (const expr of [...dashboardQueries, ...variableSelectors]) {
      const names = selectedMetrics(expr);
      expect({ expr, names: names.length }).not.toEqual({ expr, names: 0 });
      expect({ expr, unknown: names.filter((n) => !exported.has(n)) }).toEqual({ expr, unknown: [] });
    }
    for (const v of DASHBOARD_VARIABLES) expect(exported).toContain(v.metric);
  });

  it('dashboards: show every metric the controller exports (add a panel to DASHBOARD_ROWS for a new one)', async () => {
    const own = await exportedNames(new ControllerMetrics());
    const shown = new Set(dashboardQueries.flatMap(selectedMetrics));
    // A histogram is shown through one of its series.
    const missing = [...own].filter(
      (name) =>
        !shown.has(name) &&
        !['_bucket', '_sum', '_count'].some((s) => shown.has(name.replace(/_(bucket|sum|count)$/, s))),
    );
    expect(missing).toEqual([]);
  });

  it('alerts: every expression parses and names only exported metrics or up', async () => {
    const exported = await exportedNames(new ControllerMetrics({ processMetrics: true }));
    expect(alerts).toHaveLength(5);
    for (const alert of alerts) {
      const names = selectedMetrics(alert.expr);
      expect({ alert: alert.alert, names: names.length }).not.toEqual({ alert: alert.alert, names: 0 });
      expect({ alert: alert.alert, unknown: names.filter((n) => n !== 'up' && !exported.has(n)) }).toEqual({
        alert: alert.alert,
        unknown: [],
      });
    }
    // `up` only where the question is whether the controller is scraped at all.
    expect(alerts.filter((a) => selectedMetrics(a.expr).includes('up')).map((a) => a.alert)).toEqual([
      'ExporterSetControllerDown',
    ]);
  });
});
