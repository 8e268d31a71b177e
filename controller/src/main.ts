#!/usr/bin/env node
/**
 * `exporter-set-controller`: parses the command line (SPEC §3), finds the cluster, and runs the
 * manager until SIGTERM or SIGINT (graceful shutdown, exit 0) or lost leadership (exit 1, so the
 * Deployment restarts it with a clean state). A bad command line, or no usable cluster configuration,
 * prints one line saying why and exits 2; a probe or metrics address it cannot listen on, one line and 1.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startManager } from './manager';
import { ClusterConfigError, loadClusterConfig } from './process/cluster-config';
import { ListenError } from './process/http-server';
import { OptionsError, parseCommandLine } from './process/options';

const NAME = 'exporter-set-controller';

/** The `version` of this package's package.json (beside `src/` and `out/` alike). */
function packageVersion(): string {
  const path = join(__dirname, '..', 'package.json');
  try {
    const version = (JSON.parse(readFileSync(path, 'utf8')) as { version?: unknown }).version;
    return typeof version === 'string' ? version : `unknown (${path} has no version)`;
  } catch (error) {
    return `unknown (cannot read ${path}: ${(error as Error).message})`;
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const version = packageVersion();
  let commandLine;
  let cluster;
  try {
    commandLine = parseCommandLine(argv, version);
    if (commandLine.kind !== 'run') {
      process.stdout.write(commandLine.text);
      return 0;
    }
    cluster = loadClusterConfig(commandLine.options.kubeconfig);
  } catch (error) {
    if (error instanceof OptionsError || error instanceof ClusterConfigError) {
      process.stderr.write(`${NAME}: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  let manager;
  try {
    manager = await startManager(commandLine.options, {
      kubeConfig: cluster.kubeConfig,
      startupInfo: { version, server: cluster.server, source: cluster.source.kind },
    });
  } catch (error) {
    if (!(error instanceof ListenError)) throw error;
    process.stderr.write(`${NAME}: ${error.message}\n`);
    return 1;
  }
  const onSignal = (): void => void manager.stop();
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  const reason = await manager.done;
  return reason === 'lost-leadership' ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${NAME}: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
