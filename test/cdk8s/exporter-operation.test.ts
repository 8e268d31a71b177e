import { describe, expect, it } from '@jest/globals';
import { ExporterOperation } from '../../lib/cdk8s';
import { OperationRuleMessages } from '../../lib/api';
import { buildExporterOperation } from '../../lib/manifests';
import { synth, testChart } from '../support/synth';

describe('ExporterOperation construct', () => {
  it('synthesizes a Recycle by name with the chart namespace', () => {
    const chart = testChart('lab');
    new ExporterOperation(chart, 'Recycle', {
      metadata: { name: 'recycle-pool-3' },
      operation: 'Recycle',
      exporterName: 'pool-3',
      ttlSecondsAfterFinished: 600,
    });
    expect(synth(chart)).toEqual([
      {
        apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
        kind: 'ExporterOperation',
        metadata: { name: 'recycle-pool-3', namespace: 'lab' },
        spec: { operation: 'Recycle', exporterName: 'pool-3', ttlSecondsAfterFinished: 600 },
      },
    ]);
  });

  it('synthesizes every field exactly as the builder does', () => {
    const chart = testChart('lab');
    const props = {
      operation: 'qemu.jumpstarter.dev/Reflash' as const,
      exporterSetName: 'pool',
      selector: { matchExpressions: [{ key: 'firmware', operator: 'In' as const, values: ['v1'] }] },
      parameters: { image: 'fw-v2.bin' },
      activeDeadlineSeconds: 3600,
      ttlSecondsAfterFinished: 0,
    };
    new ExporterOperation(chart, 'Reflash', {
      metadata: { name: 'reflash', labels: { team: 'a' } },
      ...props,
    });
    expect(synth(chart)).toEqual([
      buildExporterOperation({ name: 'reflash', namespace: 'lab', labels: { team: 'a' }, ...props }),
    ]);
  });

  it.each([
    [
      'an unknown operation',
      { operation: 'Reboot' as never, exporterName: 'pool-0' },
      `operation="Reboot": ${OperationRuleMessages.operationName}`,
    ],
    [
      'both targets',
      { operation: 'Drain' as const, exporterName: 'pool-0', exporterSetName: 'pool' },
      `exporterName/exporterSetName: ${OperationRuleMessages.oneTarget}`,
    ],
    [
      'no target',
      { operation: 'Drain' as const },
      `exporterName/exporterSetName: ${OperationRuleMessages.oneTarget}`,
    ],
    [
      'a selector without a set',
      { operation: 'Recycle' as const, exporterName: 'pool-0', selector: { matchLabels: { a: 'b' } } },
      `selector={"matchLabels":{"a":"b"}}: ${OperationRuleMessages.selectorNeedsSet}`,
    ],
    [
      'a deadline of 0',
      { operation: 'Recycle' as const, exporterName: 'pool-0', activeDeadlineSeconds: 0 },
      'activeDeadlineSeconds=0: must be greater than or equal to 1',
    ],
    [
      'a negative TTL',
      { operation: 'Recycle' as const, exporterName: 'pool-0', ttlSecondsAfterFinished: -1 },
      'ttlSecondsAfterFinished=-1: must be greater than or equal to 0',
    ],
  ])('rejects %s in the constructor, naming the path, the prop and the rule', (_what, props, line) => {
    const chart = testChart('lab');
    expect(() => new ExporterOperation(chart, 'Bad', props)).toThrow(
      `[test/Bad] invalid ExporterOperation: ${line}`,
    );
  });
});
