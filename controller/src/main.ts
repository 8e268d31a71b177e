#!/usr/bin/env node
/**
 * `exporter-set-controller`: parses the command line (SPEC §3) and runs the manager until SIGTERM or
 * SIGINT (graceful shutdown, exit 0) or lost leadership (exit 1, so the Deployment restarts it with a
 * clean state). A bad command line prints why and exits 2.
 */
import { startManager } from './manager';
import { OptionsError, parseCommandLine } from './operations/options';

async function main(argv: readonly string[]): Promise<number> {
  let commandLine;
  try {
    commandLine = parseCommandLine(argv);
  } catch (error) {
    if (error instanceof OptionsError) {
      process.stderr.write(`exporter-set-controller: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  if (commandLine.kind === 'help') {
    process.stdout.write(commandLine.text);
    return 0;
  }
  const manager = await startManager(commandLine.options);
  const onSignal = (): void => void manager.stop();
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  const reason = await manager.done;
  return reason === 'lost-leadership' ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `exporter-set-controller: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exit(1);
  },
);
