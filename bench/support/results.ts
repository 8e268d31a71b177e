/**
 * What a benchmark reports: its figures, each beside its target, and the details behind them. The
 * runner prints them as a table and writes `bench/results/<name>.json` with the machine it ran on.
 * A missed target is a finding, not an error: the run still succeeds.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as prettier from 'prettier';
import type { Backend } from './benchmark';

export interface Target {
  /** The figure must be at most (`<=`) or exactly (`==`) the value. */
  readonly op: '<=' | '==';
  readonly value: number;
}

export interface Figure {
  readonly label: string;
  readonly value: number;
  readonly unit: string;
  /** Absent: reported for context, no target. */
  readonly target?: Target;
}

export interface BenchResult {
  /** `p1-scale-up` etc.: the results file is `<name>.json`. */
  readonly name: string;
  readonly title: string;
  /** The first figure is the headline. */
  readonly figures: readonly Figure[];
  /** Everything measured on the way, for the README and for whoever digs in. */
  readonly details: Record<string, unknown>;
  /** Why the figure is what it is: what limits it, what was excluded. */
  readonly notes?: readonly string[];
}

export interface Machine {
  readonly cpus: number;
  readonly model: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly platform: string;
  /** 1, 5 and 15 minute load averages when the benchmark started (others' work makes figures noisy). */
  readonly loadAverage: readonly number[];
}

export function machine(): Machine {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    model: cpus[0]?.model ?? cpuModelFromProc() ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

function cpuModelFromProc(): string | undefined {
  try {
    return /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

export function met(figure: Figure): boolean | undefined {
  const { target } = figure;
  if (!target) return undefined;
  return target.op === '<=' ? figure.value <= target.value : figure.value === target.value;
}

export interface ResultFile extends BenchResult {
  readonly date: string;
  readonly quick: boolean;
  /** The API server it ran against (absent in files recorded before `--backend`: the test cluster). */
  readonly backend?: Backend;
  readonly machine: Machine;
  /** Each figure with whether it met its target. */
  readonly verdicts: readonly { label: string; met: boolean | undefined }[];
}

/** The results file of a benchmark on a backend: `<name>.json` on the test cluster, `<name>.kube.json` on kube. */
export const resultFileName = (name: string, backend: Backend = 'test'): string =>
  backend === 'test' ? `${name}.json` : `${name}.${backend}.json`;

/**
 * Writes `<dir>/<name>.json` (`<name>.kube.json` on the real server; formatted as the repository's Prettier config says, so `npm run lint`
 * accepts the recorded results) and returns what it wrote.
 */
export async function writeResult(
  dir: string,
  result: BenchResult,
  run: { quick: boolean; machine: Machine; date?: Date; backend?: Backend },
): Promise<ResultFile> {
  const file: ResultFile = {
    ...result,
    date: (run.date ?? new Date()).toISOString(),
    quick: run.quick,
    ...(run.backend !== undefined ? { backend: run.backend } : {}),
    machine: run.machine,
    verdicts: result.figures.map((f) => ({ label: f.label, met: met(f) })),
  };
  mkdirSync(dir, { recursive: true });
  const target = path.join(dir, resultFileName(result.name, run.backend));
  const options = (await prettier.resolveConfig(target)) ?? {};
  writeFileSync(target, await prettier.format(JSON.stringify(file), { ...options, parser: 'json' }));
  return file;
}

const formatNumber = (value: number): string =>
  Number.isInteger(value) ? String(value) : Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(2);

export function formatTarget(target: Target | undefined, unit: string): string {
  if (!target) return '—';
  const u = unitSuffix(unit);
  return `${target.op === '<=' ? '≤' : '='} ${formatNumber(target.value)}${u}`;
}

export function formatValue(figure: Figure): string {
  return `${formatNumber(figure.value)}${unitSuffix(figure.unit)}`;
}

/** `x` is a ratio (×); `''` a plain number (an exponent, an R²). */
const unitSuffix = (unit: string): string => (unit === 'x' ? '×' : unit === '' ? '' : ` ${unit}`);

/** A plain-text table: one row per figure, targets side by side. */
export function formatTable(results: readonly BenchResult[]): string {
  const rows = [['benchmark', 'figure', 'measured', 'target', 'met']];
  for (const result of results) {
    result.figures.forEach((figure, index) => {
      const verdict = met(figure);
      rows.push([
        index === 0 ? result.name : '',
        figure.label,
        formatValue(figure),
        formatTarget(figure.target, figure.unit),
        verdict === undefined ? '' : verdict ? 'yes' : 'NO',
      ]);
    });
  }
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** The result files in `dir`, by name. */
export function readResults(dir: string): ResultFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as ResultFile);
}

/** A Markdown table of recorded results (for bench/README.md): figure, target, measured, met, run. */
export function formatMarkdown(files: readonly ResultFile[]): string {
  const rows = ['| benchmark | figure | target | measured | met |', '| --- | --- | --- | --- | --- |'];
  for (const file of files) {
    file.figures.forEach((figure, index) => {
      const verdict = met(figure);
      rows.push(
        `| ${index === 0 ? `${file.name}${file.backend === 'kube' ? ' (kube)' : ''}${file.quick ? ' (quick)' : ''}` : ''} | ${figure.label} | ${formatTarget(figure.target, figure.unit)} | ${formatValue(figure)} | ${verdict === undefined ? '' : verdict ? 'yes' : '**no**'} |`,
      );
    });
  }
  return rows.join('\n');
}
