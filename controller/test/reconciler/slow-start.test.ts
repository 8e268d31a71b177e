import { describe, expect, it } from '@jest/globals';
import { SlowStart } from '../../src/reconciler/slow-start';

describe('SlowStart', () => {
  it('grows the window only as far as a clean batch proves, up to maxBurst', () => {
    const slowStart = new SlowStart();
    expect(slowStart.batchSize('ns/a', 50, 50)).toBe(1);
    slowStart.succeeded('ns/a', 1, 50);
    expect(slowStart.batchSize('ns/a', 50, 50)).toBe(2);
    slowStart.succeeded('ns/a', 1, 50); // a batch smaller than the window proves nothing more
    expect(slowStart.windowOf('ns/a')).toBe(2);
    for (const sent of [2, 4, 8, 16, 32]) slowStart.succeeded('ns/a', sent, 50);
    expect(slowStart.batchSize('ns/a', 50, 50)).toBe(50);
    expect(slowStart.batchSize('ns/a', 7, 50)).toBe(7);
    expect(slowStart.batchSize('ns/a', 50, 10)).toBe(10); // --max-burst lowered since
    expect(slowStart.batchSize('ns/b', 50, 50)).toBe(1); // per set
  });

  it('starts over at one after a failure and when the set is forgotten', () => {
    const slowStart = new SlowStart();
    slowStart.succeeded('ns/a', 8, 50);
    slowStart.failed('ns/a');
    expect(slowStart.batchSize('ns/a', 50, 50)).toBe(1);
    slowStart.succeeded('ns/a', 8, 50);
    slowStart.forget('ns/a');
    expect(slowStart.batchSize('ns/a', 50, 50)).toBe(1);
  });
});
