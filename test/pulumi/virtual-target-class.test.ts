import { describe, expect, it } from '@jest/globals';
import * as pulumi from '@pulumi/pulumi';
import { buildVirtualTargetClass } from '../../lib/manifests';
import { MockStack, valueOf } from './support/mock-stack';

const stack = await MockStack.start();
const { VirtualTargetClass } = await import('../../lib/pulumi');

const TYPE = 'virtual-exporters:index:VirtualTargetClass';
const CR_TYPE = 'kubernetes:virtualtarget.jumpstarter.dev/v1alpha1:VirtualTargetClass';

const fullArgs = {
  provisioner: 'qemu.jumpstarter.dev',
  parameters: { arch: 'aarch64', resources: { cpu: 4, memory: '4Gi' }, extra: { list: [1, 2] } },
  credentialsSecretName: 'creds',
  bindingMode: 'WaitForFirstConsumer' as const,
  reclaimPolicy: 'Retain' as const,
  scheduling: {
    nodeSelector: { 'kubernetes.io/arch': 'arm64' },
    tolerations: [{ key: 'jumpstarter.dev/kvm', operator: 'Exists', effect: 'NoSchedule' }],
    resources: { limits: { 'devices.kubevirt.io/kvm': '1' }, requests: { memory: '1Gi' } },
    priorityClassName: 'lab-high',
  },
  caBundle: { name: 'corp-ca', key: 'bundle.pem' },
  images: { runtime: { image: 'quay.io/x/runtime:1' } },
};

describe('VirtualTargetClass component', () => {
  it('registers one custom resource, parented by the component and named after it, with the CRD defaults', async () => {
    const cls = new VirtualTargetClass('vtc-defaults', { provisioner: 'qemu.jumpstarter.dev' });
    await stack.settle();
    const component = stack.one(TYPE, 'vtc-defaults');
    expect(component.custom).toBe(false);
    const children = stack.childrenOf(component);
    expect(children.map((c) => `${c.type}::${c.name}`)).toEqual([`${CR_TYPE}::vtc-defaults`]);
    expect(children[0].inputs).toEqual({
      apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
      kind: 'VirtualTargetClass',
      metadata: { name: 'vtc-defaults' },
      spec: { provisioner: 'qemu.jumpstarter.dev', bindingMode: 'Immediate', reclaimPolicy: 'Delete' },
    });
    expect(await valueOf(cls.name)).toBe('vtc-defaults');
    expect(await valueOf(cls.namespace)).toBeUndefined();
    expect(await valueOf(cls.parameters)).toEqual({});
  });

  it('applies every arg exactly as the framework-neutral builder writes it', async () => {
    new VirtualTargetClass('vtc-full', {
      metadata: { name: 'full', namespace: 'lab', labels: { team: 'a' } },
      ...fullArgs,
    });
    await stack.settle();
    const expected = buildVirtualTargetClass({
      name: 'full',
      namespace: 'lab',
      labels: { team: 'a' },
      ...fullArgs,
    });
    expect(stack.one(CR_TYPE, 'vtc-full').inputs).toEqual(expected);
  });

  it('resolves args given as Outputs, at any depth, to the same object', async () => {
    const cls = new VirtualTargetClass('vtc-outputs', {
      metadata: pulumi.output({
        name: 'full',
        namespace: pulumi.output('lab'),
        labels: { team: pulumi.output('a') },
      }),
      provisioner: pulumi.output(fullArgs.provisioner),
      parameters: pulumi.output(fullArgs.parameters),
      credentialsSecretName: Promise.resolve('creds'),
      bindingMode: pulumi.output(fullArgs.bindingMode),
      reclaimPolicy: fullArgs.reclaimPolicy,
      scheduling: pulumi.output(fullArgs.scheduling),
      caBundle: pulumi.output(fullArgs.caBundle),
      images: pulumi.output(fullArgs.images),
    });
    await stack.settle();
    const expected = buildVirtualTargetClass({
      name: 'full',
      namespace: 'lab',
      labels: { team: 'a' },
      ...fullArgs,
    });
    expect(stack.one(CR_TYPE, 'vtc-outputs').inputs).toEqual(expected);
    expect(await valueOf(cls.manifest)).toEqual(expected);
    expect(await valueOf(cls.namespace)).toBe('lab');
    expect(await valueOf(cls.provisioner)).toBe('qemu.jumpstarter.dev');
    expect(await valueOf(cls.parameters)).toEqual(fullArgs.parameters);
  });

  it('passes its dependsOn to the custom resource, which Pulumi would not do for a component', async () => {
    const first = new VirtualTargetClass('vtc-first', { provisioner: 'qemu.jumpstarter.dev' });
    new VirtualTargetClass(
      'vtc-second',
      { provisioner: 'qemu.jumpstarter.dev' },
      { dependsOn: [first.resource] },
    );
    await stack.settle();
    expect(stack.one(CR_TYPE, 'vtc-second').dependsOn).toEqual([stack.one(CR_TYPE, 'vtc-first').urn]);
  });

  it('rejects plain invalid args in the constructor, naming the component, the prop, the value and the rule', () => {
    expect(
      () =>
        new VirtualTargetClass('vtc-bad', {
          provisioner: 'qemu.jumpstarter.dev',
          bindingMode: 'Lazy' as any,
        }),
    ).toThrow(
      '[virtual-exporters:index:VirtualTargetClass::vtc-bad] invalid VirtualTargetClass: bindingMode="Lazy": must be one of Immediate, WaitForFirstConsumer',
    );
  });
});
