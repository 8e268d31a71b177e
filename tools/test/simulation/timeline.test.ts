/**
 * `--trace`: a seed's timeline names each operation, each change of the lab's objects with the fields
 * the invariants read, and the controller's log, on cluster seconds since the start.
 */
import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync } from 'node:fs';
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
});
