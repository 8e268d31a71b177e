/**
 * `npm run lab`: builds if needed, then runs the example pools of `examples/gitops` on the test
 * cluster (`--backend kube`: on the real Kubernetes) with the real controller as a child process, under the chosen lease load; prints the live
 * table and the summary, and writes the chart. Exit code 0 after a clean run, 1 when the run failed
 * (the controller died or exited non-zero, a simulator or the load reported errors), 2 on a bad
 * command line.
 *
 * It runs under ts-node (the root tsconfig's CommonJS, transpile-only section), because the example
 * app is TypeScript outside the tools package; everything that needs the build — the command line's
 * parser too, which comes from the built controller package — is loaded only after `ensureBuilt`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ensureBuilt } from './build';
import type { LabSettings } from './command-line';

const ROOT = resolve(__dirname, '..', '..', '..');

interface GitopsExample {
  buildGitopsApp(): { charts: readonly { toJson(): unknown[] }[] };
}

async function main(argv: readonly string[]): Promise<number> {
  const say = (message: string) => process.stdout.write(`# ${message}\n`);
  ensureBuilt(ROOT, say);

  // Loaded after the build: these resolve `virtual-exporters` to out/lib and the controller and the
  // test cluster to their packages' out/.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { LabUsageError, parseLabCommandLine } = require('./command-line') as typeof import('./command-line');
  let settings: LabSettings;
  try {
    const commandLine = parseLabCommandLine(argv);
    if (commandLine.kind === 'help') {
      process.stdout.write(commandLine.text);
      return 0;
    }
    settings = commandLine.settings;
  } catch (error) {
    if (error instanceof LabUsageError) {
      process.stderr.write(`lab: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const { buildGitopsApp } = require(join(ROOT, 'examples', 'gitops', 'app')) as GitopsExample;
  const { runLab } = require('./lab') as typeof import('./lab');
  const { createLiveView } = require('./live-view') as typeof import('./live-view');
  const { chartInput, summaryLines } = require('./report') as typeof import('./report');
  const { renderChart } = require('./chart') as typeof import('./chart');
  /* eslint-enable @typescript-eslint/no-require-imports */

  const out = resolve(settings.out);
  mkdirSync(dirname(out), { recursive: true });
  const logFile = join(dirname(out), 'controller.log');
  const objects = buildGitopsApp().charts.flatMap((chart) => chart.toJson()) as Parameters<
    typeof runLab
  >[0]['objects'];
  const abort = new AbortController();
  const interrupt = () => abort.abort();
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);

  let view: ReturnType<typeof createLiveView> | undefined;
  say(
    `lab: backend ${settings.backend}, profile ${settings.profile}, ${settings.durationSeconds} s of load, speed-up ${settings.speedUp}×, ` +
      `seed ${settings.seed}, boot delay ${settings.bootDelaySeconds} s ÷ ${settings.speedUp}`,
  );
  const report = await runLab({
    objects,
    profile: settings.profile,
    durationMs: settings.durationSeconds * 1000,
    speedUp: settings.speedUp,
    seed: settings.seed,
    backend: settings.backend,
    bootDelayMs: settings.bootDelaySeconds * 1000,
    controller: settings.inProcess
      ? { kind: 'in-process' }
      : { kind: 'process', mainJs: join(ROOT, 'controller', 'out', 'main.js'), logFile },
    signal: abort.signal,
    log: (message) => (view ? view.note(message) : say(message)),
    onSample: (sample) => {
      view ??= createLiveView(
        sample.rows.map((row) => row.name),
        process.stdout,
      );
      view.show(sample);
    },
  });
  const run = { profile: settings.profile, seed: settings.seed, speedUp: settings.speedUp };
  writeFileSync(out, renderChart(chartInput(report, run)));
  process.stdout.write(`\n${summaryLines(report, run).join('\n')}\n`);
  say(`chart: ${shown(out)}`);
  if (!settings.inProcess) say(`controller log: ${shown(logFile)}`);
  return report.errors.length === 0 && report.controllerExitCode === 0 ? 0 : 1;
}

/** Relative to the working directory when inside it, else absolute. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === '' || rel.startsWith('..') ? path : rel;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`lab: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
