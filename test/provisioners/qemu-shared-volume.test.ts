import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { parseQuantity } from '../../lib/core/quantity';
import {
  DEFAULT_STORAGE,
  SHARED_VOLUME_HEADROOM,
  buildQemuPod,
  bytesToQuantity,
  sharedVolumeSizeLimit,
  toQemuSize,
} from '../../lib/provisioners';
import { instance } from './fixtures';

const sizeLimitOf = (parameters: unknown) => {
  const shared = buildQemuPod(instance({ parameters: parameters as never })).spec.volumes[0];
  return 'emptyDir' in shared ? shared.emptyDir.sizeLimit : undefined;
};

describe('shared volume size', () => {
  it('is resources.storage plus 100Mi of headroom for sockets, firmware vars and the launcher', () => {
    expect(sizeLimitOf({ resources: { storage: '16Gi' } })).toBe('16484Mi');
    expect(parseQuantity('16484Mi')).toBe(parseQuantity('16Gi') + parseQuantity('100Mi'));
  });

  it('follows every quantity form of storage exactly', () => {
    expect(sizeLimitOf({ resources: { storage: '20G' } })).toBe(bytesToQuantity(20e9 + 100 * 2 ** 20));
    expect(sizeLimitOf({ resources: { storage: '1Ti' } })).toBe('1048676Mi');
  });

  it('defaults to 10Gi of guest storage when resources.storage is absent', () => {
    expect(DEFAULT_STORAGE).toBe('10Gi');
    expect(SHARED_VOLUME_HEADROOM).toBe('100Mi');
    expect(sizeLimitOf({})).toBe('10340Mi');
    expect(sizeLimitOf(undefined)).toBe('10340Mi');
    expect(sizeLimitOf({ resources: { cpu: 2 } })).toBe('10340Mi');
  });

  it('falls back to the default for a storage value validation rejects', () => {
    expect(sharedVolumeSizeLimit({ resources: { storage: 'big' } })).toBe('10340Mi');
    expect(sharedVolumeSizeLimit({ resources: { storage: '1M' } })).toBe('10340Mi');
    expect(sharedVolumeSizeLimit({ resources: 'x' })).toBe('10340Mi');
  });

  it('is never smaller than the guest disk it must hold', () => {
    fc.assert(
      fc.property(
        // From 2: `1M` (10⁶ bytes) is below the 1Mi minimum and gets the default instead.
        fc.integer({ min: 2, max: 2 ** 20 }),
        fc.constantFrom('Mi', 'Gi', 'M', 'G'),
        (n, suffix) => {
          const storage = `${n}${suffix}`;
          const limit = parseQuantity(sharedVolumeSizeLimit({ resources: { storage } }));
          expect(limit).toBeGreaterThanOrEqual(parseQuantity(storage) + 100 * 2 ** 20);
          expect(limit - parseQuantity(storage) - 100 * 2 ** 20).toBeLessThan(1);
        },
      ),
    );
  });
});

describe('QEMU sizes', () => {
  it('writes bytes in the largest binary unit that divides them', () => {
    expect(bytesToQuantity(2 ** 30)).toBe('1Gi');
    expect(bytesToQuantity(3 * 2 ** 20)).toBe('3Mi');
    expect(bytesToQuantity(1536)).toBe('1536');
    expect(bytesToQuantity(1000)).toBe('1000');
  });

  it('rejects what is not a positive quantity', () => {
    for (const q of ['0', 0, -1, 'x', null, undefined, '1 Gi']) expect(toQemuSize(q)).toBeUndefined();
  });

  it('keeps the exact byte count for every quantity', () => {
    const qemuBytes = (size: string) => {
      const units: Record<string, number> = { K: 2 ** 10, M: 2 ** 20, G: 2 ** 30, T: 2 ** 40, B: 1 };
      const suffix = size.slice(-1);
      return Number(size.slice(0, -1)) * units[suffix];
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 ** 6 }),
        fc.constantFrom('', 'k', 'M', 'G', 'Ki', 'Mi', 'Gi', 'Ti'),
        (n, suffix) => {
          const q = `${n}${suffix}`;
          expect(qemuBytes(toQemuSize(q)!)).toBe(Math.ceil(parseQuantity(q)));
        },
      ),
    );
  });
});
