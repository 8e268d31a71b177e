/**
 * The pool-operation args of issue 16 on the Pulumi ExporterSet: scaleInStrategy, updateStrategy and
 * recycleRequestedAt (RFC 3339 text, or a plain Date) reach the custom resource as written, and bad
 * values fail in the constructor with the cdk8s construct's lines (an Output's value fails the same way
 * when it resolves: test/pulumi/invalid-props.test.ts runs that path, two of its cases on these fields).
 */
import { describe, expect, it } from '@jest/globals';
import * as pulumi from '@pulumi/pulumi';
import { RuleMessages } from '../../lib/api';
import { RECYCLE_REQUESTED_AT_MESSAGE } from '../../lib/core';
import { MockStack, valueOf } from './support/mock-stack';

const stack = await MockStack.start();
const { ExporterSet } = await import('../../lib/pulumi');

const SET_TYPE = 'kubernetes:virtualtarget.jumpstarter.dev/v1alpha1:ExporterSet';
const template = { labels: { board: 'rpi4' } };

describe('ExporterSet component › pool operations', () => {
  it('passes the three fields to the custom resource, a Date as RFC 3339 in UTC', async () => {
    new ExporterSet('po-all', {
      metadata: { namespace: 'lab' },
      virtualTargetClass: 'qemu',
      template,
      scaleInStrategy: { selectors: [{ matchLabels: { tier: 'canary' } }], basePolicy: 'Random' },
      updateStrategy: { type: 'Proactive', maxSurge: 2, maxUnavailable: '25%' },
      recycleRequestedAt: new Date(Date.UTC(2026, 10, 26, 18, 0, 0)),
    });
    await stack.settle();
    expect((stack.one(SET_TYPE, 'po-all').inputs as { spec: object }).spec).toMatchObject({
      scaleInStrategy: { selectors: [{ matchLabels: { tier: 'canary' } }], basePolicy: 'Random' },
      updateStrategy: { type: 'Proactive', maxSurge: 2, maxUnavailable: '25%' },
      recycleRequestedAt: '2026-11-26T18:00:00.000Z',
    });
  });

  it('takes the recycle time as RFC 3339 text from an Output', async () => {
    const set = new ExporterSet('po-output', {
      metadata: { namespace: 'lab' },
      virtualTargetClass: 'qemu',
      template,
      updateStrategy: pulumi.output({ type: 'Opportunistic' as const }),
      recycleRequestedAt: pulumi.output('2026-11-26T18:00:00Z'),
    });
    const manifest = await valueOf(set.manifest);
    expect(manifest.spec.recycleRequestedAt).toBe('2026-11-26T18:00:00Z');
    expect(manifest.spec.updateStrategy).toEqual({ type: 'Opportunistic' });
  });

  it.each([
    [
      'maxSurge and maxUnavailable both zero',
      { updateStrategy: { maxSurge: '0%', maxUnavailable: 0 } },
      `updateStrategy={"maxSurge":"0%","maxUnavailable":0}: ${RuleMessages.updateStrategyNotBothZero}`,
    ],
    [
      'maxUnavailable with Opportunistic',
      { updateStrategy: { type: 'Opportunistic' as const, maxUnavailable: 1 } },
      `updateStrategy={"type":"Opportunistic","maxUnavailable":1}: ${RuleMessages.updateStrategyProactiveOnly}`,
    ],
    [
      'a maxUnavailable of 101%',
      { updateStrategy: { maxUnavailable: '101%' } },
      `updateStrategy.maxUnavailable="101%": ${RuleMessages.maxUnavailableValue}`,
    ],
    [
      'a recycle time without a zone',
      { recycleRequestedAt: '2026-11-26T18:00:00' },
      `recycleRequestedAt="2026-11-26T18:00:00": ${RECYCLE_REQUESTED_AT_MESSAGE}`,
    ],
    [
      'an unknown base policy',
      { scaleInStrategy: { basePolicy: 'Largest' as any } },
      'scaleInStrategy.basePolicy="Largest": must be one of Oldest, Newest, Random',
    ],
  ])('rejects %s in the constructor with the construct’s line', (_name, args, line) => {
    expect(() => new ExporterSet('po-bad', { virtualTargetClass: 'qemu', template, ...args })).toThrow(
      `[virtual-exporters:index:ExporterSet::po-bad] invalid ExporterSet: ${line}`,
    );
  });
});
