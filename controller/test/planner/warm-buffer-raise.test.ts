import { describe, expect, it } from '@jest/globals';
import { effectiveBuffer, raisedSpec, type BufferRaise } from '../../src/planner/demand/warm-buffer-raise';
import type { SpecValues } from '../../src/planner';

const spec = { minReplicas: 1, maxReplicas: 10, minAvailable: 2 } as SpecValues;
const raise = (name: string, minAvailable: number, minReplicas?: number): BufferRaise => ({
  source: name === 'forecast' ? 'forecast' : 'schedule',
  name,
  minAvailable,
  ...(minReplicas !== undefined ? { minReplicas } : {}),
});

describe('effective warm buffer', () => {
  const cases: [string, BufferRaise[], number, number, string[]][] = [
    ['no raise keeps the spec', [], 2, 1, []],
    ['a raise above the spec sets it', [raise('workday', 5)], 5, 1, ['workday']],
    ['a raise below the spec never lowers it', [raise('night', 0, 0)], 2, 1, []],
    ['overlapping raises take the maximum', [raise('a', 4), raise('forecast', 6)], 6, 1, ['forecast']],
    ['ties name every raise that reaches the value', [raise('a', 6), raise('b', 6)], 6, 1, ['a', 'b']],
    ['the ceiling caps a raise', [raise('release', 40, 30)], 10, 10, ['release']],
    ['minReplicas is raised on its own', [raise('floor', 1, 4)], 2, 4, ['floor']],
    ['a malformed count asks for nothing', [raise('bad', Number.NaN, -3)], 2, 1, []],
  ];
  it.each(cases)('%s', (_, raises, minAvailable, minReplicas, names) => {
    const buffer = effectiveBuffer(spec, raises);
    expect(buffer.minAvailable).toBe(minAvailable);
    expect(buffer.minReplicas).toBe(minReplicas);
    expect(buffer.raisedBy.map((r) => r.name)).toEqual(names);
    expect(raisedSpec(spec, buffer)).toMatchObject({ minAvailable, minReplicas, maxReplicas: 10 });
  });

  it('maxReplicas 0 is no ceiling: the raise holds whole', () => {
    const unbounded = { minReplicas: 0, maxReplicas: 0, minAvailable: 1 } as SpecValues;
    const buffer = effectiveBuffer(unbounded, [raise('forecast', 12, 3)]);
    expect([buffer.minAvailable, buffer.minReplicas]).toEqual([12, 3]);
    expect(buffer.raisedBy.map((r) => r.name)).toEqual(['forecast']);
  });

  it('caps nothing when maxReplicas is 0 (no ceiling)', () => {
    const buffer = effectiveBuffer({ ...spec, maxReplicas: 0 }, [raise('release', 40, 30)]);
    expect(buffer).toMatchObject({ minAvailable: 40, minReplicas: 30 });
  });

  it('never goes above the ceiling nor below the spec, whatever is asked', () => {
    for (let i = 0; i < 500; i++) {
      const asks = Array.from({ length: i % 4 }, (_, k) =>
        raise(`w${k}`, (i * 7 + k * 13) % 25, (i * 3 + k) % 17),
      );
      const buffer = effectiveBuffer(spec, asks);
      expect(buffer.minAvailable).toBeGreaterThanOrEqual(spec.minAvailable);
      expect(buffer.minAvailable).toBeLessThanOrEqual(spec.maxReplicas);
      expect(buffer.minReplicas).toBeGreaterThanOrEqual(spec.minReplicas);
      expect(buffer.minReplicas).toBeLessThanOrEqual(spec.maxReplicas);
    }
  });
});
