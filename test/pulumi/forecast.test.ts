/**
 * spec.forecast (issue 17) on the Pulumi ExporterSet: reaches the custom resource as written, and a bad
 * value fails in the constructor with the cdk8s construct's line.
 */
import { describe, expect, it } from '@jest/globals';
import { MockStack } from './support/mock-stack';

const stack = await MockStack.start();
const { ExporterSet } = await import('../../lib/pulumi');

const SET_TYPE = 'kubernetes:virtualtarget.jumpstarter.dev/v1alpha1:ExporterSet';
const template = { labels: { board: 'rpi4' } };

describe('ExporterSet component › forecast', () => {
  it('passes spec.forecast to the custom resource', async () => {
    new ExporterSet('fc-all', {
      metadata: { namespace: 'lab' },
      virtualTargetClass: 'qemu',
      template,
      forecast: { mode: 'Apply', maxExtra: 3 },
    });
    await stack.settle();
    expect((stack.one(SET_TYPE, 'fc-all').inputs as { spec: object }).spec).toMatchObject({
      forecast: { mode: 'Apply', maxExtra: 3 },
    });
  });

  it('rejects an unknown mode in the constructor', () => {
    expect(
      () =>
        new ExporterSet('fc-bad', {
          virtualTargetClass: 'qemu',
          template,
          forecast: { mode: 'Guess' as any },
        }),
    ).toThrow('forecast.mode="Guess": must be one of Off, ForecastOnly, Apply');
  });
});
