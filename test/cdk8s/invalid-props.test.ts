import { describe, expect, it } from '@jest/globals';
import { Duration, Size, type Chart } from 'cdk8s';
import { ExporterSet, ExporterSetController, QemuPool, VirtualTargetClass } from '../../lib/cdk8s';
import { parseDuration } from '../../lib/core';
import {
  classPropsOf,
  INVALID_PROPS,
  linesAfterHead,
  propsOf,
  type InvalidPropsCase,
} from '../support/invalid-props';
import { synth, testChart } from '../support/synth';

const SIZE_UNITS: Record<string, (n: number) => Size> = {
  Ki: Size.kibibytes,
  Mi: Size.mebibytes,
  Gi: Size.gibibytes,
  Ti: Size.tebibytes,
};

/** The table's quantity strings and Go durations as cdk8s `Size` and `Duration`. */
function cdk8sProps(props: Record<string, unknown>): any {
  const out: Record<string, unknown> = { ...props };
  for (const key of ['memory', 'storage']) {
    const m = /^(\d+)(Ki|Mi|Gi|Ti)$/.exec(String(props[key] ?? ''));
    if (m) out[key] = SIZE_UNITS[m[2]](Number(m[1]));
    else if (key in props) throw new Error(`the cdk8s test cannot express ${key}=${String(props[key])}`);
  }
  if (typeof props.scaleDownCooldown === 'string') {
    out.scaleDownCooldown = Duration.millis(parseDuration(props.scaleDownCooldown));
  }
  return out;
}

function build(chart: Chart, c: InvalidPropsCase): void {
  const props = cdk8sProps(propsOf(c));
  switch (c.construct) {
    case 'VirtualTargetClass':
      new VirtualTargetClass(chart, 'X', props);
      return;
    case 'ExporterSet': {
      const cls = new VirtualTargetClass(chart, 'Class', classPropsOf(c) as any);
      new ExporterSet(chart, 'X', { ...props, virtualTargetClass: cls });
      return;
    }
    case 'QemuPool':
      new QemuPool(chart, 'X', props);
      return;
    case 'ExporterSetController':
      new ExporterSetController(chart, 'X', props);
  }
}

/**
 * The issue lines cdk8s reports for the case: from the constructor (`[test/X] invalid Kind: ...`) or,
 * for rules between constructs, from synth (`Validation failed ...\n  [test/X] <line>`).
 */
function cdk8sLines(c: InvalidPropsCase): string[] {
  const chart = testChart();
  try {
    build(chart, c);
  } catch (e) {
    return linesAfterHead((e as Error).message, `[test/X] invalid ${c.construct}`);
  }
  try {
    synth(chart);
  } catch (e) {
    const lines = (e as Error).message.split('\n').filter((l) => l.startsWith('  [test/X] '));
    return lines.map((l) => l.slice('  [test/X] '.length));
  }
  throw new Error('the construct accepted the props');
}

describe('invalid props (the table shared with the Pulumi components)', () => {
  it.each(INVALID_PROPS.map((c) => [`${c.construct}: ${c.title}`, c] as const))('rejects %s', (_title, c) => {
    expect(cdk8sLines(c)).toEqual(c.lines);
  });

  it('accepts the base props every case starts from', () => {
    for (const construct of [
      'VirtualTargetClass',
      'ExporterSet',
      'QemuPool',
      'ExporterSetController',
    ] as const) {
      const chart = testChart();
      build(chart, { title: 'valid', construct, props: {}, lines: [] });
      expect(synth(chart).length).toBeGreaterThan(0);
    }
  });
});
