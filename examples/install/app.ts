// The plain manifests `npm run synth` writes for people who use neither cdk8s nor Pulumi: the installer
// with its default settings and the whole ops pack, split by what the cluster needs to accept them.
// - install.yaml: the namespace "jumpstarter" (so it applies to an empty cluster too), the CRDs, the
//   controller (QEMU pools in every namespace), its metrics Service and the Grafana and Perses
//   dashboards (ConfigMaps);
// - monitoring.yaml: the ServiceMonitor and the PrometheusRule, which need the Prometheus Operator's CRDs;
// - kustomization.yaml: lists install.yaml (and monitoring.yaml, commented out).
import { ApiObject, App, Chart, Yaml } from 'cdk8s';
import { ExporterSetController, type ExporterSetControllerProps } from 'virtual-exporters/cdk8s';

/** The installer's settings in install.yaml: its defaults, with every part of the ops pack on. */
export const INSTALL_PROPS: ExporterSetControllerProps = {
  opsPack: { serviceMonitor: true, prometheusRule: true, grafanaDashboard: true, persesDashboard: true },
};

/** The installer's default namespace, which install.yaml creates. */
export const INSTALL_NAMESPACE = 'jumpstarter';

/** The API group of the kinds that only a cluster with the Prometheus Operator accepts. */
const PROMETHEUS_OPERATOR_API = 'monitoring.coreos.com/v1';

/** The chart the files are written from (tests synthesize the same chart). */
export function buildInstallChart(app: App = new App()): Chart {
  const chart = new Chart(app, 'install');
  // First, so kubectl creates it before the namespaced objects. Where Jumpstarter is installed it
  // exists already and applying it changes nothing.
  new ApiObject(chart, 'Namespace', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: INSTALL_NAMESPACE },
  });
  new ExporterSetController(chart, 'ExporterSetController', INSTALL_PROPS);
  return chart;
}

export const KUSTOMIZATION = `# kubectl apply -k <this directory>: the exporter-set-controller, from install.yaml.
# install.yaml creates the namespace "jumpstarter" unless it exists; \`kubectl delete -f install.yaml\`
# would delete it with everything in it (Jumpstarter's own objects too): delete the other objects
# by name instead where Jumpstarter shares it. With the Prometheus Operator installed, also apply
# monitoring.yaml (its ServiceMonitor and PrometheusRule) by uncommenting it below.
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - install.yaml
  # - monitoring.yaml
`;

/** The files to write into dist/, by name. */
export function installFiles(chart: Chart = buildInstallChart()): Record<string, string> {
  const objects = chart.toJson() as { apiVersion: string }[];
  const needsOperator = (o: { apiVersion: string }) => o.apiVersion === PROMETHEUS_OPERATOR_API;
  return {
    'install.yaml': Yaml.stringify(...objects.filter((o) => !needsOperator(o))),
    'monitoring.yaml': Yaml.stringify(...objects.filter(needsOperator)),
    'kustomization.yaml': KUSTOMIZATION,
  };
}
