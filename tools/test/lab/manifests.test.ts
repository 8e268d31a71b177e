import { describe, expect, it } from '@jest/globals';
import { ourCrds, parseDuration } from 'virtual-exporters/internal';
import { buildGitopsApp } from '../../../examples/gitops/app';
import { labManifests, plannedSets } from '../../src/lab/manifests';
import type { KubeObject } from 'virtual-exporters-test-cluster';

const objects = buildGitopsApp().charts.flatMap((chart) => chart.toJson()) as KubeObject[];

describe('labManifests of the GitOps example', () => {
  const manifests = labManifests(objects, { speedUp: 10 });

  it('installs the CRDs the installer ships, which are the ones the library defines', () => {
    expect(manifests.crds.map((c) => c.metadata.name)).toEqual(ourCrds.map((c) => c.metadata.name));
    for (const crd of manifests.crds) {
      const ours = ourCrds.find((c) => c.metadata.name === crd.metadata.name);
      expect(crd).toEqual(JSON.parse(JSON.stringify(ours)));
    }
  });

  it('applies the classes before the sets, in the namespace they name', () => {
    expect(manifests.namespaces).toEqual(['jumpstarter']);
    const kinds = manifests.objects.map((o) => o.kind);
    expect(kinds.lastIndexOf('VirtualTargetClass')).toBeLessThan(kinds.indexOf('ExporterSet'));
    expect(kinds.filter((k) => k === 'ExporterSet')).toHaveLength(4);
  });

  it('skips the installer objects a local controller process does not need', () => {
    expect(manifests.skipped.map((s) => s.split(' ')[0]).sort()).toEqual([
      'Deployment',
      'Deployment',
      'Deployment',
      'Deployment',
      'Role',
      'Role',
      'RoleBinding',
      'RoleBinding',
      'Service',
      'ServiceAccount',
    ]);
  });

  it('divides each set cooldown by the speed-up, leaving the rest of the spec alone', () => {
    const set = (name: string, m: typeof manifests) =>
      m.objects.find((o) => o.kind === 'ExporterSet' && o.metadata.name === name) as KubeObject & {
        spec: Record<string, unknown>;
      };
    const original = objects.find((o) => o.kind === 'ExporterSet' && o.metadata.name === 'x86-64-ci') as any;
    expect(parseDuration(set('x86-64-ci', manifests).spec.scaleDownCooldown)).toBe(60_000); // 10m / 10
    expect(parseDuration(set('rpi4-virtual', manifests).spec.scaleDownCooldown)).toBe(30_000); // 5m / 10
    expect(parseDuration(set('pixel7-emulator', manifests).spec.scaleDownCooldown)).toBe(30_000); // default 5m
    expect({ ...set('x86-64-ci', manifests).spec, scaleDownCooldown: '10m' }).toEqual(original.spec);
    expect(original.spec.scaleDownCooldown).toBe('10m'); // the app's objects are not modified
  });

  it('describes each pool: provisioner of its class, template labels, warm buffer and ceiling', () => {
    expect(manifests.pools).toEqual([
      {
        namespace: 'jumpstarter',
        name: 'rpi4-virtual',
        className: 'qemu-rpi4',
        provisioner: 'qemu.jumpstarter.dev',
        leaseLabels: { board: 'rpi4', arch: 'aarch64', virtual: 'true' },
        minAvailableReplicas: 2,
        maxReplicas: 20,
      },
      expect.objectContaining({
        name: 'x86-64-ci',
        provisioner: 'qemu.jumpstarter.dev',
        leaseLabels: { arch: 'x86_64', board: 'x86-64-virtual', virtual: 'true' },
        minAvailableReplicas: 3,
        maxReplicas: 10,
      }),
      expect.objectContaining({ name: 'pixel7-emulator', provisioner: 'android.jumpstarter.dev' }),
      expect.objectContaining({ name: 'qcom-sa8295-hifi', provisioner: 'qemu-baremetal.jumpstarter.dev' }),
    ]);
  });

  it('writes a planning into the sets of the pools it names, and returns only those', () => {
    const pools = manifests.pools.filter((p) => p.name === 'x86-64-ci' || p.name === 'rpi4-virtual');
    const forecast = { mode: 'ForecastOnly' };
    const sets = plannedSets(manifests.objects, pools, { 'x86-64-ci': { forecast } });
    expect(sets.map((s) => s.metadata.name)).toEqual(['x86-64-ci']);
    const original = manifests.objects.find(
      (o) => o.kind === 'ExporterSet' && o.metadata.name === 'x86-64-ci',
    )!;
    expect(sets[0].spec).toEqual({ ...(original.spec as object), forecast });
  });

  it('rejects a speed-up that is not positive', () => {
    expect(() => labManifests(objects, { speedUp: 0 })).toThrow(RangeError);
  });
});
