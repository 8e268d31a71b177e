import { describe, expect, it } from '@jest/globals';
import { synthConstructs, synthRaw } from '../../bench/p5-synth';

describe('P5 synth', () => {
  it('compares like with like: the raw ApiObjects synthesize to the constructs’ YAML', () => {
    const built = synthConstructs(3);
    expect(built.objects.map((o) => o.kind)).toEqual([
      'VirtualTargetClass',
      'ExporterSet',
      'VirtualTargetClass',
      'ExporterSet',
      'VirtualTargetClass',
      'ExporterSet',
    ]);
    const raw = synthRaw(built.objects);
    expect(raw.yaml).toBe(built.yaml);
    expect(built.yaml).toContain('name: pool-2');
  });
});
