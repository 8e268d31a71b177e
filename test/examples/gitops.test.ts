import { describe, expect, it } from '@jest/globals';
import { Testing } from 'cdk8s';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Service, ServiceAccount } from 'kubernetes-models/v1';
import { Role, RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import { buildGitopsApp } from '../../examples/gitops/app';
import { exporterSetCrd, virtualTargetClassCrd } from '../../lib/crds';
import { admit } from '../support/crd-validator';

function synthApp(): any[] {
  const app = buildGitopsApp(Testing.app());
  return app.charts.flatMap((chart) => Testing.synth(chart));
}

describe('examples/gitops', () => {
  const objects = synthApp();
  const names = (kind: string) => objects.filter((o) => o.kind === kind).map((o) => o.metadata.name);

  it('holds the installer and the JEP pools', () => {
    expect(names('VirtualTargetClass')).toEqual([
      'qemu-rpi4',
      'android-pixel7',
      'corellium-kronos',
      'qcom-sa8295-baremetal',
      'x86-64-ci',
    ]);
    expect(names('ExporterSet')).toEqual([
      'rpi4-virtual',
      'pixel7-emulator',
      'qcom-sa8295-hifi',
      'x86-64-ci',
    ]);
    expect(names('Deployment')).toEqual(['exporter-set-controller-qemu']);
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
