/**
 * Line charts as plain SVG text, for the cost curve in bench/README.md: panels side by side, each with
 * log-scaled axes (decades labelled), one line per series with its points marked, and a legend. No
 * dependency: a chart is a few dozen elements, and the README renders the file as it is.
 */

export interface Series {
  readonly name: string;
  /** Drawn dashed (a variant of another series). */
  readonly dashed?: boolean;
  readonly points: readonly { readonly x: number; readonly y: number }[];
}

export interface Chart {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly Series[];
}

export interface ChartLayout {
  /** Panels per row. @default 2 */
  readonly columns?: number;
  /** One panel's size in px. @default 360 × 260 */
  readonly width?: number;
  readonly height?: number;
  /** A line under the panels (e.g. machine and date). */
  readonly caption?: string;
}

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b'];
const MARGIN = { left: 58, right: 20, top: 28, bottom: 40 };

export function escapeXml(text: string): string {
  return text.replace(
    /[<>&"']/g,
    (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": 'apos' }[c]};`,
  );
}

/** Whole decades covering [min, max] (positive): e.g. 3 … 450 → [1, 1000]. */
export function decades(min: number, max: number): { low: number; high: number } {
  if (!(min > 0) || !(max > 0)) throw new Error('a log axis needs positive values');
  const low = 10 ** Math.floor(Math.log10(min) + 1e-9);
  let high = 10 ** Math.ceil(Math.log10(max) - 1e-9);
  if (high <= low) high = low * 10;
  return { low, high };
}

/** The ticks of a log axis: every decade, and 2 and 5 in between when it spans at most two decades. */
export function ticks({ low, high }: { low: number; high: number }): number[] {
  const steps = high / low <= 100 ? [1, 2, 5] : [1];
  const out: number[] = [];
  for (let decade = low; decade <= high * 1.0001; decade *= 10) {
    for (const step of steps)
      if (decade * step <= high * 1.0001) out.push(Number((decade * step).toPrecision(6)));
  }
  return out;
}

/** A tick label: 0.001, 0.5, 10, 1k, 100k, 1M. */
export function tickLabel(value: number): string {
  const fixed = (v: number) => String(Number(v.toPrecision(3)));
  if (value >= 1e6) return `${fixed(value / 1e6)}M`;
  if (value >= 1e3) return `${fixed(value / 1e3)}k`;
  return fixed(value);
}

const round = (v: number) => Math.round(v * 10) / 10;

function panel(
  chart: Chart,
  ox: number,
  oy: number,
  width: number,
  height: number,
  ownLegend: boolean,
): string[] {
  const all = chart.series.flatMap((s) => s.points).filter((p) => p.x > 0 && p.y > 0);
  const out: string[] = [];
  const plotW = width - MARGIN.left - MARGIN.right;
  const plotH = height - MARGIN.top - MARGIN.bottom;
  const left = ox + MARGIN.left;
  const top = oy + MARGIN.top;
  out.push(
    `<text x="${round(ox + width / 2)}" y="${oy + 16}" text-anchor="middle" font-weight="bold">${escapeXml(chart.title)}</text>`,
  );
  out.push(`<rect x="${left}" y="${top}" width="${plotW}" height="${plotH}" fill="none" stroke="#999"/>`);
  if (all.length === 0) {
    out.push(
      `<text x="${round(left + plotW / 2)}" y="${round(top + plotH / 2)}" text-anchor="middle">no data</text>`,
    );
    return out;
  }
  const xs = decades(Math.min(...all.map((p) => p.x)), Math.max(...all.map((p) => p.x)));
  const ys = decades(Math.min(...all.map((p) => p.y)), Math.max(...all.map((p) => p.y)));
  const sx = (x: number) =>
    left + ((Math.log10(x) - Math.log10(xs.low)) / Math.log10(xs.high / xs.low)) * plotW;
  const sy = (y: number) =>
    top + plotH - ((Math.log10(y) - Math.log10(ys.low)) / Math.log10(ys.high / ys.low)) * plotH;
  for (const x of ticks(xs)) {
    const px = round(sx(x));
    out.push(`<line x1="${px}" y1="${top}" x2="${px}" y2="${top + plotH}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${px}" y="${top + plotH + 14}" text-anchor="middle">${tickLabel(x)}</text>`);
  }
  for (const y of ticks(ys)) {
    const py = round(sy(y));
    out.push(`<line x1="${left}" y1="${py}" x2="${left + plotW}" y2="${py}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${left - 5}" y="${py + 4}" text-anchor="end">${tickLabel(y)}</text>`);
  }
  out.push(
    `<text x="${round(left + plotW / 2)}" y="${top + plotH + 32}" text-anchor="middle">${escapeXml(chart.xLabel)}</text>`,
  );
  out.push(
    `<text transform="translate(${ox + 14} ${round(top + plotH / 2)}) rotate(-90)" text-anchor="middle">${escapeXml(chart.yLabel)}</text>`,
  );
  chart.series.forEach((series, index) => {
    const color = COLORS[index % COLORS.length];
    const dash = series.dashed ? ' stroke-dasharray="5 3"' : '';
    const points = series.points.filter((p) => p.x > 0 && p.y > 0).sort((a, b) => a.x - b.x);
    if (points.length > 1) {
      const path = points.map((p) => `${round(sx(p.x))},${round(sy(p.y))}`).join(' ');
      out.push(`<polyline points="${path}" fill="none" stroke="${color}" stroke-width="2"${dash}/>`);
    }
    for (const p of points) {
      out.push(`<circle cx="${round(sx(p.x))}" cy="${round(sy(p.y))}" r="3" fill="${color}"/>`);
    }
    if (ownLegend) out.push(...legendEntry(series, index, left + 8, top + 6 + index * 14));
  });
  return out;
}

function legendEntry(series: Series, index: number, x: number, y: number): string[] {
  const color = COLORS[index % COLORS.length];
  const dash = series.dashed ? ' stroke-dasharray="5 3"' : '';
  return [
    `<line x1="${x}" y1="${y}" x2="${x + 14}" y2="${y}" stroke="${color}" stroke-width="2"${dash}/>`,
    `<text x="${x + 18}" y="${y + 4}">${escapeXml(series.name)}</text>`,
  ];
}

/** The series names when every chart has the same ones (then one legend serves all). */
function sharedSeries(charts: readonly Chart[]): readonly Series[] | undefined {
  const names = (chart: Chart) => chart.series.map((s) => s.name).join('\n');
  return charts.length > 1 && charts.every((c) => names(c) === names(charts[0]))
    ? charts[0].series
    : undefined;
}

/**
 * The charts as one SVG document, in rows of `columns` panels; one legend under them when every chart
 * has the same series, else a legend in each panel.
 */
export function renderCharts(charts: readonly Chart[], layout: ChartLayout = {}): string {
  const columns = layout.columns ?? 2;
  const width = layout.width ?? 360;
  const height = layout.height ?? 260;
  const rows = Math.ceil(charts.length / columns);
  const shared = sharedSeries(charts);
  const legendHeight = shared ? 22 : 0;
  const captionHeight = layout.caption ? 22 : 0;
  const totalW = columns * width;
  const totalH = rows * height + legendHeight + captionHeight;
  const body = charts.flatMap((chart, i) =>
    panel(chart, (i % columns) * width, Math.floor(i / columns) * height, width, height, !shared),
  );
  if (shared) {
    const step = Math.floor(totalW / shared.length);
    shared.forEach((series, index) =>
      body.push(...legendEntry(series, index, index * step + MARGIN.left, rows * height + 8)),
    );
  }
  if (layout.caption) {
    body.push(
      `<text x="${totalW / 2}" y="${totalH - 7}" text-anchor="middle" fill="#555">${escapeXml(layout.caption)}</text>`,
    );
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${totalW}" height="${totalH}" viewBox="0 0 ${totalW} ${totalH}" font-family="sans-serif" font-size="11">`,
    `<rect width="${totalW}" height="${totalH}" fill="#fff"/>`,
    ...body.map((line) => `  ${line}`),
    '</svg>',
    '',
  ].join('\n');
}
