/**
 * GO_DURATION_RANGE_PATTERN, the admission rule that keeps scaleDownCooldown inside Go's range (a
 * regular expression cannot add the parts up): whatever it accepts within the cooldown's 64
 * characters parses, including the densest texts it allows; and it refuses texts that overflow.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { ExporterSetBounds } from '../../lib/core/bounds';
import { GO_DURATION_PATTERN, GO_DURATION_RANGE_PATTERN, tryParseDuration } from '../../lib/core/duration';

const inRange = new RegExp(GO_DURATION_RANGE_PATTERN);
const grammar = new RegExp(GO_DURATION_PATTERN);
const MAX = ExporterSetBounds.scaleDownCooldown;

const part = fc
  .tuple(
    fc.constantFrom(['h', 5], ['m', 7], ['s', 9], ['ms', 12], ['us', 15], ['\u00b5s', 15], ['ns', 18]),
    fc.integer({ min: 1, max: 18 }),
    fc.option(fc.stringMatching(/^[0-9]{0,6}$/)),
  )
  .map(([[unit, digits], n, fraction]) => {
    const whole = '9'.repeat(Math.min(n, digits as number));
    return `${whole}${fraction === null ? '' : `.${fraction}`}${unit}`;
  });

describe('scaleDownCooldown range', () => {
  it('accepts only what parses, up to the length bound (property)', () => {
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 12 }), (parts) => {
        const text = parts.join('');
        fc.pre(text.length <= MAX);
        expect(inRange.test(text)).toBe(true);
        expect(tryParseDuration(text)).toBeDefined();
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ['the densest seconds', `${'999999999s'.repeat(6)}999m`],
    ['the densest hours', '99999h'.repeat(10)],
    ['the densest nanoseconds', `${'999999999999999999ns'.repeat(3)}`],
  ])('parses %s', (_what, text) => {
    expect(text.length).toBeLessThanOrEqual(MAX);
    expect(inRange.test(text)).toBe(true);
    expect(tryParseDuration(text)).toBeDefined();
  });

  it.each(['9999999999h', '2562048h', '100000h', '1000000000s'.repeat(5), '0000000000000000001s'])(
    'refuses %s, which the grammar alone admits',
    (text) => {
      expect(grammar.test(text)).toBe(true);
      expect(inRange.test(text)).toBe(false);
    },
  );

  it.each(['0', '5m', '1h30m', '1.5h', '.5s', '250ms', '10\u00b5s', '99999h59m59.999999999s'])(
    'accepts %s',
    (text) => expect(inRange.test(text)).toBe(true),
  );
});
