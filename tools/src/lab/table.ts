/**
 * The lab's live view of the pools, in the shape of `kubectl get exportersets -w`: one row per set
 * with the counts its status reports. Columns have fixed widths for the whole run, so rows printed
 * one under another (a CI log) line up with the header printed once.
 */

/** One pool at one moment, as its ExporterSet status says (pending: `status.pendingLeases`). */
export interface PoolRow {
  readonly name: string;
  readonly replicas: number;
  readonly ready: number;
  readonly available: number;
  readonly leased: number;
  readonly starting: number;
  readonly standby: number;
  readonly pending: number;
  /** Names of the schedule windows in effect (`status.schedules.active[].name`), when the set reports them. */
  readonly windows?: readonly string[];
  /** The warm buffer the forecast would set (`status.forecast.warmBuffer`), when reported. */
  readonly forecastWarmBuffer?: number;
  /** The last window's share of leases served warm, 0–1 (`status.leaseWait.warmHitRatio`), when reported. */
  readonly warmHitRatio?: number;
}

const COUNT_COLUMNS = [
  ['REPLICAS', 'replicas'],
  ['READY', 'ready'],
  ['AVAILABLE', 'available'],
  ['LEASED', 'leased'],
  ['STARTING', 'starting'],
  ['STANDBY', 'standby'],
  ['PENDING', 'pending'],
] as const satisfies readonly (readonly [string, keyof PoolRow])[];

const GAP = '   ';
const TIME_WIDTH = 7;

/** The column widths of a run: the NAME column fits the longest pool name. */
export interface TableLayout {
  readonly nameWidth: number;
}

export function tableLayout(poolNames: readonly string[]): TableLayout {
  return { nameWidth: Math.max('NAME'.length, ...poolNames.map((n) => n.length)) };
}

/** Seconds since the start, one decimal (`12.5s`), right-aligned in the TIME column. */
export function formatElapsed(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)}s`;
}

export function tableHeader(layout: TableLayout): string {
  return line(
    layout,
    'TIME',
    'NAME',
    COUNT_COLUMNS.map(([title]) => title),
  );
}

export function tableRow(layout: TableLayout, row: PoolRow, elapsedMs: number): string {
  return line(
    layout,
    formatElapsed(elapsedMs),
    row.name,
    COUNT_COLUMNS.map(([, key]) => String(row[key])),
  );
}

/** Header and every row: what a terminal redraws in place. */
export function tableBlock(layout: TableLayout, rows: readonly PoolRow[], elapsedMs: number): string[] {
  return [tableHeader(layout), ...rows.map((row) => tableRow(layout, row, elapsedMs))];
}

/** The rows of `current` that are new or differ from the row of the same pool in `previous`. */
export function changedRows(previous: readonly PoolRow[], current: readonly PoolRow[]): PoolRow[] {
  const before = new Map(previous.map((row) => [row.name, row]));
  return current.filter((row) => {
    const old = before.get(row.name);
    return old === undefined || COUNT_COLUMNS.some(([, key]) => old[key] !== row[key]);
  });
}

function line(layout: TableLayout, time: string, name: string, counts: readonly string[]): string {
  const cells = [
    time.padStart(TIME_WIDTH),
    name.padEnd(layout.nameWidth),
    ...counts.map((value, i) => value.padEnd(COUNT_COLUMNS[i][0].length)),
  ];
  return cells.join(GAP).trimEnd();
}
