/**
 * spec.forecast (issue 17) on the cdk8s ExporterSet and QemuPool: synthesized as written, left out when
 * not given, and bad values fail at construction with the CRD's messages.
 */
import { describe, expect, it } from '@jest/globals';
import { ExporterSet, QemuPool, VirtualTargetClass, type ExporterSetProps } from '../../lib/cdk8s';
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

describe('ExporterSet construct › forecast', () => {
  it('writes spec.forecast as given', () => {
    const spec = findObject(synth(pool({ forecast: { mode: 'Apply', maxExtra: 4 } })), 'ExporterSet', 'pool')
      .spec as Record<string, unknown>;
    expect(spec.forecast).toEqual({ mode: 'Apply', maxExtra: 4 });
  });

  it('leaves it out when not given (mode Off, today’s behaviour)', () => {
    const spec = findObject(synth(pool({})), 'ExporterSet', 'pool').spec as Record<string, unknown>;
    expect('forecast' in spec).toBe(false);
  });

  it('QemuPool passes it to its set', () => {
    const chart = testChart('lab');
    new QemuPool(chart, 'Q', {
      metadata: { name: 'q' },
      labels: { board: 'q' },
      forecast: { mode: 'ForecastOnly' },
    });
    const spec = findObject(synth(chart), 'ExporterSet', 'q').spec as Record<string, unknown>;
    expect(spec.forecast).toEqual({ mode: 'ForecastOnly' });
  });

  it.each([
    [
      'an unknown mode',
      { forecast: { mode: 'Guess' as any } },
      'forecast.mode="Guess": must be one of Off, ForecastOnly, Apply',
    ],
    [
      'a negative maxExtra',
      { forecast: { maxExtra: -1 } },
      'forecast.maxExtra=-1: must be greater than or equal to 0',
    ],
    [
      'a fractional maxExtra',
      { forecast: { maxExtra: 1.5 } },
      'forecast.maxExtra=1.5: must be a whole number',
    ],
  ])('rejects %s with the CRD’s message', (_name, props, message) => {
    expect(() => pool(props)).toThrow(`[test/Pool] invalid ExporterSet: ${message}`);
  });
});
