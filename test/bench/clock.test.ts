import { describe, expect, it } from '@jest/globals';
import { epochNow, estimateOffset, offsetFromSamples, waitUntil } from '../../bench/support/clock';

describe('bench clock', () => {
  it('takes the offset of another clock from the quickest round trip', () => {
    const samples = [
      { sent: 0, received: 10, remote: 108 }, // slow: midpoint 5 → offset 103
      { sent: 20, received: 22, remote: 121 }, // quick: midpoint 21 → offset 100
      { sent: 30, received: 36, remote: 130 },
    ];
    expect(offsetFromSamples(samples)).toEqual({ offsetMs: 100, errorMs: 1 });
    expect(() => offsetFromSamples([])).toThrow('at least one sample');
  });

  it('finds a clock 250 ms ahead within its error bound', async () => {
    const { offsetMs, errorMs } = await estimateOffset(async () => epochNow() + 250, 5);
    expect(Math.abs(offsetMs - 250)).toBeLessThanOrEqual(errorMs + 0.01);
  });

  it('waits for a condition and names it when it never comes', async () => {
    let calls = 0;
    await expect(waitUntil('the third call', () => ++calls >= 3 && calls, { intervalMs: 1 })).resolves.toBe(
      3,
    );
    await expect(waitUntil('never', () => false, { timeoutMs: 20, intervalMs: 5 })).rejects.toThrow(
      'waiting for never',
    );
  });
});
