/**
 * `npm run simulate -- --seeds N`: runs seeds of the randomized simulation on `--jobs`
 * worker processes (each seed gets its own test cluster and controller), prints a summary with the
 * fault counts and a reproduction command per failing seed, and exits 1 when any invariant failed.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { runSeed, type SeedOptions, type SeedResult } from './run-seed';
import { formatSummary, summarize } from './summary';

const integer = (min: number) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new InvalidArgumentError(`expected an integer ≥ ${min}, got ${value}`);
  return n;
};

interface CliOptions {
  seeds: number;
  from: number;
  seed?: number;
  jobs: number;
  speedUp: number;
  chaosSeconds: number;
  out?: string;
  trace?: string;
  traceFailures?: string;
}

type WorkerMessage = { readonly seed: number; readonly options: SeedOptions };

function worker(): void {
  process.on('message', (message: WorkerMessage) => {
    runSeed(message.seed, message.options).then(
      (result) => process.send!({ result }),
      (error: unknown) =>
        process.send!({ error: `seed ${message.seed}: ${(error as Error).stack ?? String(error)}` }),
    );
  });
}

async function runAll(seeds: readonly number[], jobs: number, options: SeedOptions): Promise<SeedResult[]> {
  const results: SeedResult[] = [];
  let next = 0;
  let done = 0;
  const startedAt = Date.now();
  const runOn = (child: ChildProcess) =>
    new Promise<void>((resolve, reject) => {
      const send = () => {
        if (next >= seeds.length) {
          child.kill();
          resolve();
          return;
        }
        child.send({ seed: seeds[next++], options } satisfies WorkerMessage);
      };
      child.on('message', (message: { result?: SeedResult; error?: string }) => {
        if (message.error) {
          child.kill();
          reject(new Error(message.error));
          return;
        }
        results.push(message.result!);
        done += 1;
        if (done % 50 === 0 || done === seeds.length) {
          const failing = results.filter((r) => r.violations.length > 0).length;
          process.stderr.write(
            `${done}/${seeds.length} seeds, ${failing} failing, ${((Date.now() - startedAt) / 1000).toFixed(0)} s\n`,
          );
        }
        send();
      });
      child.on('exit', (code) => {
        if (next < seeds.length || results.length < seeds.length) {
          if (code !== null && code !== 0) reject(new Error(`a simulation worker exited with code ${code}`));
        }
      });
      send();
    });
  const children = Array.from({ length: Math.min(jobs, seeds.length) }, () =>
    fork(process.argv[1], ['--worker'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  );
  await Promise.all(children.map(runOn));
  return results.sort((a, b) => a.seed - b.seed);
}

export async function main(argv: readonly string[]): Promise<number> {
  const program = new Command('simulate')
    .description('randomized fault simulation of the ExporterSet controller against the test cluster')
    .option('--seeds <n>', 'number of seeds to run', integer(1), 100)
    .option('--from <seed>', 'first seed', integer(0), 1)
    .option('--seed <seed>', 'run this one seed only', integer(0))
    .option('--jobs <n>', 'worker processes', integer(1), Math.max(1, cpus().length))
    .option('--speed-up <n>', 'cluster clock speed-up', integer(1), 50)
    .option('--chaos-seconds <n>', 'cluster seconds of operations and faults per seed', integer(1), 60)
    .option('--out <file>', 'write the summary as JSON')
    .option('--trace <file>', "with --seed: write the seed's timeline and the controller's debug log")
    .option(
      '--trace-failures <dir>',
      "write each failing seed's timeline and the controller's info log to <dir>/seed-<n>.trace",
    )
    .exitOverride();
  program.parse(argv, { from: 'user' });
  const cli = program.opts<CliOptions>();
  const seeds =
    cli.seed !== undefined ? [cli.seed] : Array.from({ length: cli.seeds }, (_, i) => cli.from + i);
  if (cli.trace !== undefined && cli.seed === undefined) throw new Error('--trace needs --seed <seed>');
  const options: SeedOptions = {
    speedUp: cli.speedUp,
    chaosMs: cli.chaosSeconds * 1000,
    ...(cli.trace !== undefined ? { traceFile: cli.trace } : {}),
    ...(cli.traceFailures !== undefined ? { traceFailuresDir: cli.traceFailures } : {}),
  };
  const extra = [
    ...(cli.speedUp !== 50 ? ['--speed-up', String(cli.speedUp)] : []),
    ...(cli.chaosSeconds !== 60 ? ['--chaos-seconds', String(cli.chaosSeconds)] : []),
  ];
  const startedAt = Date.now();
  const results = await runAll(seeds, cli.jobs, options);
  const summary = summarize(results, Date.now() - startedAt);
  process.stdout.write(`${formatSummary(summary, extra)}\n`);
  if (cli.out) {
    mkdirSync(dirname(cli.out), { recursive: true });
    writeFileSync(cli.out, `${JSON.stringify({ ...summary, options: { ...cli } }, null, 2)}\n`);
  }
  return summary.failed.length > 0 ? 1 : 0;
}

if (require.main === module) {
  if (process.argv.includes('--worker')) worker();
  else
    main(process.argv.slice(2)).then(
      (code) => process.exit(code),
      (error: unknown) => {
        const e = error as { code?: string; exitCode?: number; message?: string };
        if (e.code?.startsWith('commander.')) process.exit(e.exitCode ?? 2);
        process.stderr.write(`simulate: ${e.message ?? String(error)}\n`);
        process.exit(2);
      },
    );
}
