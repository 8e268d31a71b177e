import { describe, expect, it } from '@jest/globals';
import { decades, escapeXml, renderCharts, tickLabel, ticks } from '../../bench/support/svg-chart';

const coordinates = (svg: string) =>
  [...svg.matchAll(/<polyline points="([^"]+)"/g)].map((m) =>
    m[1].split(' ').map((pair) => pair.split(',').map(Number)),
  );

describe('bench svg chart', () => {
  it('draws a power law as a straight line on its log axes', () => {
    const svg = renderCharts([
      {
        title: 'CPU',
        xLabel: 'sets',
        yLabel: 'ms',
        series: [{ name: 'quadratic', points: [1000, 10, 100].map((x) => ({ x, y: x * x })) }],
      },
    ]);
    const [line] = coordinates(svg);
    expect(line).toHaveLength(3);
    const [[x0, y0], [x1, y1], [x2, y2]] = line; // sorted by x
    expect(x0).toBeLessThan(x1);
    expect(x1 - x0).toBeCloseTo(x2 - x1, 0);
    expect(y0 - y1).toBeCloseTo(y1 - y2, 0); // equal steps up for equal steps across
    expect(y0).toBeGreaterThan(y2); // larger values higher
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg.match(/<circle /g)).toHaveLength(3);
  });

  it('lays panels out in rows, with a line and a legend entry per series and a caption', () => {
    const chart = (title: string) => ({
      title,
      xLabel: 'x',
      yLabel: 'y',
      series: [
        {
          name: 'a',
          points: [
            { x: 1, y: 1 },
            { x: 10, y: 2 },
          ],
        },
        {
          name: 'b',
          points: [
            { x: 1, y: 3 },
            { x: 10, y: 4 },
          ],
        },
      ],
    });
    const svg = renderCharts([chart('one'), chart('two'), chart('three')], {
      columns: 2,
      width: 100,
      height: 80,
      caption: 'measured <today>',
    });
    expect(svg).toContain('width="200" height="204"'); // 2 rows of 80, the shared legend and the caption
    expect(coordinates(svg)).toHaveLength(6);
    expect(svg.match(/>a<\/text>/g)).toHaveLength(1); // one legend for all panels
    expect(svg).toContain('>measured &lt;today&gt;</text>');
    expect(svg).toContain('>three</text>');
  });

  it('says so when a panel has nothing to draw', () => {
    const svg = renderCharts([{ title: 't', xLabel: 'x', yLabel: 'y', series: [{ name: 's', points: [] }] }]);
    expect(svg).toContain('>no data</text>');
    expect(coordinates(svg)).toEqual([]);
  });

  it('labels whole decades around the data', () => {
    expect(decades(3, 450)).toEqual({ low: 1, high: 1000 });
    expect(decades(10, 10)).toEqual({ low: 10, high: 100 });
    expect(decades(0.02, 0.5)).toEqual({ low: 0.01, high: 1 });
    expect(() => decades(0, 1)).toThrow('positive');
    expect([0.001, 1, 10, 1000, 100_000, 1_000_000].map(tickLabel)).toEqual([
      '0.001',
      '1',
      '10',
      '1k',
      '100k',
      '1M',
    ]);
    expect(ticks({ low: 1, high: 1000 })).toEqual([1, 10, 100, 1000]);
    expect(ticks({ low: 0.1, high: 10 })).toEqual([0.1, 0.2, 0.5, 1, 2, 5, 10]);
    expect(escapeXml(`a<b & "c"`)).toBe('a&lt;b &amp; &quot;c&quot;');
  });
});
