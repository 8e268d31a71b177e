/**
 * Scheduled warm buffers on the cdk8s ExporterSet (issue 17): the cron is a cdk8s `Cron`, the window
 * and lead time `Duration`s; they synthesize as the CRD's text, and bad values fail at construction
 * with the CRD's messages (or, for what only the cron library can tell, the controller's).
 */
import { describe, expect, it } from '@jest/globals';
import { Cron, Duration } from 'cdk8s';
import {
  ExporterSet,
  VirtualTargetClass,
  type ExporterSetProps,
  type ExporterSetScheduleProps,
} from '../../lib/cdk8s';
import { RuleMessages } from '../../lib/api';
import { findObject, synth, testChart } from '../support/synth';

const template = { labels: { board: 'rpi4' } };
const workday = Cron.schedule({ minute: '0', hour: '8', weekDay: '1-5' });

function pool(props: Partial<ExporterSetProps>) {
  const chart = testChart('lab');
  const virtualTargetClass = new VirtualTargetClass(chart, 'Class', {
    metadata: { name: 'qemu' },
    provisioner: 'qemu.jumpstarter.dev',
  });
  new ExporterSet(chart, 'Pool', {
    metadata: { name: 'pool' },
    virtualTargetClass,
    template,
    maxReplicas: 10,
    ...props,
  });
  return chart;
}

const schedule = (change: Partial<ExporterSetScheduleProps> = {}): ExporterSetScheduleProps => ({
  name: 'workday',
  cron: workday,
  duration: Duration.hours(10),
  minAvailableReplicas: 6,
  ...change,
});

describe('ExporterSet construct › schedules', () => {
  it('writes the cron expression and Go durations', () => {
    const chart = pool({
      schedules: [
        schedule({ timeZone: 'Europe/Berlin', leadTime: Duration.minutes(5), minReplicas: 2 }),
        { name: 'nightly', cron: Cron.daily(), duration: Duration.minutes(90), minAvailableReplicas: 4 },
      ],
    });
    expect(findObject(synth(chart), 'ExporterSet', 'pool').spec).toMatchObject({
      schedules: [
        {
          name: 'workday',
          cron: '0 8 * * 1-5',
          duration: '10h',
          timeZone: 'Europe/Berlin',
          leadTime: '5m',
          minAvailableReplicas: 6,
          minReplicas: 2,
        },
        { name: 'nightly', cron: '0 0 * * *', duration: '1h30m', minAvailableReplicas: 4 },
      ],
    });
  });

  it('leaves schedules out when none are given', () => {
    const spec = findObject(synth(pool({})), 'ExporterSet', 'pool').spec as Record<string, unknown>;
    expect(spec.schedules).toBeUndefined();
  });

  const cases: [string, Partial<ExporterSetScheduleProps>, string][] = [
    [
      'a cron whose hour does not exist',
      { cron: Cron.schedule({ minute: '0', hour: '24' }) },
      'schedules[0].cron="0 24 * * *": is not a cron expression the controller can read',
    ],
    [
      'an unknown time zone',
      { timeZone: 'Europe/Atlantis' },
      `schedules[0].timeZone="Europe/Atlantis": is not a time zone of the tz database; ${RuleMessages.scheduleTimeZone}`,
    ],
    [
      'a window longer than the period',
      { cron: Cron.hourly(), duration: Duration.minutes(61) },
      'schedules[0].duration="1h1m": is longer than the shortest gap between occurrences of cron "0 * * * *" (1h0m0s)',
    ],
    [
      'a window of zero',
      { duration: Duration.seconds(0) },
      `schedules[0].duration="0s": ${RuleMessages.scheduleDurationPositive}`,
    ],
    [
      'a name with capitals',
      { name: 'Workday' },
      `schedules[0].name="Workday": ${RuleMessages.scheduleName}`,
    ],
    [
      'a buffer above maxReplicas',
      { minAvailableReplicas: 11 },
      `schedules[0].minAvailableReplicas=11: ${RuleMessages.scheduleMinAvailableLeMax}`,
    ],
  ];
  it.each(cases)(
    'rejects %s at construction, naming the prop, the value and the rule',
    (_name, change, message) => {
      expect(() => pool({ schedules: [schedule(change)] })).toThrow(
        `[test/Pool] invalid ExporterSet: ${message}`,
      );
    },
  );

  it('rejects two schedules of one name', () => {
    expect(() => pool({ schedules: [schedule(), schedule()] })).toThrow(
      `schedules[1].name="workday": ${RuleMessages.scheduleNamesUnique}`,
    );
  });
});
