import { describe, expect, it } from '@jest/globals';
import { manualClock, realClock } from '../src/clock';

describe('manualClock', () => {
  it('stands still until advanced, then runs due timers in time order with now() at their due time', () => {
    const clock = manualClock(1_000);
    const seen: string[] = [];
    clock.setTimeout(() => seen.push(`b@${clock.now()}`), 20);
    clock.setTimeout(() => seen.push(`a@${clock.now()}`), 10);
    clock.setTimeout(() => seen.push(`late@${clock.now()}`), 100);
    expect(clock.now()).toBe(1_000);
    clock.advance(50);
    expect(seen).toEqual(['a@1010', 'b@1020']);
    expect(clock.now()).toBe(1_050);
    expect(clock.pendingTimers()).toBe(1);
  });

  it('runs timers due at the same time in scheduling order, and timers scheduled on the way', () => {
    const clock = manualClock();
    const seen: string[] = [];
    clock.setTimeout(() => {
      seen.push('first');
      clock.setTimeout(() => seen.push('scheduled by first'), 0);
      clock.setTimeout(() => seen.push('beyond'), 10);
    }, 5);
    clock.setTimeout(() => seen.push('second'), 5);
    clock.advance(5);
    expect(seen).toEqual(['first', 'second', 'scheduled by first']);
    clock.advance(10);
    expect(seen.at(-1)).toBe('beyond');
  });

  it('runs zero-delay timers on advance(0) only, and not after cancel', () => {
    const clock = manualClock();
    let runs = 0;
    clock.setTimeout(() => runs++, 0);
    const cancel = clock.setTimeout(() => runs++, 0);
    expect(runs).toBe(0);
    cancel();
    clock.advance(0);
    expect(runs).toBe(1);
    expect(() => clock.advance(-1)).toThrow(RangeError);
  });
});

describe('realClock', () => {
  it('fires a timer after its delay in simulated time, which passes speedUp times faster', async () => {
    const clock = realClock(200);
    const start = clock.now();
    const firedAt = await new Promise<number>((resolve) =>
      clock.setTimeout(() => resolve(clock.now()), 2_000),
    );
    expect(firedAt - start).toBeGreaterThanOrEqual(2_000 - 200);
  });

  it('does not fire a cancelled timer', async () => {
    const clock = realClock(100);
    let fired = false;
    clock.setTimeout(() => (fired = true), 100)();
    await new Promise<void>((resolve) => clock.setTimeout(resolve, 500));
    expect(fired).toBe(false);
  });

  it('refuses a speed-up that is not a positive number', () => {
    expect(() => realClock(0)).toThrow(RangeError);
    expect(() => realClock(Number.NaN)).toThrow(RangeError);
  });
});
