/**
 * spec.recycleRequestedAt at synth time: it takes the times the CRD's `format: date-time` takes on a
 * real kube-apiserver (test/admission/real-server.kube.test.ts checks those cases there), and none of
 * the ones it refuses that `Date.parse` would still read.
 */
import { describe, expect, it } from '@jest/globals';
import { isRfc3339 } from '../../lib/core/pool-operations';

describe('isRfc3339 (recycleRequestedAt)', () => {
  it.each([
    '2026-11-26T18:00:00Z',
    '2026-11-26t18:00:00z',
    '2026-11-26T18:00:00.123+01:00',
    '2026-11-26T18:00:00.000Z',
    '2024-02-29T23:59:59-08:00',
  ])('takes %j, as the API server does', (text) => {
    expect(isRfc3339(text)).toBe(true);
  });

  it.each([
    ['a space for the T', '2026-11-26 18:00:00Z'],
    ['an offset without its colon', '2026-11-26T18:00:00+0100'],
    ['no seconds', '2026-11-26T18:00Z'],
    ['February 30th', '2026-02-30T18:00:00Z'],
    ['February 29th of a common year', '2026-02-29T18:00:00Z'],
    ['hour 24', '2026-11-26T24:00:00Z'],
    ['a leap second', '2026-11-26T23:59:60Z'],
    ['no time zone', '2026-11-26T18:00:00'],
  ])('refuses %s (%j), as the API server does, though Date.parse may read it', (_what, text) => {
    expect(isRfc3339(text)).toBe(false);
  });

  it.each([
    ['a fraction after a comma', '2026-11-26T18:00:00,5Z'],
    ['an offset beyond 23:59', '2026-11-26T18:00:00+99:00'],
  ])('refuses %s (%j): the API server takes it, the controller could not read it', (_what, text) => {
    expect(Number.isNaN(Date.parse(text))).toBe(true);
    expect(isRfc3339(text)).toBe(false);
  });
});
