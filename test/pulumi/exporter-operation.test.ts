import { describe, expect, it } from '@jest/globals';
import * as pulumi from '@pulumi/pulumi';
import { OperationRuleMessages } from '../../lib/api';
import { buildExporterOperation } from '../../lib/manifests';
import { MockStack, valueOf } from './support/mock-stack';

const stack = await MockStack.start();
const { ExporterOperation } = await import('../../lib/pulumi');

const TYPE = 'virtual-exporters:index:ExporterOperation';
const CR_TYPE = 'kubernetes:virtualtarget.jumpstarter.dev/v1alpha1:ExporterOperation';

describe('ExporterOperation component', () => {
  it('registers one custom resource, parented by the component and named after it', async () => {
    const op = new ExporterOperation('recycle-all', {
      operation: 'Recycle',
      exporterSetName: 'pool',
      selector: { matchLabels: { firmware: 'v1' } },
      activeDeadlineSeconds: 3600,
    });
    await stack.settle();
    const component = stack.one(TYPE, 'recycle-all');
    const children = stack.childrenOf(component);
    expect(children.map((c) => `${c.type}::${c.name}`)).toEqual([`${CR_TYPE}::recycle-all`]);
    expect(children[0].inputs).toEqual({
      apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
      kind: 'ExporterOperation',
      metadata: { name: 'recycle-all' },
      spec: {
        operation: 'Recycle',
        exporterSetName: 'pool',
        selector: { matchLabels: { firmware: 'v1' } },
        activeDeadlineSeconds: 3600,
      },
    });
    expect(await valueOf(op.name)).toBe('recycle-all');
  });

  it('resolves args given as Outputs to the same object the builder writes', async () => {
    const op = new ExporterOperation('disable-3', {
      metadata: pulumi.output({ name: 'disable-pool-3', namespace: 'lab' }),
      operation: pulumi.output('Disable' as const),
      exporterName: Promise.resolve('pool-3'),
      ttlSecondsAfterFinished: pulumi.output(60),
    });
    await stack.settle();
    const expected = buildExporterOperation({
      name: 'disable-pool-3',
      namespace: 'lab',
      operation: 'Disable',
      exporterName: 'pool-3',
      ttlSecondsAfterFinished: 60,
    });
    expect(stack.one(CR_TYPE, 'disable-3').inputs).toEqual(expected);
    expect(await valueOf(op.manifest)).toEqual(expected);
  });

  it('rejects plain invalid args in the constructor, naming the component, the prop and the rule', () => {
    expect(
      () => new ExporterOperation('op-bad', { operation: 'Drain', exporterName: 'a', exporterSetName: 'b' }),
    ).toThrow(
      `[virtual-exporters:index:ExporterOperation::op-bad] invalid ExporterOperation: exporterName/exporterSetName: ${OperationRuleMessages.oneTarget}`,
    );
    expect(
      () => new ExporterOperation('op-bad-2', { operation: 'Reboot' as never, exporterName: 'a' }),
    ).toThrow(
      `[virtual-exporters:index:ExporterOperation::op-bad-2] invalid ExporterOperation: operation="Reboot": ${OperationRuleMessages.operationName}`,
    );
  });
});
