import { describe, expect, it } from '@jest/globals';
import * as pulumi from '@pulumi/pulumi';
import { MockStack, valueOf } from './support/mock-stack';

const stack = await MockStack.start();
const { QemuPool, VirtualTargetClass } = await import('../../lib/pulumi');

const POOL = 'virtual-exporters:index:QemuPool';
const CLASS = 'virtual-exporters:index:VirtualTargetClass';
const SET = 'virtual-exporters:index:ExporterSet';
const CLASS_CR = 'kubernetes:virtualtarget.jumpstarter.dev/v1alpha1:VirtualTargetClass';
const SET_CR = 'kubernetes:virtualtarget.jumpstarter.dev/v1alpha1:ExporterSet';

const rpi4 = {
  metadata: { name: 'rpi4', namespace: 'lab', labels: { team: 'boards' } },
  arch: 'aarch64' as const,
  machineType: 'virt',
  cpu: 4,
  memory: '8Gi',
  storage: '16Gi',
  firmware: { url: 'registry.example.com/firmware/rpi4:latest', digest: 'sha256:abc' },
  kvm: true,
  extraParameters: { bootTimeout: 120, arch: 'x86_64' },
  labels: { board: 'rpi4', virtual: 'true' },
  drivers: [
    { type: 'jumpstarter_driver_qemu.driver.Qemu' },
    { type: 'jumpstarter_driver_power.driver.QemuPower' },
  ],
  minReplicas: 1,
  maxReplicas: 20,
  minAvailableReplicas: 2,
  scaleDownCooldown: '10m',
  recycleStrategy: 'InPlaceReuse' as const,
  scheduling: { nodeSelector: { 'kubernetes.io/arch': 'arm64' } },
  images: { runtime: { image: 'quay.io/x/runtime:1' } },
};

const expectedClassSpec = {
  provisioner: 'qemu.jumpstarter.dev',
  bindingMode: 'Immediate',
  reclaimPolicy: 'Delete',
  // The typed props win over the same keys in extraParameters.
  parameters: {
    bootTimeout: 120,
    arch: 'aarch64',
    machineType: 'virt',
    resources: { cpu: 4, memory: '8Gi', storage: '16Gi' },
    firmware: { url: 'registry.example.com/firmware/rpi4:latest', digest: 'sha256:abc' },
    kvm: true,
  },
  scheduling: { nodeSelector: { 'kubernetes.io/arch': 'arm64' } },
  images: { runtime: { image: 'quay.io/x/runtime:1' } },
};

const expectedSetSpec = {
  minReplicas: 1,
  maxReplicas: 20,
  minAvailableReplicas: 2,
  scaleDownCooldown: '10m',
  recycleStrategy: 'InPlaceReuse',
  virtualTargetClassName: 'rpi4',
  selector: { matchLabels: { board: 'rpi4', virtual: 'true' } },
  template: {
    metadata: { labels: { board: 'rpi4', virtual: 'true' } },
    spec: {
      drivers: [
        { name: 'qemu', type: 'jumpstarter_driver_qemu.driver.Qemu' },
        { name: 'power', type: 'jumpstarter_driver_power.driver.QemuPower' },
      ],
    },
  },
};

describe('QemuPool component', () => {
  it('makes a class component and a set component, each with its custom resource, all named after the pool', async () => {
    new QemuPool('rpi4', rpi4);
    await stack.settle();
    const pool = stack.one(POOL, 'rpi4');
    const [cls, set] = stack.childrenOf(pool);
    expect([cls.type, cls.name, set.type, set.name]).toEqual([CLASS, 'rpi4', SET, 'rpi4']);
    expect(stack.childrenOf(cls).map((c) => `${c.type}::${c.name}`)).toEqual([`${CLASS_CR}::rpi4`]);
    expect(stack.childrenOf(set).map((c) => `${c.type}::${c.name}`)).toEqual([`${SET_CR}::rpi4`]);

    const classCr = stack.childrenOf(cls)[0].inputs;
    expect(classCr.metadata).toEqual({ name: 'rpi4', namespace: 'lab' });
    expect(classCr.spec).toEqual(expectedClassSpec);
    const setCr = stack.childrenOf(set)[0].inputs;
    expect(setCr.metadata).toEqual({ name: 'rpi4', namespace: 'lab', labels: { team: 'boards' } });
    expect(setCr.spec).toEqual(expectedSetSpec);
  });

  it('resolves Outputs in its args to the same objects', async () => {
    const memory = new VirtualTargetClass('pool-outputs-source', {
      provisioner: 'qemu.jumpstarter.dev',
      parameters: { memory: '8Gi' },
    }).parameters.apply((p) => p.memory as string);
    const pool = new QemuPool('pool-outputs', {
      ...rpi4,
      metadata: pulumi.output({ name: 'rpi4', namespace: pulumi.output('lab'), labels: { team: 'boards' } }),
      memory,
      cpu: Promise.resolve(4),
      labels: { board: pulumi.output('rpi4'), virtual: 'true' },
      drivers: pulumi.output(rpi4.drivers),
    });
    await stack.settle();
    const [cls, set] = stack.childrenOf(stack.one(POOL, 'pool-outputs'));
    expect(stack.childrenOf(cls)[0].inputs.spec).toEqual(expectedClassSpec);
    expect(stack.childrenOf(set)[0].inputs.spec).toEqual(expectedSetSpec);
    expect(await valueOf(pool.className)).toBe('rpi4');
    expect(await valueOf(pool.selector)).toEqual({ matchLabels: { board: 'rpi4', virtual: 'true' } });
  });

  it('defaults to one QEMU driver and the CRD defaults, and can name the class separately', async () => {
    const pool = new QemuPool('ci', { className: 'qemu-ci', labels: { board: 'x86' } });
    await stack.settle();
    const [cls, set] = stack.childrenOf(stack.one(POOL, 'ci'));
    expect(stack.childrenOf(cls)[0].inputs).toEqual({
      apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
      kind: 'VirtualTargetClass',
      metadata: { name: 'qemu-ci' },
      spec: {
        provisioner: 'qemu.jumpstarter.dev',
        bindingMode: 'Immediate',
        reclaimPolicy: 'Delete',
        parameters: {},
      },
    });
    const setCr = stack.childrenOf(set)[0].inputs;
    expect(setCr.metadata).toEqual({ name: 'ci' });
    expect(setCr.spec).toMatchObject({
      minReplicas: 0,
      maxReplicas: 4,
      minAvailableReplicas: 0,
      scaleDownCooldown: '5m',
      virtualTargetClassName: 'qemu-ci',
      template: { spec: { drivers: [{ name: 'qemu', type: 'jumpstarter_driver_qemu.driver.Qemu' }] } },
    });
    expect(await valueOf(pool.name)).toBe('ci');
    expect(await valueOf(pool.parameters)).toEqual({});
  });

  it('outputs the parameters each instance gets', async () => {
    const pool = new QemuPool('pool-merged', { ...rpi4, metadata: { name: 'merged' } });
    expect(await valueOf(pool.mergedParameters)).toEqual(expectedClassSpec.parameters);
  });

  it('passes its dependsOn to both custom resources', async () => {
    const crd = new VirtualTargetClass('pool-deps-stand-in', { provisioner: 'qemu.jumpstarter.dev' });
    new QemuPool('pool-deps', { labels: { board: 'x86' } }, { dependsOn: [crd] });
    await stack.settle();
    const standIn = stack.one(CLASS_CR, 'pool-deps-stand-in').urn;
    const [cls, set] = stack.childrenOf(stack.one(POOL, 'pool-deps'));
    const classCr = stack.childrenOf(cls)[0];
    expect(classCr.dependsOn).toEqual([standIn]);
    expect([...stack.childrenOf(set)[0].dependsOn].sort()).toEqual([standIn, classCr.urn].sort());
  });

  it('rejects plain args at once, naming the pool prop and registering no children', async () => {
    expect(() => new QemuPool('pool-bad', { labels: { board: 'x' }, memory: '512Ki' })).toThrow(
      /^\[virtual-exporters:index:QemuPool::pool-bad\] invalid QemuPool: memory="512Ki": /,
    );
    await stack.settle();
    expect(stack.childrenOf(stack.one(POOL, 'pool-bad'))).toEqual([]);
  });
});
