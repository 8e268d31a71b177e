import { describe, expect, it } from '@jest/globals';
import type { EventRecord } from '../../bench/support/cluster-service';
import { firstTimes, gaps, nth } from '../../bench/support/timeline';

const event = (
  at: number,
  resource: EventRecord['resource'],
  name: string,
  extra: Partial<EventRecord> = {},
) => ({ at, type: 'ADDED', resource, namespace: 'ns', name, ...extra }) as EventRecord;

describe('bench timeline', () => {
  const events = [
    event(1, 'exporters', 'a'),
    event(2, 'exporters', 'b'),
    event(3, 'exporters', 'a', { type: 'MODIFIED', credential: true }),
    event(4, 'pods', 'a'),
    event(5, 'exporters', 'b', { type: 'MODIFIED', credential: true }),
    event(6, 'exporters', 'a', { type: 'MODIFIED', credential: true }),
  ];

  it('finds when each object first reached a state', () => {
    expect(firstTimes(events, 'exporters')).toEqual(
      new Map([
        ['a', 1],
        ['b', 2],
      ]),
    );
    expect(firstTimes(events, 'exporters', (e) => e.credential === true)).toEqual(
      new Map([
        ['a', 3],
        ['b', 5],
      ]),
    );
  });

  it('gives the n-th earliest time and the per-object gaps', () => {
    expect(nth([5, 1, 3], 2)).toBe(3);
    expect(nth([5, 1, 3], 4)).toBeUndefined();
    const created = firstTimes(events, 'exporters');
    const credential = firstTimes(events, 'exporters', (e) => e.credential === true);
    expect(gaps(created, credential)).toEqual([2, 3]);
    expect(gaps(credential, firstTimes(events, 'pods'))).toEqual([1]);
  });
});
