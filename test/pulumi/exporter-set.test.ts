import { describe, expect, it } from '@jest/globals';
import * as pulumi from '@pulumi/pulumi';
import { RuleMessages, type JsonObject } from '../../lib/api';
import { MockStack, valueOf } from './support/mock-stack';

const stack = await MockStack.start();
const { ExporterSet, VirtualTargetClass } = await import('../../lib/pulumi');

const TYPE = 'virtual-exporters:index:ExporterSet';
const SET_TYPE = 'kubernetes:virtualtarget.jumpstarter.dev/v1alpha1:ExporterSet';
const CLASS_TYPE = 'kubernetes:virtualtarget.jumpstarter.dev/v1alpha1:VirtualTargetClass';
const template = { labels: { board: 'rpi4', virtual: 'true' } };

function qemuClass(name: string, parameters?: Record<string, any>, namespace = 'lab') {
  return new VirtualTargetClass(name, {
    metadata: { name: 'qemu', namespace },
    provisioner: 'qemu.jumpstarter.dev',
    parameters,
  });
}

describe('ExporterSet component', () => {
  it('registers one ExporterSet under the component with the defaults and the selector derived from the labels', async () => {
    const set = new ExporterSet('es-defaults', {
      metadata: { namespace: 'lab' },
      virtualTargetClass: qemuClass('es-defaults-class'),
      template,
    });
    await stack.settle();
    const component = stack.one(TYPE, 'es-defaults');
    expect(stack.childrenOf(component).map((c) => `${c.type}::${c.name}`)).toEqual([
      `${SET_TYPE}::es-defaults`,
    ]);
    expect(stack.one(SET_TYPE, 'es-defaults').inputs).toEqual({
      apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
      kind: 'ExporterSet',
      metadata: { name: 'es-defaults', namespace: 'lab' },
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
    expect(await valueOf(set.selector)).toEqual({ matchLabels: { board: 'rpi4', virtual: 'true' } });
    expect(await valueOf(set.virtualTargetClassName)).toBe('qemu');
  });

  it('waits for its class: the class custom resource and the component dependsOn', async () => {
    const crd = qemuClass('es-deps-stand-in-for-a-crd', undefined, 'other');
    const cls = qemuClass('es-deps-class');
    new ExporterSet(
      'es-deps',
      { metadata: { namespace: 'lab' }, virtualTargetClass: cls, template },
      { dependsOn: crd },
    );
    await stack.settle();
    // Depending on a component means depending on its children.
    expect([...stack.one(SET_TYPE, 'es-deps').dependsOn].sort()).toEqual(
      [
        stack.one(CLASS_TYPE, 'es-deps-stand-in-for-a-crd').urn,
        stack.one(CLASS_TYPE, 'es-deps-class').urn,
      ].sort(),
    );
  });

  it('applies every arg, with the cooldown as given, and outputs the merged parameters', async () => {
    const set = new ExporterSet('es-full', {
      metadata: { name: 'pool', namespace: 'lab', labels: { team: 'a' } },
      virtualTargetClass: qemuClass('es-full-class', { resources: { cpu: 2, memory: '2Gi' }, tags: ['a'] }),
      minReplicas: 1,
      maxReplicas: 0,
      minAvailableReplicas: 3,
      scaleDownCooldown: '1m30s',
      recycleStrategy: 'InPlaceReuse',
      parameters: { resources: { memory: '8Gi' }, tags: ['b'] },
      images: { runtime: { image: 'quay.io/x/runtime:2', imagePullPolicy: 'Always' } },
      selector: {
        matchLabels: { board: 'rpi4' },
        matchExpressions: [{ key: 'virtual', operator: 'Exists' }],
      },
      template: {
        labels: { board: 'rpi4', virtual: 'true' },
        annotations: { owner: 'lab' },
        drivers: [
          { type: 'jumpstarter_driver_qemu.driver.Qemu', config: { smp: 2 } },
          { name: 'console', ref: 'qemu.console' },
        ],
      },
    });
    await stack.settle();
    const cr = stack.one(SET_TYPE, 'es-full').inputs;
    expect(cr.metadata).toEqual({ name: 'pool', namespace: 'lab', labels: { team: 'a' } });
    expect(cr.spec).toEqual({
      minReplicas: 1,
      maxReplicas: 0,
      minAvailableReplicas: 3,
      scaleDownCooldown: '1m30s',
      recycleStrategy: 'InPlaceReuse',
      virtualTargetClassName: 'qemu',
      parameters: { resources: { memory: '8Gi' }, tags: ['b'] },
      images: { runtime: { image: 'quay.io/x/runtime:2', imagePullPolicy: 'Always' } },
      selector: {
        matchLabels: { board: 'rpi4' },
        matchExpressions: [{ key: 'virtual', operator: 'Exists' }],
      },
      template: {
        metadata: { labels: { board: 'rpi4', virtual: 'true' }, annotations: { owner: 'lab' } },
        spec: {
          drivers: [
            { name: 'qemu', type: 'jumpstarter_driver_qemu.driver.Qemu', config: { smp: 2 } },
            { name: 'console', ref: 'qemu.console' },
          ],
        },
      },
    });
    // Objects merge, lists and scalars from the set replace (SPEC §1).
    expect(await valueOf(set.mergedParameters)).toEqual({
      resources: { cpu: 2, memory: '8Gi' },
      tags: ['b'],
    });
    expect(await valueOf(set.name)).toBe('pool');
  });

  it('resolves Outputs anywhere in its args, including a class name from another resource', async () => {
    const elsewhere = qemuClass('es-outputs-class');
    const set = new ExporterSet('es-outputs', {
      metadata: pulumi.output({ name: 'pool', namespace: elsewhere.namespace.apply((ns) => ns ?? '') }),
      virtualTargetClass: elsewhere.name,
      maxReplicas: pulumi.output(8),
      scaleDownCooldown: Promise.resolve('10m'),
      template: pulumi.output({
        labels: { board: pulumi.output('rpi4') },
        drivers: [pulumi.output({ type: 'jumpstarter_driver_qemu.driver.Qemu' })],
      }),
    });
    await stack.settle();
    const cr = stack.one(SET_TYPE, 'es-outputs').inputs;
    expect(cr.metadata).toEqual({ name: 'pool', namespace: 'lab' });
    expect(cr.spec).toMatchObject({
      maxReplicas: 8,
      scaleDownCooldown: '10m',
      virtualTargetClassName: 'qemu',
      selector: { matchLabels: { board: 'rpi4' } },
      template: {
        metadata: { labels: { board: 'rpi4' } },
        spec: { drivers: [{ type: 'jumpstarter_driver_qemu.driver.Qemu' }] },
      },
    });
    // A class given by name is not this program's: its parameters are unknown here.
    expect(await valueOf(set.mergedParameters)).toBeUndefined();
    // ... and no dependency on it is invented.
    expect(stack.one(SET_TYPE, 'es-outputs').dependsOn).toEqual([]);
  });

  it('rejects plain args at once, with the message the cdk8s construct gives', () => {
    expect(
      () =>
        new ExporterSet('es-bad', {
          virtualTargetClass: 'qemu',
          template,
          minReplicas: 5,
          maxReplicas: 2,
        }),
    ).toThrow(
      `[virtual-exporters:index:ExporterSet::es-bad] invalid ExporterSet: minReplicas=5: ${RuleMessages.minReplicasLeMax}`,
    );
  });

  it('takes the cooldown as a Go duration string, the one unit that differs from cdk8s, and rejects other text', () => {
    expect(
      () =>
        new ExporterSet('es-bad-cooldown', {
          virtualTargetClass: 'qemu',
          template,
          scaleDownCooldown: '5 minutes',
        }),
    ).toThrow(
      '[virtual-exporters:index:ExporterSet::es-bad-cooldown] invalid ExporterSet: scaleDownCooldown="5 minutes": scaleDownCooldown must be a duration such as 30s, 5m or 1h30m',
    );
  });

  it('checks a plain class at once too: merged parameters go through the provisioner', () => {
    const cls = qemuClass('es-bad-params-class', { resources: { cpu: 4 } });
    expect(
      () =>
        new ExporterSet('es-bad-params', {
          metadata: { namespace: 'lab' },
          virtualTargetClass: cls,
          template,
          parameters: { resources: { memory: 'lots' } },
        }),
    ).toThrow(
      /^\[virtual-exporters:index:ExporterSet::es-bad-params\] invalid ExporterSet: parameters\.resources\.memory="lots": /,
    );
  });

  it('rejects parameters nested 10,000 deep at once, naming the prop and the limit', () => {
    let deep: JsonObject = { leaf: 1 };
    for (let i = 1; i < 10_000; i++) deep = { a: deep };
    expect(
      () =>
        new ExporterSet('es-deep', {
          metadata: { namespace: 'lab' },
          virtualTargetClass: 'qemu',
          template,
          parameters: deep,
        }),
    ).toThrow(
      /^\[virtual-exporters:index:ExporterSet::es-deep\] invalid ExporterSet: parameters: is nested more than 128 levels deep/,
    );
  });
});
