/**
 * `npm run bench`: builds if needed, runs the selected benchmarks one after another (each starts its
 * own cluster and controller processes and stops them), prints each figure beside its target, and
 * writes `bench/results/<name>.json`. It exits non-zero only when a benchmark fails to run — a missed
 * target is a result, not an error.
 */
import { mkdirSync } from 'node:fs';
import { BENCHMARKS } from './benchmarks';
import { ensureBuilt, repositoryRoot } from './support/build';
import { parseCommandLine, USAGE, UsageError } from './support/cli';
import {
  formatMarkdown,
  formatTable,
  formatTarget,
  formatValue,
  machine,
  readResults,
  writeResult,
  type BenchResult,
} from './support/results';

async function main(argv: readonly string[]): Promise<number> {
  let commandLine;
  try {
    commandLine = parseCommandLine(argv, BENCHMARKS, repositoryRoot());
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`bench: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  if (commandLine.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (commandLine.report) {
    process.stdout.write(`${formatMarkdown(readResults(commandLine.resultsDir))}\n`);
    return 0;
  }
  const log = (message: string) => process.stderr.write(`${message}\n`);
  if (commandLine.build) ensureBuilt(repositoryRoot(), log);
  if (commandLine.settings.cpuProfileDir) {
    mkdirSync(commandLine.settings.cpuProfileDir, { recursive: true });
    log(`controller CPU profiles go to ${commandLine.settings.cpuProfileDir}`);
  }
  const host = machine();
  log(
    `machine: ${host.cpus} × ${host.model}, ${host.memoryGiB} GiB, node ${host.node}, load ${host.loadAverage.join(' ')}` +
      (commandLine.settings.quick ? ' (quick mode)' : '') +
      (commandLine.settings.backend === 'kube' ? ', against a real kube-apiserver (--backend kube)' : ''),
  );
  if (commandLine.curve) {
    const { runCurve } = await import('./curve');
    const result = await runCurve({ settings: commandLine.settings, log }, commandLine.resultsDir);
    await writeResult(commandLine.resultsDir, result, {
      quick: commandLine.settings.quick,
      machine: host,
      backend: commandLine.settings.backend,
    });
    process.stdout.write(`${formatTable([result])}\n`);
    return 0;
  }
  for (const { id, why } of commandLine.skipped) log(`${id} is left out on --backend kube: ${why}`);
  const results: BenchResult[] = [];
  let failures = 0;
  for (const entry of BENCHMARKS.filter((b) => commandLine.selected.includes(b.id))) {
    const started = Date.now();
    try {
      const benchmark = await entry.load();
      log(`${benchmark.name}: ${benchmark.title}`);
      const result = await benchmark.run({ settings: commandLine.settings, log });
      await writeResult(commandLine.resultsDir, result, {
        quick: commandLine.settings.quick,
        machine: machine(),
        backend: commandLine.settings.backend,
      });
      results.push(result);
      for (const figure of result.figures) {
        log(`  ${figure.label}: ${formatValue(figure)} (target ${formatTarget(figure.target, figure.unit)})`);
      }
      log(`  (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    } catch (error) {
      failures += 1;
      log(`${entry.name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }
  process.stdout.write(`${formatTable(results)}\n`);
  return failures > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
