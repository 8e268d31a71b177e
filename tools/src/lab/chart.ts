/**
 * The lab's chart: one panel per pool, stacked, plotting pool size (replicas), available instances
 * and pending leases over the run as step lines. A self-contained SVG document (no scripts, fonts
 * or stylesheets from elsewhere), so it opens in any browser or image viewer and can be attached to
 * a CI run.
 */

export interface ChartPoint {
  /** ms since the load started. */
  readonly tMs: number;
  readonly replicas: number;
  readonly available: number;
  readonly pending: number;
}

export interface ChartPool {
  readonly name: string;
  /** Drawn as a dashed line when the set has a ceiling. */
  readonly maxReplicas?: number;
  readonly points: readonly ChartPoint[];
}

export interface ChartInput {
  readonly title: string;
  readonly subtitle?: string;
  /** The x axis spans [0, durationMs]. */
  readonly durationMs: number;
  /** A vertical marker (the load's start), ms. */
  readonly markerMs?: number;
  readonly pools: readonly ChartPool[];
}

export const CHART_SERIES = [
  { key: 'replicas', label: 'pool size (replicas)', color: '#1f77b4' },
  { key: 'available', label: 'available', color: '#2ca02c' },
  { key: 'pending', label: 'pending leases', color: '#d62728' },
] as const satisfies readonly { key: keyof ChartPoint; label: string; color: string }[];

const WIDTH = 800;
const PANEL_HEIGHT = 190;
const HEADER = 64;
const MARGIN = { left: 52, right: 20, top: 26, bottom: 30 } as const;

/** Renders the chart as an SVG document. */
export function renderChart(input: ChartInput): string {
  const height = HEADER + input.pools.length * PANEL_HEIGHT + 8;
  const durationMs = Math.max(1, input.durationMs);
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="11">`,
    `<title>${escapeXml(input.title)}</title>`,
    `<rect x="0" y="0" width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="${MARGIN.left}" y="20" font-size="15" font-weight="bold">${escapeXml(input.title)}</text>`,
  ];
  if (input.subtitle) {
    out.push(`<text x="${MARGIN.left}" y="37" fill="#555555">${escapeXml(input.subtitle)}</text>`);
  }
  CHART_SERIES.forEach((series, i) => {
    const x = MARGIN.left + i * 170;
    out.push(
      `<g class="legend"><line x1="${x}" y1="52" x2="${x + 18}" y2="52" stroke="${series.color}" stroke-width="2"/>` +
        `<text x="${x + 24}" y="56">${escapeXml(series.label)}</text></g>`,
    );
  });
  input.pools.forEach((pool, i) =>
    out.push(panel(pool, HEADER + i * PANEL_HEIGHT, durationMs, input.markerMs)),
  );
  out.push('</svg>');
  return out.join('\n') + '\n';
}

function panel(pool: ChartPool, top: number, durationMs: number, markerMs: number | undefined): string {
  const plot = {
    left: MARGIN.left,
    right: WIDTH - MARGIN.right,
    top: top + MARGIN.top,
    bottom: top + PANEL_HEIGHT - MARGIN.bottom,
  };
  const highest = Math.max(
    1,
    pool.maxReplicas ?? 0,
    ...pool.points.flatMap((p) => CHART_SERIES.map((s) => p[s.key])),
  );
  const yStep = Math.max(1, niceStep(highest, 4)); // counts: whole steps
  const yMax = Math.ceil(highest / yStep) * yStep;
  const xStep = niceStep(durationMs / 1000, 8) * 1000;
  const x = (ms: number) =>
    plot.left + (Math.min(Math.max(ms, 0), durationMs) / durationMs) * (plot.right - plot.left);
  const y = (v: number) => plot.bottom - (v / yMax) * (plot.bottom - plot.top);
  const parts: string[] = [
    `<g class="panel" id="${escapeXml(idOf(pool.name))}">`,
    `<text class="pool-name" x="${plot.left}" y="${top + 16}" font-size="13" font-weight="bold">${escapeXml(pool.name)}</text>`,
  ];
  for (let v = 0; v <= yMax + 1e-9; v += yStep) {
    parts.push(
      `<line x1="${plot.left}" y1="${fmt(y(v))}" x2="${plot.right}" y2="${fmt(y(v))}" stroke="#e5e5e5"/>`,
      `<text x="${plot.left - 6}" y="${fmt(y(v) + 4)}" text-anchor="end" fill="#555555">${fmt(v)}</text>`,
    );
  }
  for (let t = 0; t <= durationMs + 1e-9; t += xStep) {
    parts.push(
      `<line x1="${fmt(x(t))}" y1="${plot.bottom}" x2="${fmt(x(t))}" y2="${plot.bottom + 4}" stroke="#999999"/>`,
      `<text x="${fmt(x(t))}" y="${plot.bottom + 16}" text-anchor="middle" fill="#555555">${fmt(t / 1000)}s</text>`,
    );
  }
  parts.push(
    `<line x1="${plot.left}" y1="${plot.bottom}" x2="${plot.right}" y2="${plot.bottom}" stroke="#999999"/>`,
    `<line x1="${plot.left}" y1="${plot.top}" x2="${plot.left}" y2="${plot.bottom}" stroke="#999999"/>`,
  );
  if (pool.maxReplicas !== undefined && pool.maxReplicas > 0) {
    parts.push(
      `<line class="ceiling" x1="${plot.left}" y1="${fmt(y(pool.maxReplicas))}" x2="${plot.right}" y2="${fmt(y(pool.maxReplicas))}" stroke="#1f77b4" stroke-dasharray="4 3" stroke-opacity="0.6"/>`,
      `<text x="${plot.right}" y="${fmt(y(pool.maxReplicas) - 3)}" text-anchor="end" fill="#1f77b4">maxReplicas ${pool.maxReplicas}</text>`,
    );
  }
  if (markerMs !== undefined && markerMs > 0 && markerMs < durationMs) {
    parts.push(
      `<line class="marker" x1="${fmt(x(markerMs))}" y1="${plot.top}" x2="${fmt(x(markerMs))}" y2="${plot.bottom}" stroke="#777777" stroke-dasharray="2 3"/>`,
      `<text x="${fmt(x(markerMs) + 4)}" y="${plot.top + 10}" fill="#777777">load starts</text>`,
    );
  }
  for (const series of CHART_SERIES) {
    const points = stepPoints(pool.points.map((p) => [x(p.tMs), y(p[series.key])] as const));
    parts.push(
      `<polyline class="series ${series.key}" fill="none" stroke="${series.color}" stroke-width="1.8" points="${points}"/>`,
    );
  }
  parts.push('</g>');
  return parts.join('\n');
}

/** A step line: each value holds until the next sample. */
function stepPoints(points: readonly (readonly [number, number])[]): string {
  const out: string[] = [];
  points.forEach(([px, py], i) => {
    if (i > 0) out.push(`${fmt(px)},${fmt(points[i - 1][1])}`);
    out.push(`${fmt(px)},${fmt(py)}`);
  });
  return out.join(' ');
}

/** A 1, 2 or 5 × 10^k step giving at most `maxTicks` intervals over [0, range]. */
export function niceStep(range: number, maxTicks: number): number {
  if (!(range > 0)) return 1;
  const raw = range / maxTicks;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) as number;
  return Math.max(step, Number.EPSILON);
}

const fmt = (n: number): string => String(Math.round(n * 10) / 10);

const idOf = (name: string): string => `pool-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`;

export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
