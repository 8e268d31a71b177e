/**
 * The controller's last warnings of a seed: kept on cluster time, summarized to one line each, and
 * appended to a convergence violation from the moment the faults stopped.
 */
import { describe, expect, it } from '@jest/globals';
import { manualClock } from 'virtual-exporters-test-cluster';
import { RecentWarnings } from '../../src/simulation/recent-warnings';

const line = (fields: Record<string, unknown>) => `${JSON.stringify({ level: 'warn', ...fields })}\n`;

describe('simulation › recent warnings', () => {
  it('says what the controller last complained of after a time, one line each', () => {
    const clock = manualClock(0);
    const warnings = new RecentWarnings(clock);
    warnings.write(line({ exporterset: 'set-0', msg: 'reconcile failed', err: { message: 'before' } }));
    clock.advance(5_000);
    warnings.write(
      line({
        exporterset: 'set-1',
        msg: 'replica failure',
        failure: { reason: 'FailedPatch', message: 'a\n  b' },
      }),
    );
    clock.advance(1_500);
    warnings.write(line({ resource: 'exportersets', msg: 'informer error', err: { message: 'HTTP 503' } }));
    warnings.write('not json');
    // An info line (the log also feeds a failure trace) is no warning.
    warnings.write(`${JSON.stringify({ level: 'info', exporterset: 'set-2', msg: 'applied' })}\n`);
    expect(warnings.count()).toBe(3);
    expect(warnings.since(5_000)).toBe(
      ". The controller's last warnings after the faults stopped: [+0.0 s] set-1: replica failure (FailedPatch: a b); [+1.5 s] exportersets: informer error (HTTP 503)",
    );
    expect(warnings.since(10_000)).toBe('');
  });

  it('keeps only the last few, each cut to a readable length', () => {
    const warnings = new RecentWarnings(manualClock(0));
    for (let i = 0; i < 10; i++) warnings.write(line({ msg: `w${i}`, err: { message: 'x'.repeat(1000) } }));
    const text = warnings.since(0);
    expect(text).not.toContain('w3 ');
    expect(text).toContain('w4 (');
    expect(text).toContain('w9 (');
    const parts = text.replace(/^[^[]*/, '').split('; ');
    expect(parts).toHaveLength(6);
    expect(parts.every((part) => part.length <= 300 + '[+0.0 s] '.length)).toBe(true);
  });
});
