import { describe, expect, it } from '@jest/globals';
import { Duration } from 'cdk8s';
import { ExporterSet, VirtualTargetClass, type ExporterSetProps } from '../../lib/cdk8s';
import { RuleMessages, type JsonObject } from '../../lib/api';
import { findObject, synth, testChart } from '../support/synth';

function qemuClass(chart: ReturnType<typeof testChart>, parameters?: Record<string, any>) {
  return new VirtualTargetClass(chart, 'Class', {
    metadata: { name: 'qemu' },
    provisioner: 'qemu.jumpstarter.dev',
    parameters,
  });
}

const template = { labels: { board: 'rpi4', virtual: 'true' } };

describe('ExporterSet construct', () => {
  it('writes the defaults and derives the selector from the template labels', () => {
    const chart = testChart('lab');
    new ExporterSet(chart, 'Pool', {
      metadata: { name: 'pool' },
      virtualTargetClass: qemuClass(chart),
      template,
    });
    expect(findObject(synth(chart), 'ExporterSet', 'pool')).toEqual({
      apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
      kind: 'ExporterSet',
      metadata: { name: 'pool', namespace: 'lab' },
      spec: {
        minReplicas: 0,
        maxReplicas: 4,
        minAvailableReplicas: 0,
        scaleDownCooldown: '5m',
        recycleStrategy: 'ExitAndReplace',
        virtualTargetClassName: 'qemu',
        selector: { matchLabels: { board: 'rpi4', virtual: 'true' } },
        template: { metadata: { labels: { board: 'rpi4', virtual: 'true' } }, spec: { drivers: [] } },
      },
    });
  });

  it('synthesizes every prop, with the cooldown as a Go duration', () => {
    const chart = testChart('lab');
    new ExporterSet(chart, 'Pool', {
      metadata: { name: 'pool', labels: { team: 'a' } },
      virtualTargetClass: qemuClass(chart, { resources: { cpu: 2, memory: '2Gi' } }),
      minReplicas: 1,
      maxReplicas: 0,
      minAvailableReplicas: 3,
      scaleDownCooldown: Duration.seconds(90),
      recycleStrategy: 'InPlaceReuse',
      parameters: { resources: { memory: '8Gi' } },
      images: { runtime: { image: 'quay.io/x/runtime:2', imagePullPolicy: 'Always' } },
      selector: {
        matchLabels: { board: 'rpi4' },
        matchExpressions: [{ key: 'virtual', operator: 'Exists' }],
      },
      template: {
        labels: { board: 'rpi4', virtual: 'true' },
        annotations: { owner: 'lab' },
        drivers: [
          { type: 'jumpstarter_driver_qemu.driver.Qemu', config: { smp: 2, disk_size: '8G' } },
          { name: 'console', ref: 'qemu.console' },
        ],
      },
    });
    expect(findObject(synth(chart), 'ExporterSet', 'pool').spec).toEqual({
      minReplicas: 1,
      maxReplicas: 0,
      minAvailableReplicas: 3,
      scaleDownCooldown: '1m30s',
      recycleStrategy: 'InPlaceReuse',
      virtualTargetClassName: 'qemu',
      parameters: { resources: { memory: '8Gi' } },
      images: { runtime: { image: 'quay.io/x/runtime:2', imagePullPolicy: 'Always' } },
      selector: {
        matchLabels: { board: 'rpi4' },
        matchExpressions: [{ key: 'virtual', operator: 'Exists' }],
      },
      template: {
        metadata: { labels: { board: 'rpi4', virtual: 'true' }, annotations: { owner: 'lab' } },
        spec: {
          drivers: [
            {
              name: 'qemu',
              type: 'jumpstarter_driver_qemu.driver.Qemu',
              config: { smp: 2, disk_size: '8G' },
            },
            { name: 'console', ref: 'qemu.console' },
          ],
        },
      },
    });
  });

  it('includes drivers added after construction, with their derived names', () => {
    const chart = testChart();
    const set = new ExporterSet(chart, 'Pool', {
      metadata: { name: 'pool' },
      virtualTargetClass: qemuClass(chart),
      template,
    });
    set.addDriver({ type: 'jumpstarter_driver_power.driver.QemuPower' });
    expect((findObject(synth(chart), 'ExporterSet', 'pool').spec as any).template.spec.drivers).toEqual([
      { name: 'power', type: 'jumpstarter_driver_power.driver.QemuPower' },
    ]);
  });

  it('includes a driver added after the set was already synthesized once (the built manifest is not kept stale)', () => {
    const chart = testChart();
    const set = new ExporterSet(chart, 'Pool', {
      metadata: { name: 'pool' },
      virtualTargetClass: qemuClass(chart),
      template,
    });
    const drivers = () => (findObject(synth(chart), 'ExporterSet', 'pool').spec as any).template.spec.drivers;
    expect(drivers() ?? []).toEqual([]);
    set.addDriver({ type: 'jumpstarter_driver_power.driver.QemuPower' });
    expect(drivers()).toEqual([{ name: 'power', type: 'jumpstarter_driver_power.driver.QemuPower' }]);
  });

  it('accepts a class imported by name and references it', () => {
    const chart = testChart('lab');
    new ExporterSet(chart, 'Pool', {
      metadata: { name: 'pool' },
      virtualTargetClass: VirtualTargetClass.fromName(chart, 'Shared', 'shared-qemu'),
      template,
    });
    expect((findObject(synth(chart), 'ExporterSet', 'pool').spec as any).virtualTargetClassName).toBe(
      'shared-qemu',
    );
  });

  describe('construction-time validation (exact messages)', () => {
    const cases: [string, Partial<ExporterSetProps>, string][] = [
      [
        'minReplicas above maxReplicas',
        { minReplicas: 5, maxReplicas: 2 },
        `minReplicas=5: ${RuleMessages.minReplicasLeMax}`,
      ],
      [
        'minAvailableReplicas above maxReplicas',
        { minAvailableReplicas: 3, maxReplicas: 2 },
        `minAvailableReplicas=3: ${RuleMessages.minAvailableLeMax}`,
      ],
      [
        'type and ref together',
        { template: { ...template, drivers: [{ name: 'x', type: 'a.B', ref: 'a.b' }] } },
        `template.drivers[0]: ${RuleMessages.driverTypeRefExclusive}`,
      ],
      [
        'neither type nor ref',
        { template: { ...template, drivers: [{ name: 'x' }] } },
        `template.drivers[0]: ${RuleMessages.driverTypeOrRef}`,
      ],
      [
        'ref with config',
        { template: { ...template, drivers: [{ name: 'x', ref: 'a.b', config: { a: 1 } }] } },
        `template.drivers[0]: ${RuleMessages.driverRefNoConfig}`,
      ],
      [
        'an empty driver name',
        { template: { ...template, drivers: [{ name: '', type: 'a.B' }] } },
        `template.drivers[0].name="": ${RuleMessages.driverNameNotEmpty}`,
      ],
      [
        'duplicate names after derivation',
        {
          template: {
            ...template,
            drivers: [{ type: 'jumpstarter_driver_power.driver.QemuPower' }, { name: 'power', type: 'x.Y' }],
          },
        },
        `template.drivers[1]="power": ${RuleMessages.driverNamesUnique}`,
      ],
      [
        'a selector that misses the template',
        { selector: { matchLabels: { board: 'rpi5' } } },
        `selector={"matchLabels":{"board":"rpi5"}}: ${RuleMessages.selectorMatchesTemplate}`,
      ],
      [
        'a selector key with an invalid prefix (named as such, not as a template mismatch)',
        { selector: { matchExpressions: [{ key: '-lab.example/board', operator: 'Exists' }] } },
        'selector.matchExpressions[0].key="-lab.example/board": label key must have a DNS-1123 subdomain before "/"',
      ],
      [
        'a bad selector operator',
        { selector: { matchExpressions: [{ key: 'board', operator: 'Like' as any, values: ['rpi4'] }] } },
        `selector.matchExpressions[0].operator="Like": ${RuleMessages.selectorOperator}`,
      ],
    ];
    it.each(cases)('rejects %s', (_name, props, message) => {
      const chart = testChart();
      expect(
        () => new ExporterSet(chart, 'Pool', { virtualTargetClass: qemuClass(chart), template, ...props }),
      ).toThrow(`[test/Pool] invalid ExporterSet: ${message}`);
    });

    it.each([1_000, 10_000])(
      'rejects parameters or a driver config %i levels deep at synth time, naming the prop and the limit',
      (levels) => {
        let deep: JsonObject = { leaf: 1 };
        for (let i = 1; i < levels; i++) deep = { a: deep };
        const chart = testChart();
        expect(
          () =>
            new ExporterSet(chart, 'Pool', {
              virtualTargetClass: qemuClass(chart),
              template,
              parameters: deep,
            }),
        ).toThrow(/^\[test\/Pool\] invalid ExporterSet: parameters: is nested more than 128 levels deep/);
        const other = testChart();
        expect(
          () =>
            new ExporterSet(other, 'Deep', {
              virtualTargetClass: VirtualTargetClass.fromName(other, 'Class', 'qemu'),
              template: { ...template, drivers: [{ type: 'example.Driver', config: deep }] },
            }),
        ).toThrow(
          /^\[test\/Deep\] invalid ExporterSet: template\.drivers\[0\]\.config: is nested more than 128/,
        );
      },
    );

    it('allows any minimums when maxReplicas is 0 (unbounded)', () => {
      const chart = testChart();
      new ExporterSet(chart, 'Pool', {
        virtualTargetClass: qemuClass(chart),
        template,
        maxReplicas: 0,
        minReplicas: 50,
        minAvailableReplicas: 10,
      });
      expect(synth(chart)).toHaveLength(2);
    });

    it('rejects a set with no template labels: its selector would select every Exporter', () => {
      const chart = testChart();
      expect(
        () =>
          new ExporterSet(chart, 'Pool', { virtualTargetClass: qemuClass(chart), template: { labels: {} } }),
      ).toThrow(/^\[test\/Pool\] invalid ExporterSet: /);
    });
  });

  describe('synth-time validation with the class', () => {
    it('rejects a class in another namespace', () => {
      const app = testChart('a');
      const cls = new VirtualTargetClass(app, 'Class', {
        metadata: { name: 'qemu', namespace: 'b' },
        provisioner: 'qemu.jumpstarter.dev',
      });
      new ExporterSet(app, 'Pool', { metadata: { name: 'pool' }, virtualTargetClass: cls, template });
      expect(() => synth(app)).toThrow(
        '[test/Pool] virtualTargetClass="qemu": the class is in namespace "b" but the set is in "a"; a set may only use a class in its own namespace, so define the class there or move the set',
      );
    });

    it('rejects a class whose provisioner nobody knows, listing the known ones', () => {
      const chart = testChart();
      const cls = new VirtualTargetClass(chart, 'Class', {
        metadata: { name: 'c' },
        provisioner: 'foo.example.com',
      });
      new ExporterSet(chart, 'Pool', { virtualTargetClass: cls, template });
      expect(() => synth(chart)).toThrow(
        /\[test\/Pool\] virtualTargetClass="c": VirtualTargetClass "c" uses provisioner "foo\.example\.com", which is not known; known provisioners: android\.jumpstarter\.dev, corellium\.jumpstarter\.dev, qemu-baremetal\.jumpstarter\.dev, qemu-ssh\.jumpstarter\.dev, qemu\.jumpstarter\.dev, ec2\.jumpstarter\.dev/,
      );
    });

    it('accepts a provisioner the JEP names but this version does not implement, without checking parameters', () => {
      const chart = testChart();
      const cls = new VirtualTargetClass(chart, 'Class', {
        provisioner: 'qemu-baremetal.jumpstarter.dev',
        parameters: { hosts: [{ name: 'bench-01', slots: 2 }] },
      });
      new ExporterSet(chart, 'Pool', { virtualTargetClass: cls, template, parameters: { anything: 'goes' } });
      expect(synth(chart)).toHaveLength(2);
    });

    it('previews the merged parameters through the provisioner', () => {
      const chart = testChart();
      const cls = qemuClass(chart, { resources: { cpu: 4, memory: '4Gi' } });
      new ExporterSet(chart, 'Pool', {
        virtualTargetClass: cls,
        template,
        parameters: { resources: { memory: 'lots' } },
      });
      expect(() => synth(chart)).toThrow(/\[test\/Pool\] parameters\.resources\.memory="lots": /);
    });

    it('reports the tcp driver collision at synth time', () => {
      const chart = testChart();
      new ExporterSet(chart, 'Pool', {
        virtualTargetClass: qemuClass(chart),
        template: {
          ...template,
          drivers: [{ name: 'tcp', type: 'jumpstarter_driver_serial.driver.QemuSerial' }],
        },
      });
      expect(() => synth(chart)).toThrow(/\[test\/Pool\] template\.drivers\[0\]\.name="tcp": /);
    });

    it('re-checks drivers added after construction', () => {
      const chart = testChart();
      const set = new ExporterSet(chart, 'Pool', { virtualTargetClass: qemuClass(chart), template });
      set.addDriver({ type: 'jumpstarter_driver_power.driver.QemuPower' });
      set.addDriver({ type: 'jumpstarter_driver_power.driver.OtherPower' });
      expect(() => synth(chart)).toThrow(
        `[test/Pool] template.drivers[1]="power": ${RuleMessages.driverNamesUnique}`,
      );
    });
  });
});
