import { describe, expect, it } from '@jest/globals';
import { judgeDrain } from '../../bench/p6-drain';

const cooldownMs = 5000;
const windowStart = 10_000;
const deletesAt = (first: number, spread = 40, count = 20) =>
  Array.from({ length: count }, (_, i) => first + (i * spread) / Math.max(1, count - 1));

describe('P6 drain verdict', () => {
  it('passes when all the surplus goes in one step once the window elapsed', () => {
    const verdict = judgeDrain({
      cooldownMs,
      surplusAt: 9990,
      windowStart,
      deletes: deletesAt(15_100),
      disables: [],
    });
    expect(verdict).toEqual({ pass: true, reasons: [] });
  });

  it('fails an early delete, a late one, a missing one and a window never persisted', () => {
    expect(
      judgeDrain({ cooldownMs, surplusAt: 9990, windowStart, deletes: deletesAt(12_000), disables: [] })
        .reasons,
    ).toEqual(['a delete came 3000 ms before the cooldown ended']);
    expect(
      judgeDrain({
        cooldownMs,
        surplusAt: 9990,
        windowStart,
        deletes: deletesAt(15_100, 10_000),
        disables: [],
      }).reasons,
    ).toEqual(['the last delete came 10100 ms after the cooldown ended']);
    expect(
      judgeDrain({
        cooldownMs,
        surplusAt: 9990,
        windowStart,
        deletes: deletesAt(15_100, 40, 19),
        disables: [],
      }).reasons,
    ).toEqual(['19 of 20 surplus instances deleted']);
    expect(
      judgeDrain({ cooldownMs, surplusAt: 10_000, deletes: deletesAt(15_100), disables: [] }).reasons,
    ).toEqual(['the controller persisted no scaleDownWindowStart']);
  });
});
