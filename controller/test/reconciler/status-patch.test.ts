import { describe, expect, it } from '@jest/globals';
import { statusMergePatch } from '../../src/reconciler/status-patch';

describe('statusMergePatch', () => {
  it('sends the desired status and nulls what it dropped, at every depth', () => {
    expect(
      statusMergePatch(
        {
          replicas: 3,
          scaleDownWindowStart: 'x',
          nested: { a: 1, b: 2 },
          conditions: [{ type: 'A' }, { type: 'B' }],
        },
        { replicas: 2, nested: { a: 1 }, conditions: [{ type: 'A' }] },
      ),
    ).toEqual({
      replicas: 2,
      scaleDownWindowStart: null,
      nested: { a: 1, b: null },
      conditions: [{ type: 'A' }],
    });
  });

  it('is the desired status itself when there was none', () => {
    expect(statusMergePatch(undefined, { replicas: 1 })).toEqual({ replicas: 1 });
  });
});
