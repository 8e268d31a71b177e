/**
 * Go-style durations (`30s`, `5m`, `1h30m`, `1.5h`, `250ms`), as Go's `time.ParseDuration` reads them,
 * because the upstream Go controller parses `scaleDownCooldown` that way. One difference: no sign is
 * allowed (a cooldown cannot be negative, and `+5m` is just confusing).
 *
 * Grammar: `0`, or one or more `<number><unit>` with number `12`, `1.5`, `1.` or `.5` and unit one of
 * ns, us, µs (U+00B5), μs (U+03BC), ms, s, m, h. Values are counted in whole nanoseconds like Go
 * (finer fractions are cut off) and must fit Go's int64 nanoseconds (about 292 years).
 */

/**
 * The same grammar as a regular expression source, for CEL `matches()` in the CRD and for JS RegExp.
 * It has no backslashes (`[.]` instead of `\.`) so it can be embedded in a CEL string literal as is.
 * It cannot express Go's range limit: absurd values such as `9999999999h` match it but fail to parse.
 */
export const GO_DURATION_PATTERN = '^(0|(([0-9]+([.][0-9]*)?|[.][0-9]+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h))+)$';

/** The most digits before the point of one number, per unit: each part stays under about 32 years. */
const RANGE_DIGITS = { h: 5, m: 7, s: 9, ms: 12, us: 15, ns: 18 } as const;
const boundedNumber = (digits: number) => `([0-9]{1,${digits}}([.][0-9]*)?|[.][0-9]+)`;

/**
 * The part of the Go grammar that cannot overflow, for CEL `matches()` and JS alike: every number has
 * at most 5 digits before `h`, 7 before `m`, 9 before `s`, 12 before `ms`, 15 before `us` and 18
 * before `ns` (each part under about 32 years). Within the cooldown's 64 characters a text of such
 * parts stays under about 210 years, inside Go's 292, which no regular expression can check
 * directly (it would have to add the parts up). Go accepts more (`100000h`, `1h1h` many times over);
 * a cooldown of over 11 years in one part is a typo or an attack.
 */
export const GO_DURATION_RANGE_PATTERN =
  '^(0|(' +
  [
    `${boundedNumber(RANGE_DIGITS.h)}h`,
    `${boundedNumber(RANGE_DIGITS.m)}m`,
    `${boundedNumber(RANGE_DIGITS.s)}s`,
    `${boundedNumber(RANGE_DIGITS.ms)}ms`,
    `${boundedNumber(RANGE_DIGITS.us)}(us|\u00b5s|\u03bcs)`,
    `${boundedNumber(RANGE_DIGITS.ns)}ns`,
  ].join('|') +
  ')+)$';

const NANOS_PER_UNIT: ReadonlyMap<string, bigint> = new Map([
  ['ns', 1n],
  ['us', 1_000n],
  ['\u00b5s', 1_000n],
  ['\u03bcs', 1_000n],
  ['ms', 1_000_000n],
  ['s', 1_000_000_000n],
  ['m', 60_000_000_000n],
  ['h', 3_600_000_000_000n],
]);

/** Go's time.Duration is an int64 count of nanoseconds. */
const MAX_NANOS = 2n ** 63n - 1n;
const NANOS_PER_MS = 1_000_000;

/** Whole milliseconds stay exact beyond 2^53 ns (about 104 days), which Number(nanos) / 1e6 would not. */
function toMilliseconds(nanos: bigint): number {
  return Number(nanos / 1_000_000n) + Number(nanos % 1_000_000n) / NANOS_PER_MS;
}

const isDigit = (c: string): boolean => c >= '0' && c <= '9';

/** Nanoseconds, or the reason the text is not a duration. */
function parseNanos(text: string): bigint | string {
  if (text === '') return 'it is empty';
  if (text === '0') return 0n;
  if (text[0] === '-' || text[0] === '+') return 'a sign is not allowed';
  let total = 0n;
  let i = 0;
  while (i < text.length) {
    const start = i;
    while (i < text.length && isDigit(text[i])) i++;
    const whole = text.slice(start, i);
    let fraction = '';
    if (text[i] === '.') {
      const fractionStart = ++i;
      while (i < text.length && isDigit(text[i])) i++;
      fraction = text.slice(fractionStart, i);
    }
    if (whole === '' && fraction === '') return `expected a number at ${JSON.stringify(text.slice(start))}`;
    const unitStart = i;
    while (i < text.length && text[i] !== '.' && !isDigit(text[i])) i++;
    const unit = text.slice(unitStart, i);
    const number = text.slice(start, unitStart);
    if (unit === '') return `the number ${number} has no unit`;
    const nanosPerUnit = NANOS_PER_UNIT.get(unit);
    if (nanosPerUnit === undefined) return `unknown unit ${JSON.stringify(unit)} after ${number}`;
    total += BigInt(whole || '0') * nanosPerUnit;
    if (fraction) total += (BigInt(fraction) * nanosPerUnit) / 10n ** BigInt(fraction.length);
    if (total > MAX_NANOS) return 'it is longer than Go durations allow (about 292 years)';
  }
  return total;
}

function durationError(text: unknown, reason: string): Error {
  const shown = typeof text === 'string' ? JSON.stringify(text) : `${typeof text} ${String(text)}`;
  return new Error(
    `${shown} is not a valid duration (${reason}); write numbers with units ns, us, ms, s, m or h, such as 30s, 5m or 1h30m`,
  );
}

/**
 * Parses a Go-style duration into milliseconds (fractional below 1 ms: `1us` is 0.001).
 * Throws an Error that names the value, says what is wrong and shows valid forms.
 */
export function parseDuration(text: unknown): number {
  if (typeof text !== 'string') throw durationError(text, 'it is not a string');
  const nanos = parseNanos(text);
  if (typeof nanos === 'string') throw durationError(text, nanos);
  return toMilliseconds(nanos);
}

/** Milliseconds, or undefined when `text` is not a duration. */
export function tryParseDuration(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const nanos = parseNanos(text);
  return typeof nanos === 'string' ? undefined : toMilliseconds(nanos);
}

export function isDuration(text: unknown): text is string {
  return tryParseDuration(text) !== undefined;
}

/** `value / 10^digits` as a decimal without trailing zeros (`1500, 3` → `1.5`). */
function decimal(value: bigint, digits: number): string {
  const scale = 10n ** BigInt(digits);
  const fraction = (value % scale).toString().padStart(digits, '0').replace(/0+$/, '');
  return fraction ? `${value / scale}.${fraction}` : `${value / scale}`;
}

/**
 * Go's canonical text for a duration (`time.Duration.String()`): `0s`, `750ms`, `1.5s`, `5m0s`,
 * `1h30m0s`, `2µs`. Zero parts between the largest unit and seconds are written (`5m0s`, not `5m`),
 * exactly as Go and `kubectl` print them; the text parses back to the same value.
 * Takes milliseconds, rounded to whole nanoseconds; throws a RangeError for negative, non-finite or
 * out-of-range input.
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) {
    throw new RangeError(`${ms} ms cannot be written as a duration; durations are finite and not negative`);
  }
  const whole = Math.trunc(ms);
  const nanos = BigInt(whole) * 1_000_000n + BigInt(Math.round((ms - whole) * NANOS_PER_MS));
  if (nanos > MAX_NANOS) throw new RangeError(`${ms} ms is longer than Go durations allow (about 292 years)`);
  if (nanos === 0n) return '0s';
  if (nanos < 1_000n) return `${nanos}ns`;
  if (nanos < 1_000_000n) return `${decimal(nanos, 3)}\u00b5s`; // Go writes the micro sign U+00B5
  if (nanos < 1_000_000_000n) return `${decimal(nanos, 6)}ms`;
  const seconds = `${decimal(nanos % 60_000_000_000n, 9)}s`;
  const minutes = nanos / 60_000_000_000n;
  if (minutes === 0n) return seconds;
  const hours = minutes / 60n;
  return hours === 0n ? `${minutes}m${seconds}` : `${hours}h${minutes % 60n}m${seconds}`;
}
