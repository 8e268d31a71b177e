import { describe, expect, it } from '@jest/globals';
import { slowStartBatches } from '../../src/reconciler/executor';

describe('slowStartBatches', () => {
  it('doubles from one and covers exactly the creates', () => {
    expect(slowStartBatches(0)).toEqual([]);
    expect(slowStartBatches(1)).toEqual([1]);
    expect(slowStartBatches(7)).toEqual([1, 2, 4]);
    expect(slowStartBatches(50)).toEqual([1, 2, 4, 8, 16, 19]);
  });
});
