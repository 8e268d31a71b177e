import { describe, expect, it } from '@jest/globals';
import { objectKey, parseObjectKey } from '../../src/queue/object-key';

describe('object keys', () => {
  it('join namespace and name and split them back', () => {
    expect(objectKey({ namespace: 'lab', name: 'pool' })).toBe('lab/pool');
    expect(parseObjectKey('lab/pool')).toEqual({ namespace: 'lab', name: 'pool' });
  });

  it('reject keys that are not namespace/name', () => {
    for (const bad of ['pool', '/pool', 'lab/', 'a/b/c', '']) {
      expect(() => parseObjectKey(bad)).toThrow(`"${bad}" is not a namespace/name key`);
    }
  });
});
