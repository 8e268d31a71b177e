/**
 * The live table of a lab run. On a terminal it redraws the whole table in place at each sample; in
 * a log (CI, a pipe) it prints the header once and then, like `kubectl get -w`, only the rows that
 * changed, each stamped with the time — so the log stays short and readable.
 */
import type { LabSample } from './lab-types';
import { changedRows, tableBlock, tableHeader, tableLayout, tableRow, type PoolRow } from './table';

export interface LiveViewOutput {
  write(text: string): unknown;
  /** Redraw in place (a TTY) or append. */
  readonly isTTY?: boolean;
}

export interface LiveView {
  show(sample: LabSample): void;
  /** Prints a message line; on a terminal the table is redrawn below it. */
  note(message: string): void;
}

export function createLiveView(poolNames: readonly string[], output: LiveViewOutput): LiveView {
  const layout = tableLayout(poolNames);
  let previous: readonly PoolRow[] = [];
  let drawnLines = 0;
  let phase: LabSample['phase'] | undefined;
  return {
    show(sample) {
      if (output.isTTY) {
        const lines = [...tableBlock(layout, sample.rows, sample.elapsedMs), phaseLine(sample)];
        const up = drawnLines > 0 ? `\x1b[${drawnLines}A\x1b[J` : '';
        output.write(up + lines.join('\n') + '\n');
        drawnLines = lines.length;
        return;
      }
      if (phase === undefined) output.write(tableHeader(layout) + '\n');
      if (sample.phase !== phase) {
        output.write(`# ${sample.phase === 'load' ? 'load starts' : 'warm-up: filling the warm buffers'}\n`);
        phase = sample.phase;
      }
      for (const row of changedRows(previous, sample.rows)) {
        output.write(tableRow(layout, row, sample.elapsedMs) + '\n');
      }
      previous = sample.rows;
    },
    note(message) {
      output.write(`# ${message}\n`);
      drawnLines = 0;
    },
  };
}

function phaseLine(sample: LabSample): string {
  if (sample.phase === 'warm-up') return 'warm-up: filling the warm buffers';
  const waiting = Object.values(sample.waiting).reduce((sum, n) => sum + n, 0);
  return `load: ${waiting} lease${waiting === 1 ? '' : 's'} waiting`;
}
