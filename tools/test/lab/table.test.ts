import { describe, expect, it } from '@jest/globals';
import {
  changedRows,
  formatElapsed,
  tableBlock,
  tableHeader,
  tableLayout,
  tableRow,
  type PoolRow,
} from '../../src/lab/table';

const row = (name: string, overrides: Partial<PoolRow> = {}): PoolRow => ({
  name,
  replicas: 3,
  ready: 2,
  available: 1,
  leased: 1,
  starting: 1,
  standby: 0,
  pending: 0,
  ...overrides,
});

const columnStarts = (line: string) => [...line.matchAll(/\S+/g)].map((m) => m.index);

describe('the pool table', () => {
  const layout = tableLayout(['rpi4-virtual', 'x86']);

  it('has the columns of kubectl get exportersets -w', () => {
    expect(tableHeader(layout).split(/\s+/).filter(Boolean)).toEqual([
      'TIME',
      'NAME',
      'REPLICAS',
      'READY',
      'AVAILABLE',
      'LEASED',
      'STARTING',
      'STANDBY',
      'PENDING',
    ]);
  });

  it('prints the counts in order and lines every row up under the header', () => {
    const lines = tableBlock(
      layout,
      [row('rpi4-virtual', { replicas: 20, pending: 13 }), row('x86')],
      12_345,
    );
    expect(lines[1].split(/\s+/).filter(Boolean)).toEqual([
      '12.3s',
      'rpi4-virtual',
      '20',
      '2',
      '1',
      '1',
      '1',
      '0',
      '13',
    ]);
    const header = columnStarts(lines[0]).slice(1); // TIME is right-aligned
    for (const line of lines.slice(1)) expect(columnStarts(line).slice(1)).toEqual(header);
    // A row printed later, with a longer time, still lines up.
    expect(columnStarts(tableRow(layout, row('x86'), 1_234_500)).slice(1)).toEqual(header);
  });

  it('formats the elapsed time in seconds', () => {
    expect(formatElapsed(0)).toBe('0.0s');
    expect(formatElapsed(1250)).toBe('1.3s');
    expect(formatElapsed(-5)).toBe('0.0s');
  });

  it('reports only new and changed rows', () => {
    const before = [row('a'), row('b')];
    expect(changedRows([], before).map((r) => r.name)).toEqual(['a', 'b']);
    expect(changedRows(before, [row('a'), row('b')])).toEqual([]);
    expect(changedRows(before, [row('a', { standby: 1 }), row('b')]).map((r) => r.name)).toEqual(['a']);
    expect(changedRows(before, [row('a'), row('b', { pending: 2 }), row('c')]).map((r) => r.name)).toEqual([
      'b',
      'c',
    ]);
  });
});
