import { describe, expect, it } from '@jest/globals';
import { distribution, percentile, summarize, type LeaseRecord } from '../../src/lab/summary';

describe('percentile (nearest rank)', () => {
  it('returns the smallest measured value with at least p % at or below it', () => {
    const values = [15, 20, 35, 40, 50];
    expect(percentile(values, 5)).toBe(15);
    expect(percentile(values, 30)).toBe(20);
    expect(percentile(values, 40)).toBe(20);
    expect(percentile(values, 50)).toBe(35);
    expect(percentile(values, 100)).toBe(50);
  });

  it('does not depend on the input order and handles one and no values', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1
    expect(percentile(values, 95)).toBe(95);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeUndefined();
  });

  it('rejects p outside (0, 100]', () => {
    expect(() => percentile([1], 0)).toThrow(RangeError);
    expect(() => percentile([1], 101)).toThrow(RangeError);
  });
});

describe('distribution', () => {
  it('gives count, percentiles, max and mean', () => {
    expect(distribution([4, 1, 3, 2])).toEqual({ count: 4, p50: 2, p95: 4, p99: 4, max: 4, mean: 2.5 });
    expect(distribution([])).toBeUndefined();
  });
});

describe('summarize', () => {
  const leases: LeaseRecord[] = [
    { name: 'a', pool: 'p', createdAt: 1000, assignedAt: 1100, endedAt: 5000, endReason: 'Released' },
    { name: 'b', pool: 'p', createdAt: 1000, assignedAt: 1500, endedAt: 9000, endReason: 'Expired' },
    { name: 'c', pool: 'q', createdAt: 2000, assignedAt: 4000 },
    { name: 'd', pool: 'q', createdAt: 2000, endedAt: 2001, endReason: 'Unsatisfiable' },
    { name: 'e', pool: 'q', createdAt: 3000 },
  ];
  const summary = summarize({
    leases,
    instances: { created: 5, recycled: 2, removed: 1 },
    requestsByVerb: { create: 5, patch: 7, list: 3, watch: 4, delete: 3, get: undefined },
  });

  it('accounts for every lease once: served, ended unserved or still pending', () => {
    expect(summary.leases).toEqual({
      created: 5,
      served: 3,
      unserved: 1,
      pendingAtEnd: 1,
      released: 1,
      expired: 1,
    });
    const { created, served, unserved, pendingAtEnd } = summary.leases;
    expect(served + unserved + pendingAtEnd).toBe(created);
  });

  it('measures the wait of served leases only, pending → assigned', () => {
    expect(summary.waitMs).toEqual({ count: 3, p50: 500, p95: 2000, p99: 2000, max: 2000, mean: 2600 / 3 });
  });

  it('totals requests and writes by verb', () => {
    expect(summary.requests).toEqual({
      total: 22,
      writes: 15,
      byVerb: { create: 5, patch: 7, list: 3, watch: 4, delete: 3 },
    });
    expect(summary.instances).toEqual({ created: 5, recycled: 2, removed: 1 });
  });

  it('has no wait figures when nothing was served', () => {
    const idle = summarize({
      leases: [],
      instances: { created: 0, recycled: 0, removed: 0 },
      requestsByVerb: {},
    });
    expect(idle.waitMs).toBeUndefined();
    expect(idle.requests).toEqual({ total: 0, writes: 0, byVerb: {} });
  });
});
