import { describe, expect, it } from '@jest/globals';
import { metricSeries } from '../../bench/support/controller-child';
import { parseProcStatus, peakBetween, residentMemory } from '../../bench/support/proc-status';

describe('bench proc status', () => {
  it('reads the resident and the peak resident memory of a process, in bytes', () => {
    const text =
      'Name:\tnode\nVmPeak:\t 1200000 kB\nVmHWM:\t  250000 kB\nVmRSS:\t  180000 kB\nThreads:\t11\n';
    expect(parseProcStatus(text)).toEqual({ rss: 180000 * 1024, peak: 250000 * 1024 });
    expect(parseProcStatus('Name:\tnode\nVmRSS:\t 1 kB\n')).toBeUndefined();
  });

  it('reads this very process on Linux, its peak never below what it holds', () => {
    const memory = residentMemory(process.pid);
    if (process.platform !== 'linux') return expect(memory).toBeUndefined();
    expect(memory!.rss).toBeGreaterThan(0);
    expect(memory!.peak).toBeGreaterThanOrEqual(memory!.rss);
    expect(residentMemory(2 ** 30)).toBeUndefined();
  });

  it('takes the peak of the samples in a time window', () => {
    const samples = [
      { at: 0, rss: 5 },
      { at: 10, rss: 9 },
      { at: 20, rss: 7 },
      { at: 30, rss: 12 },
    ];
    expect(peakBetween(samples, 0, 30)).toBe(9);
    expect(peakBetween(samples, 15, 31)).toBe(12);
    expect(peakBetween(samples, 40, 50)).toBeUndefined();
  });

  it('counts the label sets of a metric, as many as the sets a per-set gauge reports', () => {
    const text = [
      '# HELP jumpstarter_exporterset_replicas Instances.',
      'jumpstarter_exporterset_replicas{namespace="a",exporterset="p"} 3',
      'jumpstarter_exporterset_replicas{namespace="b",exporterset="p"} 0',
      'jumpstarter_exporterset_replicas_total 1',
      'jumpstarter_exporterset_ready_replicas{namespace="a",exporterset="p"} 3',
    ].join('\n');
    expect(metricSeries(text, 'jumpstarter_exporterset_replicas')).toBe(2);
  });
});
