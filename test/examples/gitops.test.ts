import { describe, expect, it } from '@jest/globals';
import { Testing } from 'cdk8s';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Service, ServiceAccount } from 'kubernetes-models/v1';
import { Role, RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PROVISIONERS, buildGitopsApp } from '../../examples/gitops/app';
import { exporterSetCrd, virtualTargetClassCrd } from '../../lib/crds';
import { admit } from '../support/crd-validator';
import { testApp } from '../support/synth';

/** Every chart's objects, by chart id (the dist/<id>.k8s.yaml file `npm run synth` writes). */
function synthCharts(): Record<string, any[]> {
  const app = buildGitopsApp(testApp());
  return Object.fromEntries(app.charts.map((chart) => [chart.node.id, Testing.synth(chart)]));
}

function synthApp(): any[] {
  return Object.values(synthCharts()).flat();
}

describe('examples/gitops', () => {
  const objects = synthApp();
  const names = (kind: string) => objects.filter((o) => o.kind === kind).map((o) => o.metadata.name);

  it('holds the installer and the JEP pools', () => {
    expect(names('VirtualTargetClass')).toEqual([
      'qemu-rpi4',
      'x86-64-ci',
      'corellium-kronos',
      'android-pixel7',
      'qcom-sa8295-baremetal',
    ]);
    expect(names('ExporterSet')).toEqual([
      'rpi4-virtual',
      'x86-64-ci',
      'pixel7-emulator',
      'qcom-sa8295-hifi',
    ]);
    expect(names('Deployment')).toEqual([
      'exporter-set-controller-qemu',
      'exporter-set-controller-corellium',
      'exporter-set-controller-android',
      'exporter-set-controller-qemu-baremetal',
    ]);
  });

  it('imports the library by its package name, as an application does', () => {
    const source = fs.readFileSync(path.resolve(process.cwd(), 'examples/gitops/app.ts'), 'utf8');
    expect(source).toContain("from 'virtual-exporters/cdk8s'");
    expect(source).not.toMatch(/from '\.\.\//);
  });

  describe('serves the pools it promises', () => {
    const charts = synthCharts();
    const provisionersOf = (objects: any[]) =>
      objects.filter((o) => o.kind === 'VirtualTargetClass').map((o) => o.spec.provisioner as string);
    const deployed = charts.controller
      .filter((o) => o.kind === 'Deployment')
      .flatMap((o) => o.spec.template.spec.containers[0].args as string[])
      .filter((a) => a.startsWith('--provisioner='))
      .map((a) => a.slice('--provisioner='.length));

    it('installs a controller for every provisioner in PROVISIONERS', () => {
      expect(deployed.sort()).toEqual([...PROVISIONERS].sort());
    });

    it('puts in pools.k8s.yaml only classes whose provisioner the installed controller runs', () => {
      const served = provisionersOf(charts.pools);
      expect(served.length).toBeGreaterThan(0);
      expect(served.filter((p) => !deployed.includes(p))).toEqual([]);
    });

    it('serves every pool: no class names a provisioner without a controller', () => {
      expect(provisionersOf(charts.pools).sort()).toEqual([
        'android.jumpstarter.dev',
        'corellium.jumpstarter.dev',
        'qemu-baremetal.jumpstarter.dev',
        'qemu.jumpstarter.dev',
        'qemu.jumpstarter.dev',
      ]);
    });

    it('has no chart beyond the controller and the pools', () => {
      expect(Object.keys(charts)).toEqual(['controller', 'pools']);
    });
  });

  it('overrides only memory in the rpi4 set, as the JEP example does', () => {
    const set = objects.find((o) => o.metadata.name === 'rpi4-virtual');
    expect(set.spec.parameters).toEqual({ resources: { memory: '8Gi' } });
    expect(set.spec).toMatchObject({
      minReplicas: 0,
      maxReplicas: 20,
      minAvailableReplicas: 2,
      scaleDownCooldown: '5m',
    });
  });

  it('gives the Corellium class credentials and WaitForFirstConsumer, and the Android set no warm buffer', () => {
    const corellium = objects.find((o) => o.metadata.name === 'corellium-kronos');
    expect(corellium.spec).toMatchObject({
      provisioner: 'corellium.jumpstarter.dev',
      credentialsSecretRef: { name: 'corellium-creds' },
      bindingMode: 'WaitForFirstConsumer',
    });
    const android = objects.find((o) => o.kind === 'ExporterSet' && o.metadata.name === 'pixel7-emulator');
    expect(android.spec.minAvailableReplicas).toBe(0);
  });

  it('produces objects our CRDs admit unchanged (defaults already written out)', () => {
    const crds: Record<string, object> = {
      VirtualTargetClass: virtualTargetClassCrd,
      ExporterSet: exporterSetCrd,
    };
    for (const obj of objects.filter((o) => crds[o.kind])) {
      const result = admit(crds[obj.kind] as any, obj);
      expect({ name: obj.metadata.name, errors: result.errors }).toEqual({
        name: obj.metadata.name,
        errors: [],
      });
      expect(result.object).toEqual(obj);
    }
  });

  it('produces core objects the Kubernetes schemas accept', () => {
    const models: Record<string, new (o: any) => { validate(): void }> = {
      Deployment,
      Service,
      ServiceAccount,
      Role,
      RoleBinding,
    };
    const checked = objects.filter((o) => models[o.kind]);
    expect(checked.length).toBeGreaterThan(5);
    for (const obj of checked) expect(() => new models[obj.kind](obj).validate()).not.toThrow();
  });
});
