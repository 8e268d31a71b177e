import { describe, expect, it } from '@jest/globals';
import { buildExporterSetController } from '../../lib/manifests';
import { MockStack } from './support/mock-stack';

const stack = await MockStack.start();
const { ExporterSetController } = await import('../../lib/pulumi');

const ALL = { serviceMonitor: true, prometheusRule: true, grafanaDashboard: true, persesDashboard: true };

async function applied(ctl: InstanceType<typeof ExporterSetController>) {
  await stack.settle();
  return Promise.all(ctl.resources.map((r) => stack.of(r)));
}

describe('ExporterSetController ops pack (Pulumi)', () => {
  it('registers nothing more when no part is asked for', async () => {
    const plain = await applied(new ExporterSetController('ops-none', { namespace: 'lab' }));
    const off = await applied(
      new ExporterSetController('ops-off', { namespace: 'lab', opsPack: { serviceMonitor: false } }),
    );
    expect(off.map((r) => r.type)).toEqual(plain.map((r) => r.type));
    expect(off.map((r) => r.inputs)).toEqual(plain.map((r) => r.inputs));
  });

  it('registers the pack’s objects as typed resources with exactly the builder’s objects', async () => {
    const args = { namespace: 'lab', opsPack: { ...ALL, labels: { release: 'prom' } } };
    const objects = await applied(new ExporterSetController('ops-all', args));
    expect(objects.slice(-4).map((r) => `${r.type}::${r.name}`)).toEqual([
      'kubernetes:monitoring.coreos.com/v1:ServiceMonitor::ops-all-exporter-set-controller',
      'kubernetes:monitoring.coreos.com/v1:PrometheusRule::ops-all-exporter-set-controller',
      'kubernetes:core/v1:ConfigMap::ops-all-exporter-set-controller-grafana-dashboard',
      'kubernetes:core/v1:ConfigMap::ops-all-exporter-set-controller-perses-dashboard',
    ]);
    expect(objects.map((r) => r.inputs)).toEqual(buildExporterSetController(args));
  });

  it('takes the other args as Outputs around a plain opsPack', async () => {
    const { output } = await import('@pulumi/pulumi');
    const ctl = new ExporterSetController('ops-outputs', {
      namespace: output('lab'),
      opsPack: { prometheusRule: true },
    });
    const objects = await applied(ctl);
    const rule = objects.find((r) => r.type.endsWith(':PrometheusRule'))!;
    expect(rule.inputs.metadata.namespace).toBe('lab');
    expect(JSON.stringify(rule.inputs.spec)).toContain('namespace=\\"lab\\"');
  });
});
