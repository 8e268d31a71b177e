import { describe, expect, it } from '@jest/globals';
import { Duration, Size } from 'cdk8s';
import { toGoDuration, toQuantity } from '../../lib/cdk8s/units';
import { parseDuration } from '../../lib/core';

describe('cdk8s units', () => {
  it.each([
    [Duration.minutes(5), '5m'],
    [Duration.seconds(90), '1m30s'],
    [Duration.hours(1), '1h'],
    [Duration.minutes(90), '1h30m'],
    [Duration.millis(1500), '1.5s'],
    [Duration.seconds(0), '0s'],
    [Duration.days(1), '24h'],
  ])('writes %s as the Go duration %s, which parses back to the same time', (duration, text) => {
    expect(toGoDuration(duration)).toBe(text);
    expect(parseDuration(text)).toBe(duration.toMilliseconds());
  });

  it('writes sizes as Kubernetes quantities', () => {
    expect(toQuantity(Size.gibibytes(8))).toBe('8Gi');
    expect(toQuantity(Size.mebibytes(512))).toBe('512Mi');
    expect(toQuantity('16G')).toBe('16G');
  });
});
