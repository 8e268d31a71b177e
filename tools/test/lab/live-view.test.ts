import { describe, expect, it } from '@jest/globals';
import type { LabSample } from '../../src/lab/lab';
import { createLiveView } from '../../src/lab/live-view';
import type { PoolRow } from '../../src/lab/table';

const row = (name: string, available: number): PoolRow => ({
  name,
  replicas: 2,
  ready: 2,
  available,
  leased: 2 - available,
  starting: 0,
  standby: 0,
  pending: 0,
});
const sample = (elapsedMs: number, phase: LabSample['phase'], a: number, b: number): LabSample => ({
  elapsedMs,
  phase,
  rows: [row('a', a), row('b', b)],
  waiting: { a: 0, b: 1 },
});

function capture(isTTY: boolean) {
  let text = '';
  return { output: { isTTY, write: (chunk: string) => (text += chunk) }, text: () => text };
}

describe('the live view', () => {
  it('in a log prints the header once, then only changed rows, and marks the load start', () => {
    const out = capture(false);
    const view = createLiveView(['a', 'b'], out.output);
    view.show(sample(0, 'warm-up', 0, 0));
    view.show(sample(500, 'warm-up', 0, 0));
    view.show(sample(1000, 'warm-up', 2, 0));
    view.note('warm buffers full');
    view.show(sample(1500, 'load', 1, 0));
    const lines = out.text().trimEnd().split('\n');
    expect(lines.filter((l) => l.includes('REPLICAS'))).toHaveLength(1);
    expect(out.text()).not.toContain('\x1b[');
    expect(
      lines.map((l) =>
        (l.startsWith('#') ? l.split(' ').slice(0, 3) : l.trim().split(/\s+/).slice(0, 2)).join(' '),
      ),
    ).toEqual([
      'TIME NAME',
      '# warm-up: filling',
      '0.0s a',
      '0.0s b',
      '1.0s a',
      '# warm buffers',
      '# load starts',
      '1.5s a',
    ]);
  });

  it('on a terminal redraws the table in place', () => {
    const out = capture(true);
    const view = createLiveView(['a', 'b'], out.output);
    view.show(sample(0, 'load', 1, 1));
    expect(out.text()).not.toContain('\x1b[');
    view.show(sample(500, 'load', 1, 1));
    // Header, two rows and the status line: four lines up, then clear.
    expect(out.text()).toContain('\x1b[4A\x1b[J');
    expect(out.text()).toContain('load: 1 lease waiting');
    expect(out.text().match(/REPLICAS/g)).toHaveLength(2);
  });
});
