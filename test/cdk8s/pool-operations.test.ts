/**
 * The pool-operation props of issue 16 on the cdk8s ExporterSet: scaleInStrategy, updateStrategy and
 * recycleRequestedAt (a Date) synthesize as written, and bad values fail at construction with the
 * CRD's messages.
 */
import { describe, expect, it } from '@jest/globals';
import { ExporterSet, VirtualTargetClass, type ExporterSetProps } from '../../lib/cdk8s';
import { RuleMessages } from '../../lib/api';
import { RECYCLE_REQUESTED_AT_MESSAGE } from '../../lib/core';
import { findObject, synth, testChart } from '../support/synth';

const template = { labels: { board: 'rpi4' } };

function pool(props: Partial<ExporterSetProps>) {
  const chart = testChart('lab');
  const virtualTargetClass = new VirtualTargetClass(chart, 'Class', {
    metadata: { name: 'qemu' },
    provisioner: 'qemu.jumpstarter.dev',
  });
  new ExporterSet(chart, 'Pool', { metadata: { name: 'pool' }, virtualTargetClass, template, ...props });
  return chart;
}

describe('ExporterSet construct › pool operations', () => {
  it('writes the three fields as given, the recycle time as RFC 3339 in UTC', () => {
    const chart = pool({
      scaleInStrategy: { selectors: [{ matchLabels: { tier: 'canary' } }], basePolicy: 'Oldest' },
      updateStrategy: { type: 'Proactive', maxSurge: '50%', maxUnavailable: 1 },
      recycleRequestedAt: new Date(Date.UTC(2026, 10, 26, 18, 0, 0)),
    });
    expect(findObject(synth(chart), 'ExporterSet', 'pool').spec).toMatchObject({
      scaleInStrategy: { selectors: [{ matchLabels: { tier: 'canary' } }], basePolicy: 'Oldest' },
      updateStrategy: { type: 'Proactive', maxSurge: '50%', maxUnavailable: 1 },
      recycleRequestedAt: '2026-11-26T18:00:00.000Z',
    });
  });

  it('leaves them out when not given, so upstream-shaped manifests stay as they were', () => {
    const spec = findObject(synth(pool({})), 'ExporterSet', 'pool').spec as Record<string, unknown>;
    expect(Object.keys(spec)).not.toEqual(
      expect.arrayContaining(['scaleInStrategy', 'updateStrategy', 'recycleRequestedAt']),
    );
    expect(spec.scaleInStrategy ?? spec.updateStrategy ?? spec.recycleRequestedAt).toBeUndefined();
  });

  const cases: [string, Partial<ExporterSetProps>, string][] = [
    [
      'an unknown base policy',
      { scaleInStrategy: { basePolicy: 'Biggest' as any } },
      'scaleInStrategy.basePolicy="Biggest": must be one of Oldest, Newest, Random',
    ],
    [
      'a scale-in selector with a bad operator',
      { scaleInStrategy: { selectors: [{ matchExpressions: [{ key: 'tier', operator: 'Like' as any }] }] } },
      `scaleInStrategy.selectors[0].matchExpressions[0].operator="Like": ${RuleMessages.selectorOperator}`,
    ],
    [
      'nine scale-in selectors',
      { scaleInStrategy: { selectors: Array.from({ length: 9 }, () => ({})) } },
      'scaleInStrategy.selectors=9: must have at most 8 selectors',
    ],
    [
      'an unknown update strategy',
      { updateStrategy: { type: 'Sometimes' as any } },
      'updateStrategy.type="Sometimes": must be one of Proactive, Opportunistic, Unmanaged',
    ],
    [
      'a maxSurge of 250%',
      { updateStrategy: { maxSurge: '250%' } },
      `updateStrategy.maxSurge="250%": ${RuleMessages.maxSurgeValue}`,
    ],
    [
      'a negative maxUnavailable',
      { updateStrategy: { maxUnavailable: -1 } },
      `updateStrategy.maxUnavailable=-1: ${RuleMessages.maxUnavailableValue}`,
    ],
    [
      'a fractional maxSurge',
      { updateStrategy: { maxSurge: 1.5 } },
      'updateStrategy.maxSurge=1.5: must be a whole number or a percentage string such as 25%',
    ],
    [
      'maxSurge and maxUnavailable both zero',
      { updateStrategy: { maxSurge: 0, maxUnavailable: '0%' } },
      `updateStrategy={"maxSurge":0,"maxUnavailable":"0%"}: ${RuleMessages.updateStrategyNotBothZero}`,
    ],
    [
      'maxSurge with Unmanaged',
      { updateStrategy: { type: 'Unmanaged', maxSurge: 1 } },
      `updateStrategy={"type":"Unmanaged","maxSurge":1}: ${RuleMessages.updateStrategyProactiveOnly}`,
    ],
    [
      'an invalid Date',
      { recycleRequestedAt: new Date('tomorrow') },
      `recycleRequestedAt="Invalid Date": ${RECYCLE_REQUESTED_AT_MESSAGE}`,
    ],
  ];
  it.each(cases)('rejects %s at construction, naming the prop and the rule', (_name, props, message) => {
    expect(() => pool(props)).toThrow(`[test/Pool] invalid ExporterSet: ${message}`);
  });
});
