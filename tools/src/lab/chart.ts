/**
 * The lab's chart: one panel per pool, stacked, plotting pool size (replicas), available instances
 * and pending leases over the run as step lines. When the set reports them, it also marks the
 * schedule windows in effect (shaded spans, named), the warm buffer the forecast would set (a dashed
 * line) and the warm-hit ratio (a line on a 0–100 % axis at the right). A self-contained SVG document
 * (no scripts, fonts or stylesheets from elsewhere), so it opens in any browser or image viewer and
 * can be attached to a CI run.
 */

export interface ChartPoint {
  /** ms since the load started. */
  readonly tMs: number;
  readonly replicas: number;
  readonly available: number;
  readonly pending: number;
  /** Schedule windows in effect (none: no window; absent: not reported). */
  readonly windows?: readonly string[];
  /** The warm buffer the forecast would set. */
  readonly forecast?: number;
  /** Share of leases served warm, 0–1. */
  readonly warmHit?: number;
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
  /** A simulated day played from `startMs` over `lengthMs`: hours are marked under the time axis. */
  readonly day?: { readonly startMs: number; readonly lengthMs: number };
  readonly pools: readonly ChartPool[];
}

export const CHART_SERIES = [
  { key: 'replicas', label: 'pool size (replicas)', color: '#1f77b4' },
  { key: 'available', label: 'available', color: '#2ca02c' },
  { key: 'pending', label: 'pending leases', color: '#d62728' },
] as const satisfies readonly { key: keyof ChartPoint; label: string; color: string }[];

/** Drawn only where a pool reports them. */
export const OPTIONAL_SERIES = [
  { key: 'forecast', label: 'forecast warm buffer', color: '#9467bd' },
  { key: 'warmHit', label: 'warm-hit ratio (right axis)', color: '#ff7f0e' },
] as const satisfies readonly { key: keyof ChartPoint; label: string; color: string }[];
const WINDOW_FILL = '#fdf1c7';

const WIDTH = 800;
const PANEL_HEIGHT = 190;
const HEADER = 64;
const DAY_AXIS = 14;
const MARGIN = { left: 52, right: 20, top: 26, bottom: 30 } as const;

/** Renders the chart as an SVG document. */
export function renderChart(input: ChartInput): string {
  const panelHeight = PANEL_HEIGHT + (input.day ? DAY_AXIS : 0);
  const legendRows = Math.ceil(
    (CHART_SERIES.length +
      OPTIONAL_SERIES.filter((s) => input.pools.some((p) => p.points.some((q) => q[s.key] !== undefined)))
        .length +
      (input.pools.some((p) => p.points.some((q) => (q.windows?.length ?? 0) > 0)) ? 1 : 0)) /
      4,
  );
  const height = HEADER + (legendRows - 1) * 14 + input.pools.length * panelHeight + 8;
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
  const points = input.pools.flatMap((p) => p.points);
  const legend: { label: string; color: string; swatch: 'line' | 'area' }[] = [
    ...CHART_SERIES.map((s) => ({ ...s, swatch: 'line' as const })),
    ...OPTIONAL_SERIES.filter((s) => points.some((p) => p[s.key] !== undefined)).map((s) => ({
      ...s,
      swatch: 'line' as const,
    })),
    ...(points.some((p) => (p.windows?.length ?? 0) > 0)
      ? [{ label: 'schedule window', color: WINDOW_FILL, swatch: 'area' as const }]
      : []),
  ];
  const perRow = 4;
  legend.forEach((entry, i) => {
    const x = MARGIN.left + (i % perRow) * 180;
    const y = 52 + Math.floor(i / perRow) * 14;
    const swatch =
      entry.swatch === 'line'
        ? `<line x1="${x}" y1="${y}" x2="${x + 18}" y2="${y}" stroke="${entry.color}" stroke-width="2"/>`
        : `<rect x="${x}" y="${y - 5}" width="18" height="10" fill="${entry.color}" stroke="#e0c060"/>`;
    out.push(
      `<g class="legend">${swatch}<text x="${x + 24}" y="${y + 4}">${escapeXml(entry.label)}</text></g>`,
    );
  });
  const top = HEADER + (Math.ceil(legend.length / perRow) - 1) * 14;
  input.pools.forEach((pool, i) =>
    out.push(panel(pool, top + i * panelHeight, durationMs, input.markerMs, input.day)),
  );
  out.push('</svg>');
  return out.join('\n') + '\n';
}

function panel(
  pool: ChartPool,
  top: number,
  durationMs: number,
  markerMs: number | undefined,
  day: ChartInput['day'],
): string {
  const hasWarmHit = pool.points.some((p) => p.warmHit !== undefined);
  const plot = {
    left: MARGIN.left,
    right: WIDTH - MARGIN.right - (hasWarmHit ? 24 : 0),
    top: top + MARGIN.top,
    bottom: top + PANEL_HEIGHT - MARGIN.bottom,
  };
  const highest = Math.max(
    1,
    pool.maxReplicas ?? 0,
    ...pool.points.flatMap((p) => CHART_SERIES.map((s) => p[s.key])),
    ...pool.points.flatMap((p) => (p.forecast !== undefined ? [p.forecast] : [])),
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
  // Schedule windows first, so the lines are drawn over them; their names sit below the load marker's.
  for (const span of windowSpans(pool.points)) {
    const x1 = x(span.fromMs);
    const x2 = x(span.toMs);
    parts.push(
      `<rect class="window" data-windows="${escapeXml(span.names.join(','))}" x="${fmt(x1)}" y="${plot.top}" width="${fmt(Math.max(0.5, x2 - x1))}" height="${plot.bottom - plot.top}" fill="${WINDOW_FILL}"/>`,
      `<text class="window-name" x="${fmt(x1 + 3)}" y="${plot.top + 22}" fill="#8a6d00">${escapeXml(span.names.join(' + '))}</text>`,
    );
  }
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
  if (day) {
    const hourMs = day.lengthMs / 24;
    for (let hour = 0; hour <= 24; hour += 3) {
      const t = day.startMs + hour * hourMs;
      if (t < 0 || t > durationMs) continue;
      parts.push(
        `<text class="hour" x="${fmt(x(t))}" y="${plot.bottom + 16 + DAY_AXIS}" text-anchor="middle" fill="#8a6d00">${String(hour % 24).padStart(2, '0')}:00</text>`,
      );
    }
  }
  for (const series of CHART_SERIES) {
    const points = stepPoints(pool.points.map((p) => [x(p.tMs), y(p[series.key])] as const));
    parts.push(
      `<polyline class="series ${series.key}" fill="none" stroke="${series.color}" stroke-width="1.8" points="${points}"/>`,
    );
  }
  for (const segment of definedSegments(pool.points, (p) => p.forecast)) {
    parts.push(
      `<polyline class="series forecast" fill="none" stroke="${OPTIONAL_SERIES[0].color}" stroke-width="1.5" stroke-dasharray="5 3" points="${stepPoints(segment.map(([t, v]) => [x(t), y(v)] as const))}"/>`,
    );
  }
  if (hasWarmHit) {
    const yRatio = (r: number) => plot.bottom - Math.min(1, Math.max(0, r)) * (plot.bottom - plot.top);
    parts.push(
      `<line x1="${plot.right}" y1="${plot.top}" x2="${plot.right}" y2="${plot.bottom}" stroke="${OPTIONAL_SERIES[1].color}" stroke-opacity="0.5"/>`,
      `<text x="${plot.right + 4}" y="${plot.top + 4}" fill="${OPTIONAL_SERIES[1].color}">100%</text>`,
      `<text x="${plot.right + 4}" y="${plot.bottom + 4}" fill="${OPTIONAL_SERIES[1].color}">0%</text>`,
    );
    for (const segment of definedSegments(pool.points, (p) => p.warmHit)) {
      parts.push(
        `<polyline class="series warm-hit" fill="none" stroke="${OPTIONAL_SERIES[1].color}" stroke-width="1.5" points="${stepPoints(segment.map(([t, v]) => [x(t), yRatio(v)] as const))}"/>`,
      );
    }
  }
  parts.push('</g>');
  return parts.join('\n');
}

/** Runs of samples with the same non-empty set of windows in effect, each until the next sample. */
export function windowSpans(
  points: readonly ChartPoint[],
): { fromMs: number; toMs: number; names: readonly string[] }[] {
  const spans: { fromMs: number; toMs: number; names: readonly string[] }[] = [];
  points.forEach((p, i) => {
    const names = [...(p.windows ?? [])].sort();
    const toMs = points[i + 1]?.tMs ?? p.tMs;
    const last = spans.at(-1);
    if (names.length === 0) return;
    if (last && last.toMs === p.tMs && last.names.join('\n') === names.join('\n')) last.toMs = toMs;
    else spans.push({ fromMs: p.tMs, toMs, names });
  });
  return spans;
}

/** The runs of consecutive samples where `value` is reported, as [t, value] pairs. */
function definedSegments(
  points: readonly ChartPoint[],
  value: (p: ChartPoint) => number | undefined,
): [number, number][][] {
  const segments: [number, number][][] = [];
  let current: [number, number][] | undefined;
  for (const p of points) {
    const v = value(p);
    if (v === undefined) current = undefined;
    else {
      if (!current) segments.push((current = []));
      current.push([p.tMs, v]);
    }
  }
  return segments;
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
