import { describe, expect, it } from '@jest/globals';
import { ConfigMap, Service } from 'kubernetes-models/v1';
import { ExporterSetController } from '../../lib/cdk8s';
import { DASHBOARD_FILE, DASHBOARD_ROWS } from '../../lib/manifests';
import { findObject, synth, testChart } from '../support/synth';

const ALL = { serviceMonitor: true, prometheusRule: true, grafanaDashboard: true, persesDashboard: true };
const kindsOf = (objects: { kind: string; metadata: { name: string } }[]) =>
  objects.map((o) => `${o.kind}/${o.metadata.name}`);

function installed(props: ConstructorParameters<typeof ExporterSetController>[2]) {
  const chart = testChart();
  new ExporterSetController(chart, 'Controller', { namespace: 'lab', ...props });
  return synth(chart);
}

describe('ExporterSetController ops pack (cdk8s)', () => {
  const plain = kindsOf(installed({}));

  it('adds nothing unless a part is asked for', () => {
    expect(kindsOf(installed({ opsPack: {} }))).toEqual(plain);
    expect(
      kindsOf(
        installed({
          opsPack: {
            serviceMonitor: false,
            prometheusRule: false,
            grafanaDashboard: false,
            persesDashboard: false,
            labels: { release: 'prom' },
          },
        }),
      ),
    ).toEqual(plain);
  });

  it('adds each part it is asked for after the installer, and only that part', () => {
    expect(kindsOf(installed({ opsPack: ALL }))).toEqual([
      ...plain,
      'ServiceMonitor/exporter-set-controller',
      'PrometheusRule/exporter-set-controller',
      'ConfigMap/exporter-set-controller-grafana-dashboard',
      'ConfigMap/exporter-set-controller-perses-dashboard',
    ]);
    expect(kindsOf(installed({ opsPack: { prometheusRule: true } }))).toEqual([
      ...plain,
      'PrometheusRule/exporter-set-controller',
    ]);
  });

  it('scrapes the metrics Service by its labels and port, keeping the pools’ namespace label', () => {
    const objects = installed({
      opsPack: { serviceMonitor: true, labels: { release: 'prom' }, scrapeInterval: '15s' },
    });
    const service = findObject(objects, 'Service', 'exporter-set-controller-metrics') as any;
    const monitor = findObject(objects, 'ServiceMonitor', 'exporter-set-controller') as any;
    expect(monitor.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(monitor.metadata).toMatchObject({ namespace: 'lab', labels: { release: 'prom' } });
    expect(monitor.spec.namespaceSelector).toEqual({ matchNames: ['lab'] });
    for (const [key, value] of Object.entries(monitor.spec.selector.matchLabels)) {
      expect(service.metadata.labels[key]).toBe(value);
    }
    const ports = service.spec.ports.map((p: { name: string }) => p.name);
    expect(monitor.spec.endpoints).toEqual([
      { port: 'metrics', path: '/metrics', interval: '15s', honorLabels: true },
    ]);
    expect(ports).toContain(monitor.spec.endpoints[0].port);
  });

  it('gives every alert a severity and a runbook that says what to check and how to fix it', () => {
    const rule = findObject(
      installed({ opsPack: { prometheusRule: true } }),
      'PrometheusRule',
      'exporter-set-controller',
    ) as any;
    const rules = rule.spec.groups.flatMap((g: { rules: unknown[] }) => g.rules);
    expect(rules.map((r: { alert: string }) => r.alert)).toEqual([
      'ExporterSetPoolExhausted',
      'ExporterSetStartupFailures',
      'ExporterSetControllerDown',
      'ExporterSetLeaderMissing',
      'ExporterSetReconcileErrors',
    ]);
    for (const r of rules) {
      expect(['warning', 'critical']).toContain(r.labels.severity);
      expect(r.annotations.summary.length).toBeGreaterThan(10);
      expect(r.annotations.runbook).toMatch(/\n\nCheck:\n- .+\n\nFix:\n- /s);
      expect(r.for).toMatch(/^\d+m$/);
    }
    // Scoped to this installation's scrape job and namespace.
    const down = rules.find((r: { alert: string }) => r.alert === 'ExporterSetControllerDown');
    expect(down.expr).toContain('up{job="exporter-set-controller-metrics",namespace="lab"}');
  });

  it('puts each dashboard as JSON in a ConfigMap Kubernetes accepts, Grafana’s with the sidecar label', () => {
    const objects = installed({ opsPack: { grafanaDashboard: true, persesDashboard: true } });
    const grafana = findObject(objects, 'ConfigMap', 'exporter-set-controller-grafana-dashboard') as any;
    const perses = findObject(objects, 'ConfigMap', 'exporter-set-controller-perses-dashboard') as any;
    for (const cm of [grafana, perses]) expect(() => new ConfigMap(cm).validate()).not.toThrow();
    expect(grafana.metadata.labels.grafana_dashboard).toBe('1');
    expect(perses.metadata.labels.grafana_dashboard).toBeUndefined();

    const panels = DASHBOARD_ROWS.flatMap((r) => r.panels);
    const g = JSON.parse(grafana.data[DASHBOARD_FILE]);
    const graphs = g.panels.filter((p: { type: string }) => p.type !== 'row');
    expect(graphs.map((p: { title: string }) => p.title)).toEqual(panels.map((p) => p.title));
    expect(g.panels.filter((p: { type: string }) => p.type === 'row')).toHaveLength(DASHBOARD_ROWS.length);
    // Panels never overlap on Grafana's 24-column grid.
    const cells = new Set<string>();
    for (const p of g.panels) {
      expect(p.gridPos.x + p.gridPos.w).toBeLessThanOrEqual(24);
      for (let x = p.gridPos.x; x < p.gridPos.x + p.gridPos.w; x++)
        for (let y = p.gridPos.y; y < p.gridPos.y + p.gridPos.h; y++) {
          expect(cells.has(`${x},${y}`)).toBe(false);
          cells.add(`${x},${y}`);
        }
    }

    const d = JSON.parse(perses.data[DASHBOARD_FILE]);
    expect(d).toMatchObject({ apiVersion: 'perses.dev/v1alpha1', kind: 'PersesDashboard' });
    expect(d.metadata.namespace).toBe('lab');
    expect(Object.keys(d.spec.panels)).toEqual(panels.map((p) => p.key));
    // Every layout item points at a panel, and every panel is laid out once.
    const refs = d.spec.layouts.flatMap((l: any) => l.spec.items.map((i: any) => i.content.$ref));
    expect(refs).toEqual(panels.map((p) => `#/spec/panels/${p.key}`));
    const queries = (o: any) => o.spec.queries.map((q: any) => q.spec.plugin.spec.query);
    expect(Object.values(d.spec.panels).map(queries)).toEqual(
      panels.map((p) => p.queries.map((q) => q.expr)),
    );
  });

  it('keeps the metrics Service valid and unchanged by the pack', () => {
    const service = findObject(installed({ opsPack: ALL }), 'Service', 'exporter-set-controller-metrics');
    expect(() => new Service(service as any).validate()).not.toThrow();
    expect(service).toEqual(findObject(installed({}), 'Service', 'exporter-set-controller-metrics'));
  });

  it('rejects bad labels and scrape intervals naming the prop, the value and the rule', () => {
    expect(() => installed({ opsPack: { serviceMonitor: true, labels: { 'bad key!': 'x' } } })).toThrow(
      'opsPack.labels[bad key!]="bad key!": label key must have a name part',
    );
    expect(() => installed({ opsPack: { serviceMonitor: true, scrapeInterval: '30 seconds' } })).toThrow(
      'opsPack.scrapeInterval="30 seconds": must be a positive Prometheus duration such as "30s" or "1m30s"',
    );
    expect(() => installed({ opsPack: { serviceMonitor: true, scrapeInterval: '0s' } })).toThrow(
      'opsPack.scrapeInterval="0s"',
    );
    expect(() => installed({ opsPack: { serviceMonitor: true, scrapeInterval: '1m30s' } })).not.toThrow();
  });
});
