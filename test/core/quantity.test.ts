import { describe, expect, it } from '@jest/globals';
import { isQuantity, parseQuantity, tryParseQuantity } from '../../lib/core/quantity';

describe('quantities', () => {
  it.each([
    ['8Gi', 8 * 2 ** 30],
    ['4Gi', 4 * 2 ** 30],
    ['16Gi', 16 * 2 ** 30],
    ['512Mi', 512 * 2 ** 20],
    ['1Ki', 1024],
    ['1Ti', 2 ** 40],
    ['500m', 0.5],
    ['100n', 1e-7],
    ['1.5G', 1.5e9],
    ['16G', 16e9],
    ['1k', 1000],
    ['1M', 1e6],
    ['2e3', 2000],
    ['1E', 1e18],
    ['1e-3', 0.001],
    ['4', 4],
    ['0', 0],
    ['.5', 0.5],
    ['1.', 1],
    ['+1', 1],
    ['-1', -1],
  ])('parses %p as %p', (text, value) => {
    expect(parseQuantity(text)).toBeCloseTo(value, 12);
    expect(isQuantity(text)).toBe(true);
  });

  it('keeps the number and suffix apart', () => {
    expect(tryParseQuantity('8Gi')).toEqual({ value: 8 * 2 ** 30, number: '8', suffix: 'Gi' });
    expect(tryParseQuantity('2e3')).toEqual({ value: 2000, number: '2', suffix: 'e3' });
    expect(tryParseQuantity('4')).toEqual({ value: 4, number: '4', suffix: '' });
  });

  it.each([
    [4, 4],
    [0.5, 0.5],
    [0, 0],
  ])('accepts the number %p', (input, value) => {
    expect(parseQuantity(input)).toBe(value);
  });

  it.each(['', ' ', '8 Gi', '8GB', '8gi', 'Gi', '1.2.3', '1e', '1e1.5', '8Gi ', 'lots', '0x10', '1Ki1'])(
    'rejects %p',
    (text) => {
      expect(tryParseQuantity(text)).toBeUndefined();
      expect(isQuantity(text)).toBe(false);
    },
  );

  it.each([Number.NaN, Number.POSITIVE_INFINITY, null, undefined, true, {}, ['1']])('rejects %p', (input) => {
    expect(tryParseQuantity(input)).toBeUndefined();
    expect(isQuantity(input)).toBe(false);
  });

  it('names the value and shows valid forms in the error', () => {
    expect(() => parseQuantity('8GB')).toThrow('"8GB" is not a Kubernetes quantity');
    expect(() => parseQuantity('8GB')).toThrow(/500m, 8Gi or 16G/);
  });
});
