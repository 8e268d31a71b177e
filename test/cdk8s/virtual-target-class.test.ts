import { describe, expect, it } from '@jest/globals';
import { VirtualTargetClass } from '../../lib/cdk8s';
import { classManifestOf } from '../../lib/cdk8s/virtual-target-class';
import { buildVirtualTargetClass } from '../../lib/manifests';
import { findObject, synth, testChart } from '../support/synth';

describe('VirtualTargetClass construct', () => {
  it('writes the CRD defaults and takes the chart namespace', () => {
    const chart = testChart('lab');
    new VirtualTargetClass(chart, 'Qemu', {
      metadata: { name: 'qemu' },
      provisioner: 'qemu.jumpstarter.dev',
    });
    expect(synth(chart)).toEqual([
      {
        apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
        kind: 'VirtualTargetClass',
        metadata: { name: 'qemu', namespace: 'lab' },
        spec: { provisioner: 'qemu.jumpstarter.dev', bindingMode: 'Immediate', reclaimPolicy: 'Delete' },
      },
    ]);
  });

  it('synthesizes every field exactly as the builder does (nothing lost through the generated L1)', () => {
    const chart = testChart('lab');
    const props = {
      provisioner: 'qemu.jumpstarter.dev',
      parameters: { arch: 'aarch64', resources: { cpu: 4, memory: '4Gi' }, extra: { list: [1, 2] } },
      credentialsSecretName: 'creds',
      bindingMode: 'WaitForFirstConsumer' as const,
      reclaimPolicy: 'Retain' as const,
      scheduling: {
        nodeSelector: { 'kubernetes.io/arch': 'arm64' },
        tolerations: [
          { key: 'jumpstarter.dev/kvm', operator: 'Exists', effect: 'NoSchedule' },
          {
            key: 'node.kubernetes.io/unreachable',
            operator: 'Exists',
            effect: 'NoExecute',
            tolerationSeconds: 30,
          },
        ],
        resources: { limits: { 'devices.kubevirt.io/kvm': '1', cpu: 2 }, requests: { memory: '1Gi' } },
        affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [] } },
        priorityClassName: 'lab-high',
        runtimeClassName: 'kata',
      },
      caBundle: { name: 'corp-ca', key: 'bundle.pem' },
      images: {
        exporter: { image: 'quay.io/x/exporter:1', imagePullPolicy: 'Always' as const },
        runtime: { image: 'quay.io/x/runtime:1' },
      },
    };
    new VirtualTargetClass(chart, 'Full', { metadata: { name: 'full', labels: { team: 'a' } }, ...props });
    const expected = buildVirtualTargetClass({
      name: 'full',
      namespace: 'lab',
      labels: { team: 'a' },
      ...props,
    });
    expect(findObject(synth(chart), 'VirtualTargetClass', 'full')).toEqual(expected);
  });

  it('includes tolerations and node selectors added after construction', () => {
    const chart = testChart();
    const cls = new VirtualTargetClass(chart, 'Qemu', {
      metadata: { name: 'qemu' },
      provisioner: 'qemu.jumpstarter.dev',
      scheduling: { nodeSelector: { zone: 'a' } },
    });
    cls.addToleration({ key: 'kvm', operator: 'Exists', effect: 'NoSchedule' });
    cls.addNodeSelector('kubernetes.io/arch', 'amd64');
    const spec = findObject(synth(chart), 'VirtualTargetClass', 'qemu').spec as any;
    expect(spec.scheduling).toEqual({
      nodeSelector: { zone: 'a', 'kubernetes.io/arch': 'amd64' },
      tolerations: [{ key: 'kvm', operator: 'Exists', effect: 'NoSchedule' }],
    });
  });

  it('generates a name from the construct path when none is given', () => {
    const chart = testChart();
    const cls = new VirtualTargetClass(chart, 'Qemu', { provisioner: 'qemu.jumpstarter.dev' });
    expect(cls.name).toMatch(/^test-qemu-c8[0-9a-f]+$/);
    expect(findObject(synth(chart), 'VirtualTargetClass', cls.name)).toBeDefined();
  });

  it('imports a class by name without synthesizing anything', () => {
    const chart = testChart();
    const cls = VirtualTargetClass.fromName(chart, 'Shared', 'shared-qemu');
    expect(cls.name).toBe('shared-qemu');
    expect(classManifestOf(cls)).toBeUndefined();
    expect(synth(chart)).toEqual([]);
  });

  describe('validation names the construct path, the prop, the value and the rule', () => {
    it.each([
      [{ provisioner: '' }, '[test/C] invalid VirtualTargetClass: provisioner="": must not be empty'],
      [
        { provisioner: 'qemu.jumpstarter.dev', bindingMode: 'Lazy' },
        '[test/C] invalid VirtualTargetClass: bindingMode="Lazy": must be one of Immediate, WaitForFirstConsumer',
      ],
      [
        { provisioner: 'qemu.jumpstarter.dev', reclaimPolicy: 'Keep' },
        '[test/C] invalid VirtualTargetClass: reclaimPolicy="Keep": must be one of Delete, Retain',
      ],
      [
        { provisioner: 'qemu.jumpstarter.dev', parameters: 'fast' },
        '[test/C] invalid VirtualTargetClass: parameters="fast": parameters must be an object (a nested map of provisioner settings)',
      ],
      [
        { provisioner: 'qemu.jumpstarter.dev', caBundle: { name: '' } },
        '[test/C] invalid VirtualTargetClass: caBundle.name="": must not be empty',
      ],
    ])('rejects %j', (props, message) => {
      expect(() => new VirtualTargetClass(testChart(), 'C', props as any)).toThrow(message);
    });

    it('rejects an invalid resource quantity with the path to it', () => {
      expect(
        () =>
          new VirtualTargetClass(testChart(), 'C', {
            provisioner: 'qemu.jumpstarter.dev',
            scheduling: { resources: { limits: { memory: 'lots' } } },
          }),
      ).toThrow(
        /^\[test\/C\] invalid VirtualTargetClass: scheduling\.resources\.limits\[memory\]="lots": must be a quantity such as 4, 500m, 8Gi or 16G$/,
      );
    });

    it('re-checks at synth what add* calls changed', () => {
      const chart = testChart();
      const cls = new VirtualTargetClass(chart, 'C', { provisioner: 'qemu.jumpstarter.dev' });
      cls.addNodeSelector('bad key!', 'x');
      expect(() => synth(chart)).toThrow(/\[test\/C\] scheduling\.nodeSelector/);
    });
  });
});
