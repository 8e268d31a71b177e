import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  formatMarkdown,
  formatTable,
  machine,
  met,
  readResults,
  resultFileName,
  writeResult,
  type BenchResult,
} from '../../bench/support/results';

const result: BenchResult = {
  name: 'p9-example',
  title: 'an example',
  figures: [
    { label: 'ratio', value: 1.42, unit: 'x', target: { op: '<=', value: 1.3 } },
    { label: 'writes', value: 0, unit: '/min', target: { op: '==', value: 0 } },
    { label: 'context', value: 1234.5, unit: 'ms' },
  ],
  details: { samples: 3 },
};

describe('bench results', () => {
  it('judges each figure against its target', () => {
    expect(result.figures.map(met)).toEqual([false, true, undefined]);
  });

  it('writes <name>.json with the figures, verdicts, date and machine', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-results-'));
    const host = machine();
    await writeResult(dir, result, { quick: true, machine: host, date: new Date('2026-11-21T12:00:00Z') });
    const written = JSON.parse(readFileSync(path.join(dir, 'p9-example.json'), 'utf8'));
    expect(written).toMatchObject({
      name: 'p9-example',
      quick: true,
      date: '2026-11-21T12:00:00.000Z',
      figures: result.figures,
      details: { samples: 3 },
      verdicts: [{ label: 'ratio', met: false }, { label: 'writes', met: true }, { label: 'context' }],
    });
    expect(written.machine).toEqual(host);
    expect(host.cpus).toBeGreaterThan(0);
    expect(host.node).toBe(process.version);
    expect(readResults(dir)).toEqual([written]);
    expect(formatMarkdown(readResults(dir)).split('\n')).toEqual([
      '| benchmark | figure | target | measured | met |',
      '| --- | --- | --- | --- | --- |',
      '| p9-example (quick) | ratio | ≤ 1.30× | 1.42× | **no** |',
      '|  | writes | = 0 /min | 0 /min | yes |',
      '|  | context | — | 1235 ms |  |',
    ]);
  });

  it('writes the real server’s results beside the test cluster’s, as <name>.kube.json', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-results-'));
    const host = machine();
    await writeResult(dir, result, { quick: false, machine: host, backend: 'test' });
    await writeResult(dir, result, { quick: false, machine: host, backend: 'kube' });
    expect(resultFileName('p9-example', 'kube')).toBe('p9-example.kube.json');
    // Each benchmark's test-cluster file, then its kube file.
    expect(readResults(dir).map((file) => file.backend)).toEqual(['test', 'kube']);
    expect(formatMarkdown(readResults(dir)).split('\n')[5]).toBe(
      '| p9-example (kube) | ratio | ≤ 1.30× | 1.42× | **no** |',
    );
  });

  it('prints the figures beside their targets', () => {
    const lines = formatTable([result]).split('\n');
    expect(lines[0]).toMatch(/^benchmark\s+figure\s+measured\s+target\s+met$/);
    expect(lines[1]).toMatch(/^p9-example\s+ratio\s+1\.42×\s+≤ 1\.30?×\s+NO$/);
    expect(lines[2]).toMatch(/^\s+writes\s+0 \/min\s+= 0 \/min\s+yes$/);
    expect(lines[3]).toMatch(/^\s+context\s+1235 ms\s+—$/);
  });
});
