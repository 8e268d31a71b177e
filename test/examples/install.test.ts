import { describe, expect, it } from '@jest/globals';
import { Testing } from 'cdk8s';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments, parse } from 'yaml';
import { Deployment } from 'kubernetes-models/apps/v1';
import { ConfigMap, Namespace, Service, ServiceAccount } from 'kubernetes-models/v1';
import {
  ClusterRole,
  ClusterRoleBinding,
  Role,
  RoleBinding,
} from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import {
  buildInstallChart,
  INSTALL_NAMESPACE,
  INSTALL_PROPS,
  installFiles,
} from '../../examples/install/app';
import { buildExporterSetController } from '../../lib/manifests';
import { withCdk8sPlusSettings } from '../support/kplus-differences';

/** Every document of a YAML stream; a document that does not parse fails the test. */
function documents(text: string): any[] {
  return parseAllDocuments(text).map((doc) => {
    expect(doc.errors).toEqual([]);
    return doc.toJS();
  });
}

const MODELS: Record<string, new (o: any) => { validate(): void }> = {
  Namespace,
  Deployment,
  Service,
  ServiceAccount,
  ConfigMap,
  Role,
  RoleBinding,
  ClusterRole,
  ClusterRoleBinding,
};

describe('examples/install: install.yaml, monitoring.yaml and kustomization.yaml', () => {
  const files = installFiles(buildInstallChart(Testing.app()));
  const install = documents(files['install.yaml']);
  const monitoring = documents(files['monitoring.yaml']);

  it('holds together exactly the objects of the installer chart, each file in its order', () => {
    const chart = Testing.synth(buildInstallChart(Testing.app()));
    const operator = (o: any) => o.apiVersion === 'monitoring.coreos.com/v1';
    expect(install).toEqual(chart.filter((o) => !operator(o)));
    expect(monitoring).toEqual(chart.filter(operator));
    // The installer's objects, with what cdk8s-plus writes beyond them (test/support/kplus-differences.ts).
    expect(chart).toEqual([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: INSTALL_NAMESPACE } },
      ...withCdk8sPlusSettings(buildExporterSetController(INSTALL_PROPS)),
    ]);
  });

  it('puts in monitoring.yaml only what needs the Prometheus Operator, and the rest in install.yaml', () => {
    expect(monitoring.map((o) => `${o.apiVersion} ${o.kind}`)).toEqual([
      'monitoring.coreos.com/v1 ServiceMonitor',
      'monitoring.coreos.com/v1 PrometheusRule',
    ]);
    expect(install.map((o) => o.kind)).toEqual(
      expect.arrayContaining(['CustomResourceDefinition', 'Deployment', 'Service', 'ConfigMap']),
    );
    expect(install.filter((o) => o.apiVersion.startsWith('monitoring.coreos.com'))).toEqual([]);
  });

  it('writes objects Kubernetes accepts', () => {
    const checked = install.filter((o) => MODELS[o.kind]);
    expect(checked.length).toBe(install.filter((o) => o.kind !== 'CustomResourceDefinition').length);
    for (const obj of checked) expect(() => new MODELS[obj.kind](obj).validate()).not.toThrow();
  });

  it('lists install.yaml in the kustomization, and offers monitoring.yaml', () => {
    const kustomization = parse(files['kustomization.yaml']);
    expect(kustomization).toEqual({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      resources: ['install.yaml'],
    });
    expect(files['kustomization.yaml']).toContain('# - monitoring.yaml');
    for (const name of kustomization.resources) expect(Object.keys(files)).toContain(name);
  });

  it('is what `npm run synth` writes to dist/ (when it has run)', () => {
    const dist = path.resolve(process.cwd(), 'dist');
    const script = JSON.parse(fs.readFileSync(path.resolve(process.cwd(), 'package.json'), 'utf8')).scripts
      .synth;
    expect(script).toContain('examples/install/main.ts dist');
    if (!fs.existsSync(path.join(dist, 'install.yaml'))) return;
    for (const [name, text] of Object.entries(files)) {
      expect({ name, text: fs.readFileSync(path.join(dist, name), 'utf8') }).toEqual({ name, text });
    }
  });
});
