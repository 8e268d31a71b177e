/** Create batches (SPEC §3.5): 1, 2, 4, … as the window allows, ending at the first failed batch. */
import { describe, expect, it } from '@jest/globals';
import { slowStartBatch } from '../../src/reconciler/slow-start-batch';
import { SlowStart } from '../../src/reconciler/slow-start';

const KEY = 'lab/pool';
const range = (count: number) => Array.from({ length: count }, (_, i) => i);

describe('slowStartBatch', () => {
  it('doubles the batch after each clean one, up to maxBurst, and keeps the window reached', async () => {
    const slowStart = new SlowStart();
    const window = slowStart.window(KEY, 8);
    const sizes: number[] = [];
    const sizing = {
      ...window,
      size: (wanted: number) => {
        sizes.push(window.size(wanted));
        return sizes[sizes.length - 1];
      },
    };
    const failure = await slowStartBatch(range(20), sizing, () => Promise.resolve(undefined));
    expect(failure).toBeUndefined();
    expect(sizes).toEqual([1, 2, 4, 8, 5]);
    expect(slowStart.windowOf(KEY)).toBe(8);
  });

  it('stops at the first failed batch and reports its first failure in batch order', async () => {
    const slowStart = new SlowStart();
    const sent: number[] = [];
    const failure = await slowStartBatch(range(20), slowStart.window(KEY, 50), async (item) => {
      sent.push(item);
      await Promise.resolve();
      return item === 4 || item === 5 ? `item ${item} refused` : undefined;
    });
    // Batches 0 | 1 2 | 3 4 5 6: the third fails, nothing after it is sent.
    expect(sent).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(failure).toBe('item 4 refused');
    expect(slowStart.windowOf(KEY)).toBe(1);
  });
});
