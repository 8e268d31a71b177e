import { describe, expect, it } from '@jest/globals';
import { evaluate } from '@marcbachmann/cel-js';
import fc from 'fast-check';
import {
  formatDuration,
  GO_DURATION_PATTERN,
  isDuration,
  parseDuration,
  tryParseDuration,
} from '../../lib/core/duration';

const pattern = new RegExp(GO_DURATION_PATTERN);

const VALID: [string, number][] = [
  ['0', 0],
  ['0s', 0],
  ['30s', 30_000],
  ['5m', 300_000],
  ['1h', 3_600_000],
  ['1h30m', 5_400_000],
  ['1.5h', 5_400_000],
  ['1h2m3.5s', 3_723_500],
  ['250ms', 250],
  ['1ns', 0.000001],
  ['1us', 0.001],
  ['1\u00b5s', 0.001], // MICRO SIGN
  ['1\u03bcs', 0.001], // GREEK SMALL LETTER MU
  ['1.5us', 0.0015],
  ['.5s', 500],
  ['1.s', 1000],
  ['01m', 60_000],
  ['2h45m', 9_900_000],
  ['1m1m', 120_000],
  ['1s500ms', 1500],
  ['0.5ns', 0], // below a nanosecond is cut off, as in Go
  ['2562047h', 2562047 * 3_600_000],
];

const INVALID: string[] = [
  '',
  ' ',
  '5',
  '00',
  '5 m',
  ' 5m',
  '5m ',
  '1h 30m',
  '-5m',
  '+5m',
  '-0',
  '5x',
  '5M',
  '5H',
  '5sec',
  '5min',
  'm',
  '.s',
  '.',
  '1..5s',
  '1.5.5s',
  '5m-1s',
  '1e3s',
  'PT5M',
  '1d',
];

describe('durations', () => {
  it.each(VALID)('parses %p as %p ms', (text, ms) => {
    expect(parseDuration(text)).toBeCloseTo(ms, 9);
    expect(tryParseDuration(text)).toBeCloseTo(ms, 9);
    expect(isDuration(text)).toBe(true);
  });

  it.each(INVALID)('rejects %p', (text) => {
    expect(() => parseDuration(text)).toThrow(Error);
    expect(tryParseDuration(text)).toBeUndefined();
    expect(isDuration(text)).toBe(false);
  });

  it.each([undefined, null, 5, {}, ['5m']])('rejects the non-string %p', (value) => {
    expect(tryParseDuration(value)).toBeUndefined();
    expect(isDuration(value)).toBe(false);
    expect(() => parseDuration(value)).toThrow(/not a string/);
  });

  it('names the value, says what is wrong and shows valid forms in the error', () => {
    expect(() => parseDuration('90')).toThrow('"90" is not a valid duration (the number 90 has no unit)');
    expect(() => parseDuration('5x')).toThrow(/unknown unit "x" after 5/);
    expect(() => parseDuration('-5m')).toThrow(/a sign is not allowed/);
    expect(() => parseDuration('')).toThrow(/it is empty/);
    expect(() => parseDuration('5 m')).toThrow(/30s, 5m or 1h30m/);
  });

  it('rejects durations beyond Go int64 nanoseconds', () => {
    expect(() => parseDuration('2562048h')).toThrow(/292 years/);
    expect(tryParseDuration('9'.repeat(40) + 's')).toBeUndefined();
  });

  it('agrees with GO_DURATION_PATTERN on every table input', () => {
    for (const [text] of VALID) expect([text, pattern.test(text)]).toEqual([text, true]);
    for (const text of INVALID) expect([text, pattern.test(text)]).toEqual([text, false]);
  });

  it('agrees with GO_DURATION_PATTERN on generated strings (except Go range overflow)', () => {
    const chars = fc.constantFrom(...'0123456789.hmsun\u00b5\u03bc+- x');
    const number = fc.string({ unit: fc.constantFrom(...'0123456789.'), maxLength: 4 });
    const unit = fc.constantFrom(
      'ns',
      'us',
      '\u00b5s',
      '\u03bcs',
      'ms',
      's',
      'm',
      'h',
      '',
      'x',
      'S',
      ' s',
      'mm',
    );
    const components = fc.array(fc.tuple(number, unit), { minLength: 1, maxLength: 3 });
    const text = fc.oneof(
      fc.string({ unit: chars, maxLength: 10 }),
      components.map((parts) => parts.map(([n, u]) => n + u).join('')),
    );
    let matched = 0;
    fc.assert(
      fc.property(text, (candidate) => {
        if (pattern.test(candidate)) {
          matched++;
          expect(() => parseDuration(candidate)).not.toThrow(/is not a valid duration \((?!it is longer)/);
        } else {
          expect(tryParseDuration(candidate)).toBeUndefined();
        }
      }),
      { numRuns: 3000 },
    );
    expect(matched).toBeGreaterThan(100); // the generator reaches valid durations, not only junk
  });

  it('agrees with the pattern embedded in a CEL matches() rule on every table input', () => {
    const rule = `self.matches('${GO_DURATION_PATTERN}')`;
    for (const [text] of VALID) expect([text, evaluate(rule, { self: text })]).toEqual([text, true]);
    for (const text of INVALID) expect([text, evaluate(rule, { self: text })]).toEqual([text, false]);
  });

  it('has a pattern without backslashes, so it embeds in a CEL string literal unchanged', () => {
    expect(GO_DURATION_PATTERN).not.toContain('\\');
    expect(GO_DURATION_PATTERN.startsWith('^')).toBe(true);
    expect(GO_DURATION_PATTERN.endsWith('$')).toBe(true);
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [0.000001, '1ns'],
    [0.000999, '999ns'],
    [0.001, '1µs'],
    [0.0015, '1.5µs'],
    [1, '1ms'],
    [250, '250ms'],
    [1.5, '1.5ms'],
    [1000, '1s'],
    [1500, '1.5s'],
    [30_000, '30s'],
    [60_000, '1m0s'],
    [90_000, '1m30s'],
    [300_000, '5m0s'],
    [3_600_000, '1h0m0s'],
    [5_400_000, '1h30m0s'],
    [3_723_500, '1h2m3.5s'],
    [86_400_000, '24h0m0s'],
  ])('writes %p ms as %p (Go canonical form)', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY, 1e15])('refuses %p ms', (ms) => {
    expect(() => formatDuration(ms)).toThrow(RangeError);
  });

  it('writes text that parses back to the same whole milliseconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e12 }), (ms) => {
        expect(parseDuration(formatDuration(ms))).toBe(ms);
      }),
    );
  });

  it('writes text that parses back to the same nanoseconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e15 }), (nanos) => {
        const text = formatDuration(nanos / 1e6);
        expect(Math.round(parseDuration(text) * 1e6)).toBe(nanos);
        expect(pattern.test(text)).toBe(true);
      }),
    );
  });
});
