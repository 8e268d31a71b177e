import { describe, expect, it } from '@jest/globals';
import { CHART_SERIES, niceStep, renderChart, type ChartInput } from '../../src/lab/chart';
import { findAll, parseXml, textOf, type XmlElement } from './xml';

const points = [
  { tMs: 0, replicas: 0, available: 0, pending: 0 },
  { tMs: 1000, replicas: 2, available: 2, pending: 0 },
  { tMs: 2000, replicas: 5, available: 0, pending: 3 },
  { tMs: 3000, replicas: 5, available: 1, pending: 0 },
];

const input: ChartInput = {
  title: 'Lab <2 pools> & "friends"',
  subtitle: 'seed 1',
  durationMs: 3000,
  markerMs: 1000,
  pools: [
    { name: 'rpi4-virtual', maxReplicas: 20, points },
    { name: 'x86 & co', points: points.slice(0, 2) },
  ],
};

const classOf = (e: XmlElement) => (e.attributes.class ?? '').split(' ');
const panels = (svg: XmlElement) => findAll(svg, (e) => e.name === 'g' && classOf(e).includes('panel'));
const coordinates = (polyline: XmlElement) =>
  polyline.attributes.points.split(' ').map((pair) => pair.split(',').map(Number));

describe('renderChart', () => {
  it('is a well-formed, self-contained SVG document', () => {
    const svg = parseXml(renderChart(input));
    expect(svg.name).toBe('svg');
    expect(svg.attributes.xmlns).toBe('http://www.w3.org/2000/svg');
    expect(Number(svg.attributes.width)).toBeGreaterThan(0);
    expect(Number(svg.attributes.height)).toBeGreaterThan(0);
    // Nothing loaded from elsewhere: no scripts, images, links or external styles.
    expect(findAll(svg, (e) => ['script', 'image', 'a', 'style', 'foreignObject'].includes(e.name))).toEqual(
      [],
    );
    expect(findAll(svg, (e) => Object.keys(e.attributes).some((a) => a.includes('href')))).toEqual([]);
  });

  it('escapes text, so any pool name or title stays well-formed', () => {
    const svg = parseXml(renderChart(input));
    expect(textOf(findAll(svg, (e) => e.name === 'title')[0])).toBe('Lab <2 pools> & "friends"');
    expect(panels(svg).map((p) => textOf(p.children[0]))).toEqual(['rpi4-virtual', 'x86 & co']);
  });

  it('draws one panel per pool with a step line for every series and the legend', () => {
    const svg = parseXml(renderChart(input));
    const [first, second] = panels(svg);
    for (const [panel, n] of [
      [first, 4],
      [second, 2],
    ] as const) {
      const lines = findAll(panel, (e) => e.name === 'polyline' && classOf(e).includes('series'));
      expect(lines.map((l) => classOf(l)[1])).toEqual(CHART_SERIES.map((s) => s.key));
      // A step line has a corner before every sample but the first.
      for (const line of lines) expect(coordinates(line)).toHaveLength(2 * n - 1);
    }
    const legend = findAll(svg, (e) => e.name === 'g' && classOf(e).includes('legend')).map(textOf);
    expect(legend).toEqual(CHART_SERIES.map((s) => s.label));
  });

  it('plots the values: higher counts are higher up, time runs left to right', () => {
    const svg = parseXml(renderChart(input));
    const [first] = panels(svg);
    const replicas = findAll(first, (e) => e.name === 'polyline' && classOf(e).includes('replicas'))[0];
    const xy = coordinates(replicas);
    // Samples are at indexes 0, 2, 4, 6 (corners between them).
    const samples = [0, 2, 4, 6].map((i) => xy[i]);
    expect(samples.map(([x]) => x)).toEqual([...samples.map(([x]) => x)].sort((a, b) => a - b));
    expect(samples[1][1]).toBeLessThan(samples[0][1]); // 2 above 0 (SVG y grows downwards)
    expect(samples[2][1]).toBeLessThan(samples[1][1]); // 5 above 2
    expect(samples[3][1]).toBe(samples[2][1]); // still 5
    // The ceiling and the load marker are drawn where a pool has them.
    expect(findAll(first, (e) => classOf(e).includes('ceiling'))).toHaveLength(1);
    expect(findAll(panels(svg)[1], (e) => classOf(e).includes('ceiling'))).toHaveLength(0);
    expect(findAll(first, (e) => classOf(e).includes('marker'))).toHaveLength(1);
  });

  it('renders a run without samples', () => {
    const svg = parseXml(renderChart({ title: 't', durationMs: 0, pools: [{ name: 'p', points: [] }] }));
    expect(panels(svg)).toHaveLength(1);
  });
});

describe('niceStep', () => {
  it('picks 1, 2 or 5 times a power of ten giving at most the asked number of intervals', () => {
    expect(niceStep(20, 4)).toBe(5);
    expect(niceStep(60, 8)).toBe(10);
    expect(niceStep(7, 4)).toBe(2);
    expect(niceStep(0.3, 4)).toBeCloseTo(0.1);
    expect(niceStep(0, 4)).toBe(1);
    for (const range of [3, 17, 99, 1234]) expect(range / niceStep(range, 5)).toBeLessThanOrEqual(5);
  });
});
