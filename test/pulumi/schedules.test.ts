/**
 * Scheduled warm buffers on the Pulumi ExporterSet (issue 17): the cron, durations and zone are strings,
 * passed to the custom resource as written; bad values fail in the constructor with the cdk8s
 * construct's lines (the same validation).
 */
import { describe, expect, it } from '@jest/globals';
import * as pulumi from '@pulumi/pulumi';
import { RuleMessages } from '../../lib/api';
import { MockStack, valueOf } from './support/mock-stack';

const stack = await MockStack.start();
const { ExporterSet } = await import('../../lib/pulumi');

const SET_TYPE = 'kubernetes:virtualtarget.jumpstarter.dev/v1alpha1:ExporterSet';
const template = { labels: { board: 'rpi4' } };
const maxReplicas = 10;
const workday = { name: 'workday', cron: '0 8 * * 1-5', duration: '10h', minAvailableReplicas: 6 };

describe('ExporterSet component › schedules', () => {
  it('passes the schedules to the custom resource as written', async () => {
    const schedules = [{ ...workday, timeZone: 'America/New_York', leadTime: '5m', minReplicas: 2 }];
    new ExporterSet('sched-all', {
      metadata: { namespace: 'lab' },
      virtualTargetClass: 'qemu',
      maxReplicas,
      template,
      schedules,
    });
    await stack.settle();
    expect((stack.one(SET_TYPE, 'sched-all').inputs as { spec: object }).spec).toMatchObject({ schedules });
  });

  it('takes the schedules from an Output and checks them when it resolves', async () => {
    const set = new ExporterSet('sched-output', {
      metadata: { namespace: 'lab' },
      virtualTargetClass: 'qemu',
      maxReplicas,
      template,
      schedules: pulumi.output([workday]),
    });
    expect((await valueOf(set.manifest)).spec.schedules).toEqual([workday]);
  });

  it.each([
    [
      'a cron of six fields',
      { ...workday, cron: '0 0 8 * * 1-5' },
      `schedules[0].cron="0 0 8 * * 1-5": ${RuleMessages.scheduleCron}`,
    ],
    [
      'an unknown time zone',
      { ...workday, timeZone: 'Pacific/Nowhere' },
      `schedules[0].timeZone="Pacific/Nowhere": is not a time zone of the tz database; ${RuleMessages.scheduleTimeZone}`,
    ],
    [
      'a window longer than the period',
      { ...workday, cron: '@daily', duration: '25h' },
      'schedules[0].duration="25h": is longer than the shortest gap between occurrences of cron "@daily" (24h0m0s), so the window would never close: make it at most 24h0m0s, or open windows less often',
    ],
    [
      'a lead time in words',
      { ...workday, leadTime: 'ten minutes' },
      `schedules[0].leadTime="ten minutes": ${RuleMessages.scheduleLeadTime}`,
    ],
  ])('rejects %s in the constructor with the construct’s line', (_name, schedule, line) => {
    expect(
      () =>
        new ExporterSet('sched-bad', {
          virtualTargetClass: 'qemu',
          maxReplicas,
          template,
          schedules: [schedule],
        }),
    ).toThrow(`[virtual-exporters:index:ExporterSet::sched-bad] invalid ExporterSet: ${line}`);
  });
});
