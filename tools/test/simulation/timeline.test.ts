/**
 * `--trace`: a seed's timeline names each operation, each change of the lab's objects with the fields
 * the invariants read, and the controller's log, on cluster seconds since the start.
 */
import { describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSeed } from '../../src/simulation/run-seed';

describe('simulation › timeline', () => {
  it('writes the operations, the object changes and the controller log of a seed', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'timeline-')), 'seed-3.txt');
    const result = await runSeed(3, { chaosMs: 10_000, traceFile: file });
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(result.operations.applied).toBeGreaterThan(0);
    expect(lines.filter((l) => / NOTE {5}operation \{"kind":/.test(l)).length).toBe(
      result.operations.applied + result.operations.refused,
    );
    expect(lines.some((l) => /^ +\d+\.\d{3}s ADDED {4}ExporterSet\/set-0 gen=1 spec=/.test(l))).toBe(true);
    expect(lines.some((l) => / (ADDED|MODIFIED) +Exporter\/set-\d+-\d+ labels=/.test(l))).toBe(true);
    expect(lines.some((l) => / NOTE {5}log \{"level":"info"/.test(l))).toBe(true);
    const times = lines.map((l) => Number(/^ *(\d+\.\d{3})s /.exec(l)?.[1]));
    expect(times.every((t) => Number.isFinite(t))).toBe(true);
  });

  it('--trace-failures writes the timeline of a failing seed, and nothing for a passing one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trace-failures-'));
    // No time to settle: the seed cannot converge, which is a violation.
    const failing = await runSeed(4, { chaosMs: 5_000, settleTimeoutMs: 1, traceFailuresDir: dir });
    expect(failing.violations.map((v) => v.invariant)).toContain('convergence');
    const lines = readFileSync(join(dir, 'seed-4.trace'), 'utf8').trimEnd().split('\n');
    expect(lines.some((l) => / VIOLATION \[convergence\] not converged/.test(l))).toBe(true);
    expect(lines.some((l) => / NOTE {5}log \{"level":"info"/.test(l))).toBe(true);
    expect(lines.some((l) => / NOTE {5}log \{"level":"debug"/.test(l))).toBe(false);

    const passing = await runSeed(5, { chaosMs: 5_000, traceFailuresDir: dir });
    expect(passing.violations).toEqual([]);
    expect(existsSync(join(dir, 'seed-5.trace'))).toBe(false);
  });
});
