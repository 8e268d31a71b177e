import { describe, expect, it } from '@jest/globals';
import { Duration, Size } from 'cdk8s';
import { ExporterSet, QemuPool, VirtualTargetClass } from '../../lib/cdk8s';
import { synth, testChart } from '../support/synth';

describe('QemuPool construct', () => {
  it('synthesizes the same objects as the equivalent hand-written class and set', () => {
    const pooled = testChart('lab');
    new QemuPool(pooled, 'Rpi4', {
      metadata: { name: 'rpi4' },
      arch: 'aarch64',
      machineType: 'virt',
      cpu: 4,
      memory: Size.gibibytes(8),
      storage: Size.gibibytes(16),
      firmware: { url: 'registry.example.com/firmware/rpi4:latest', digest: 'sha256:abc' },
      kvm: true,
      extraParameters: { bootTimeout: 120 },
      labels: { board: 'rpi4', virtual: 'true' },
      drivers: [
        { type: 'jumpstarter_driver_qemu.driver.Qemu' },
        { type: 'jumpstarter_driver_power.driver.QemuPower' },
      ],
      minReplicas: 1,
      maxReplicas: 20,
      minAvailableReplicas: 2,
      scaleDownCooldown: Duration.minutes(10),
      recycleStrategy: 'InPlaceReuse',
      bindingMode: 'Immediate',
      scheduling: { nodeSelector: { 'kubernetes.io/arch': 'arm64' } },
      images: { runtime: { image: 'quay.io/x/runtime:1' } },
    });

    const handWritten = testChart('lab');
    const cls = new VirtualTargetClass(handWritten, 'Class', {
      metadata: { name: 'rpi4' },
      provisioner: 'qemu.jumpstarter.dev',
      bindingMode: 'Immediate',
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
    });
    new ExporterSet(handWritten, 'Set', {
      metadata: { name: 'rpi4' },
      virtualTargetClass: cls,
      minReplicas: 1,
      maxReplicas: 20,
      minAvailableReplicas: 2,
      scaleDownCooldown: Duration.minutes(10),
      recycleStrategy: 'InPlaceReuse',
      template: {
        labels: { board: 'rpi4', virtual: 'true' },
        drivers: [
          { type: 'jumpstarter_driver_qemu.driver.Qemu' },
          { type: 'jumpstarter_driver_power.driver.QemuPower' },
        ],
      },
    });

    expect(synth(pooled)).toEqual(synth(handWritten));
  });

  it('defaults to one QEMU driver and the CRD defaults, and can name the class separately', () => {
    const chart = testChart();
    const pool = new QemuPool(chart, 'Ci', {
      metadata: { name: 'ci' },
      className: 'qemu-ci',
      labels: { board: 'x86' },
    });
    const [cls, set] = synth(chart) as any[];
    expect(cls).toEqual({
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
    expect(set.spec.virtualTargetClassName).toBe('qemu-ci');
    expect(set.spec.template.spec.drivers).toEqual([
      { name: 'qemu', type: 'jumpstarter_driver_qemu.driver.Qemu' },
    ]);
    expect(set.spec).toMatchObject({
      minReplicas: 0,
      maxReplicas: 4,
      minAvailableReplicas: 0,
      scaleDownCooldown: '5m',
    });
    expect(pool.exporterSet.virtualTargetClass).toBe(pool.virtualTargetClass);
  });

  it('includes drivers added after construction', () => {
    const chart = testChart();
    const pool = new QemuPool(chart, 'Ci', { metadata: { name: 'ci' }, labels: { board: 'x86' } });
    pool.addDriver({ type: 'jumpstarter_driver_serial.driver.QemuSerial' });
    const set = synth(chart).find((o) => o.kind === 'ExporterSet') as any;
    expect(set.spec.template.spec.drivers.map((d: any) => d.type)).toEqual([
      'jumpstarter_driver_qemu.driver.Qemu',
      'jumpstarter_driver_serial.driver.QemuSerial',
    ]);
  });

  describe('validation names the pool prop', () => {
    it.each([
      [{ cpu: 2.5 }, /^\[test\/P\] invalid QemuPool: cpu=2\.5: must be a positive whole number of CPU cores/],
      [{ cpu: 0 }, /^\[test\/P\] invalid QemuPool: cpu=0: /],
      [{ memory: Size.kibibytes(512) }, /^\[test\/P\] invalid QemuPool: memory="512Ki": /],
      [{ arch: 'riscv64' }, /^\[test\/P\] invalid QemuPool: arch="riscv64": /],
      [
        { firmware: { url: 'x', digest: 'md5:1' } },
        /^\[test\/P\] invalid QemuPool: firmware\.digest="md5:1": /,
      ],
      [{ extraParameters: { kvm: 'yes' } }, /^\[test\/P\] invalid QemuPool: kvm="yes": /],
      [
        { minReplicas: 5, maxReplicas: 2 },
        /^\[test\/P\] invalid QemuPool: minReplicas=5: minReplicas must be less than/,
      ],
      [{ labels: {} }, /^\[test\/P\] invalid QemuPool: labels=\{\}: give the instances at least one label/],
      [
        { labels: { 'bad key!': 'x' } },
        /\n {2}labels\[bad key!\]="bad key!": label key must have a name part/,
      ],
      [
        { drivers: [{ name: 'tcp', type: 'jumpstarter_driver_serial.driver.QemuSerial' }] },
        /^\[test\/P\] invalid QemuPool: drivers\[0\]\.name="tcp": /,
      ],
    ])('rejects %j', (props, message) => {
      expect(() => new QemuPool(testChart(), 'P', { labels: { board: 'x' }, ...(props as any) })).toThrow(
        message,
      );
    });
  });
});
