import { describe, expect, it } from '@jest/globals';
import {
  CHART_SERIES,
  niceStep,
  OPTIONAL_SERIES,
  renderChart,
  windowSpans,
  type ChartInput,
} from '../../src/lab/chart';
import { poolRow } from '../../src/lab/pool-status';
import { chartPoint } from '../../src/lab/report';
import type { ExporterSet } from 'virtual-exporters/internal';
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

/** A synthetic ExporterSet whose status has the issue-17 fields at their wire paths. */
function set(status: Record<string, unknown>): ExporterSet {
  return {
    apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
    kind: 'ExporterSet',
    metadata: { name: 'pool', namespace: 'lab' },
    spec: {},
    status: { replicas: 3, readyReplicas: 3, availableReplicas: 2, leasedReplicas: 1, ...status },
  } as unknown as ExporterSet;
}

const window = (name: string) => ({
  name,
  opensAt: '2026-11-26T08:00:00Z',
  closesAt: '2026-11-26T18:00:00Z',
});

describe('the chart of a workday, from the pool rows the lab samples', () => {
  // One row per second: a window opens at 2 s and another overlaps it at 4–5 s; the forecast and the
  // warm-hit ratio appear once the controller reports them (from 1 s), and vanish for a sample.
  const statuses: Record<string, unknown>[] = [
    {},
    { forecast: { warmBuffer: 4 }, leaseWait: { windowStart: 'x', leases: 0 } },
    {
      schedules: { active: [window('working-hours')] },
      forecast: { warmBuffer: 6 },
      leaseWait: { warmHitRatio: 0.5 },
    },
    {
      schedules: { active: [window('working-hours')] },
      forecast: { warmBuffer: 6 },
      leaseWait: { warmHitRatio: 0.8 },
    },
    {
      schedules: { active: [window('working-hours'), window('nightly')] },
      forecast: { warmBuffer: 9 },
      leaseWait: { warmHitRatio: 1 },
    },
    { schedules: { active: [] }, forecast: { warmBuffer: 'n/a' }, leaseWait: { warmHitRatio: 0.9 } },
    {
      schedules: { active: [window('working-hours')] },
      forecast: { warmBuffer: 5 },
      leaseWait: { warmHitRatio: 0.95 },
    },
  ];
  const rows = statuses.map((status) => poolRow('pool', set(status)));
  const points = rows.map((row, i) => chartPoint(i * 1000, row, i % 2));
  const day: ChartInput = {
    title: 'workday',
    durationMs: 7000,
    day: { startMs: 1000, lengthMs: 6000 },
    pools: [{ name: 'pool', maxReplicas: 10, points }],
  };

  it('reads windows, forecast and warm-hit ratio from the status only when reported with their type', () => {
    expect(rows[0]).toEqual({
      name: 'pool',
      replicas: 3,
      ready: 3,
      available: 2,
      leased: 1,
      starting: 0,
      standby: 0,
      pending: 0,
    });
    expect(rows[1]).toMatchObject({ forecastWarmBuffer: 4 });
    expect(rows[1].windows).toBeUndefined();
    expect(rows[1].warmHitRatio).toBeUndefined();
    expect(rows[4]).toMatchObject({
      windows: ['working-hours', 'nightly'],
      forecastWarmBuffer: 9,
      warmHitRatio: 1,
    });
    expect(rows[5]).toMatchObject({ windows: [], warmHitRatio: 0.9 });
    expect(rows[5].forecastWarmBuffer).toBeUndefined();
    expect(points[4]).toEqual({
      tMs: 4000,
      replicas: 3,
      available: 2,
      pending: 0,
      windows: ['working-hours', 'nightly'],
      forecast: 9,
      warmHit: 1,
    });
  });

  it('merges samples with the same windows into spans that last until the next sample', () => {
    expect(windowSpans(points)).toEqual([
      { fromMs: 2000, toMs: 4000, names: ['working-hours'] },
      { fromMs: 4000, toMs: 5000, names: ['nightly', 'working-hours'] },
      { fromMs: 6000, toMs: 6000, names: ['working-hours'] },
    ]);
  });

  it('shades the windows under the lines and names them', () => {
    const svg = parseXml(renderChart(day));
    const [panel] = panels(svg);
    const rects = findAll(panel, (e) => e.name === 'rect' && classOf(e).includes('window'));
    expect(rects.map((r) => r.attributes['data-windows'])).toEqual([
      'working-hours',
      'nightly,working-hours',
      'working-hours',
    ]);
    const names = findAll(panel, (e) => classOf(e).includes('window-name')).map(textOf);
    expect(names).toEqual(['working-hours', 'nightly + working-hours', 'working-hours']);
    // The span from 2 s to 4 s is twice as wide as the one from 4 s to 5 s.
    const [first, second] = rects.map((r) => Number(r.attributes.width));
    expect(first).toBeCloseTo(2 * second, 0);
    // Drawn before (under) every series line.
    const order = panel.children.map((c) =>
      classOf(c).includes('window') ? 'w' : classOf(c).includes('series') ? 's' : '',
    );
    expect(order.lastIndexOf('w')).toBeLessThan(order.indexOf('s'));
  });

  it('draws the forecast buffer and the warm-hit ratio where reported, in segments around the gaps', () => {
    const svg = parseXml(renderChart(day));
    const [panel] = panels(svg);
    const forecast = findAll(panel, (e) => e.name === 'polyline' && classOf(e).includes('forecast'));
    // Samples 1–4, then 6 (5 reported no number).
    expect(forecast.map((l) => coordinates(l).length)).toEqual([2 * 4 - 1, 1]);
    const warmHit = findAll(panel, (e) => e.name === 'polyline' && classOf(e).includes('warm-hit'));
    expect(warmHit.map((l) => coordinates(l).length)).toEqual([2 * 5 - 1]);
    // The ratio uses its own 0–100 % axis: 1 is at the top of the plot, 0.5 half-way down.
    const ys = coordinates(warmHit[0])
      .filter((_, i) => i % 2 === 0)
      .map(([, y]) => y);
    const top = Math.min(...ys);
    const bottom = Number(
      findAll(
        panel,
        (e) => e.name === 'line' && e.attributes.y1 === e.attributes.y2 && e.attributes.stroke === '#999999',
      )[0].attributes.y1,
    );
    expect(ys[2]).toBe(top); // ratio 1
    expect(ys[0]).toBeCloseTo((top + bottom) / 2, 0); // ratio 0.5
    // The forecast shares the count axis: 9 is above 6.
    const fy = coordinates(forecast[0])
      .filter((_, i) => i % 2 === 0)
      .map(([, y]) => y);
    expect(fy[3]).toBeLessThan(fy[1]);
    expect(textOf(findAll(panel, (e) => e.name === 'text' && textOf(e) === '100%')[0])).toBe('100%');
  });

  it('adds legend entries for what is drawn, and marks the hours of the simulated day', () => {
    const svg = parseXml(renderChart(day));
    const legend = findAll(svg, (e) => e.name === 'g' && classOf(e).includes('legend')).map(textOf);
    expect(legend).toEqual([
      ...CHART_SERIES.map((s) => s.label),
      ...OPTIONAL_SERIES.map((s) => s.label),
      'schedule window',
    ]);
    const hours = findAll(svg, (e) => classOf(e).includes('hour')).map(textOf);
    expect(hours).toEqual(['00:00', '03:00', '06:00', '09:00', '12:00', '15:00', '18:00', '21:00', '00:00']);
  });

  it('draws none of it for rows without those fields (a controller that does not report them)', () => {
    const plain = statuses.map(() => poolRow('pool', set({})));
    const svg = parseXml(
      renderChart({
        ...day,
        day: undefined,
        pools: [{ name: 'pool', points: plain.map((r, i) => chartPoint(i * 1000, r, 0)) }],
      }),
    );
    expect(
      findAll(svg, (e) => ['window', 'forecast', 'warm-hit', 'hour'].some((c) => classOf(e).includes(c))),
    ).toEqual([]);
    expect(findAll(svg, (e) => e.name === 'g' && classOf(e).includes('legend')).map(textOf)).toEqual(
      CHART_SERIES.map((s) => s.label),
    );
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
