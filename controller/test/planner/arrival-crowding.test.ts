/**
 * Arrival crowding (issue 28): each arrival counts the others created within one startup before it;
 * a bucket's counts say which warm buffer would have served which share of its arrivals; a bucket
 * recorded before crowding was counted is read as its peak arriving at once.
 */
import { describe, expect, it } from '@jest/globals';
import {
  DEFAULT_CROWDING_WINDOW_MS,
  MAX_CROWDING,
  MAX_RECENT_ARRIVALS,
  addCrowded,
  bufferFor,
  countArrival,
  crowdingOf,
  crowdingWindowMs,
  mergeCrowding,
  servedUnder,
} from '../../src/planner/demand/arrival-crowding';

const S = 1_000;

describe('arrival crowding', () => {
  it('counts the others created within the window before an arrival, itself not among them', () => {
    let recent: readonly number[] = [];
    const others: number[] = [];
    for (const at of [0, 10 * S, 20 * S, 200 * S, 205 * S]) {
      const counted = countArrival(recent, at, 100 * S);
      others.push(counted.others);
      recent = counted.recent;
    }
    expect(others).toEqual([0, 1, 2, 0, 1]);
    // Only the arrivals still within the window of the newest are kept.
    expect(recent).toEqual([200 * S, 205 * S]);
  });

  it('keeps a bounded list of recent arrivals, however crowded', () => {
    let recent: readonly number[] = [];
    for (let i = 0; i < MAX_RECENT_ARRIVALS + 50; i++) recent = countArrival(recent, 5 * S, 60 * S).recent;
    expect(recent).toHaveLength(MAX_RECENT_ARRIVALS);
    expect(countArrival(recent, 5 * S, 60 * S).others).toBe(MAX_RECENT_ARRIVALS);
  });

  it('adds an arrival at its count; counts past the bound share the last index', () => {
    expect(addCrowded([], 2)).toEqual([0, 0, 1]);
    expect(addCrowded([1, 0, 1], 0)).toEqual([2, 0, 1]);
    const far = addCrowded([], 10_000);
    expect(far).toHaveLength(MAX_CROWDING);
    expect(far[MAX_CROWDING - 1]).toBe(1);
  });

  it('serves warm, under a buffer of B, the arrivals that found fewer than B others', () => {
    // 10 arrivals alone, 6 with one other, 3 with two, 1 in a burst with five.
    const crowding = [10, 6, 3, 0, 0, 1];
    expect(servedUnder(crowding, 0)).toBe(0);
    expect(servedUnder(crowding, 1)).toBe(10);
    expect(servedUnder(crowding, 3)).toBe(19);
    expect(servedUnder(crowding, 99)).toBe(20);
    expect(bufferFor(crowding, 0.5)).toBe(1);
    expect(bufferFor(crowding, 0.95)).toBe(3);
    expect(bufferFor(crowding, 1)).toBe(6);
    expect(bufferFor([], 0.95)).toBe(0);
  });

  it('sums the arrivals of several hours, so a quiet hour weighs little beside a busy one', () => {
    const busy = [0, 0, 0, 0, 20];
    const holiday = [2];
    expect(mergeCrowding([busy, holiday])).toEqual([2, 0, 0, 0, 20]);
    expect(bufferFor(mergeCrowding([busy, holiday]), 0.95)).toBe(5);
  });

  it('reads a bucket recorded without crowding (an older controller) as its peak arriving at once', () => {
    expect(crowdingOf({ arrivals: 7, peak: 4 })).toEqual([0, 0, 0, 7]);
    expect(bufferFor(crowdingOf({ arrivals: 7, peak: 4 }), 0.95)).toBe(4);
    expect(crowdingOf({ arrivals: 0, peak: 4 })).toEqual([]);
    expect(crowdingOf({ arrivals: 3, peak: 0 })).toEqual([3]);
    // A recorded crowding is read as it is, malformed counts as 0.
    expect(crowdingOf({ arrivals: 3, peak: 9, crowding: [2, 1] })).toEqual([2, 1]);
    expect(crowdingOf({ arrivals: 3, peak: 9, crowding: [2, -1, Number.NaN, 1.5] })).toEqual([2, 0, 0, 1]);
    expect(crowdingOf(undefined)).toEqual([]);
  });

  it('counts within the median startup, the default before any is measured', () => {
    expect(crowdingWindowMs([])).toBe(DEFAULT_CROWDING_WINDOW_MS);
    expect(crowdingWindowMs([60 * S, 150 * S, 90 * S])).toBe(90 * S);
    expect(crowdingWindowMs([60 * S, 150 * S, 90 * S, 100 * S])).toBe(90 * S);
    expect(crowdingWindowMs([Number.NaN, -5])).toBe(DEFAULT_CROWDING_WINDOW_MS);
  });
});
