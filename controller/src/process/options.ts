/**
 * The command line of SPEC §3, parsed with commander into a typed `Options` object. Parsing never
 * exits the process and never prints: a mistake is an `OptionsError` whose message names the flag
 * and what was wrong (the caller prints it and exits 2), and `--help` comes back as text.
 *
 * Flag syntax is GNU style (`--workers 8` or `--workers=8`); `--leader-elect` alone means true and
 * also accepts `--leader-elect=false`, as the Go controllers' flags do.
 */
import { Command, Option } from 'commander';
import { parseCommand } from './parse-command';
import type { Provisioner } from 'virtual-exporters/internal';
import { resolveProvisionerFlag } from '../provisioner-flag';
import { parseBindAddress } from './http-server';
import { LOG_LEVELS, type LogLevel } from './logger';

export interface Options {
  /** `--provisioner`: the provisioner this controller serves (one Deployment per provisioner). */
  readonly provisioner: Provisioner;
  /** `--namespace` (repeatable): the namespaces watched; undefined: all namespaces. */
  readonly namespaces: readonly string[] | undefined;
  /** `--kubeconfig`: undefined means `KUBECONFIG`, the in-cluster config or `~/.kube/config` (cluster-config.ts). */
  readonly kubeconfig: string | undefined;
  /** `--leader-elect`: campaign for the Lease `exporter-set-controller-<provisioner>`. */
  readonly leaderElect: boolean;
  /** `--metrics-bind-address`, `0` disables `/metrics`. */
  readonly metricsBindAddress: string;
  /** `--health-probe-bind-address`, `0` disables `/healthz` and `/readyz`. */
  readonly healthProbeBindAddress: string;
  /** `--max-burst`: creations per reconcile pass (SPEC §3.5). */
  readonly maxBurst: number;
  /** `--workers`: ExporterSets reconciled in parallel. */
  readonly workers: number;
  /** `--log-level`. */
  readonly logLevel: LogLevel;
}

export const OPTION_DEFAULTS = {
  metricsBindAddress: ':8080',
  healthProbeBindAddress: ':8081',
  maxBurst: 50,
  workers: 4,
  logLevel: 'info',
} as const;

export type CommandLine =
  | { readonly kind: 'run'; readonly options: Options }
  /** `--help` or `--version`: print `text` to stdout and exit 0. */
  | { readonly kind: 'help' | 'version'; readonly text: string };

/** A command line the controller cannot run with; the message says why. */
export class OptionsError extends Error {
  override readonly name = 'OptionsError';
}

const NAMESPACE_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** An option whose help shows `shown` as its default, once. */
function withDefault(flags: string, description: string, value: unknown, shown: string): Option {
  return new Option(flags, description).default(value, shown);
}

function program(output: { text: string }): Command {
  return (
    new Command('exporter-set-controller')
      .description('Reconciles ExporterSets of one provisioner into pools of Jumpstarter exporters.')
      .exitOverride()
      .configureOutput({
        writeOut: (text) => void (output.text += text),
        writeErr: () => undefined,
        outputError: () => undefined,
      })
      .allowExcessArguments(false)
      .option(
        '--provisioner <name>',
        'the provisioner this controller serves, e.g. qemu.jumpstarter.dev (required)',
      )
      .addOption(
        withDefault(
          '--namespace <name>',
          'watch only this namespace; repeat for several',
          [] as string[],
          'all namespaces',
        ).argParser((value: string, previous: string[]) => [...previous, value]),
      )
      // No value to default to: the lookup happens when the controller starts (cluster-config.ts).
      .option(
        '--kubeconfig <path>',
        'kubeconfig file of the cluster (default: KUBECONFIG, else the service account in a Pod, else ~/.kube/config)',
      )
      .addOption(
        withDefault(
          '--leader-elect [enabled]',
          'elect a leader among replicas on a coordination Lease',
          false,
          'false',
        ).argParser((value: string) => value),
      )
      .addOption(
        withDefault(
          '--metrics-bind-address <address>',
          'where /metrics listens; "0" disables it',
          OPTION_DEFAULTS.metricsBindAddress,
          OPTION_DEFAULTS.metricsBindAddress,
        ),
      )
      .addOption(
        withDefault(
          '--health-probe-bind-address <address>',
          'where /healthz and /readyz listen; "0" disables them',
          OPTION_DEFAULTS.healthProbeBindAddress,
          OPTION_DEFAULTS.healthProbeBindAddress,
        ),
      )
      .addOption(
        withDefault(
          '--max-burst <count>',
          'instance writes in flight per ExporterSet',
          String(OPTION_DEFAULTS.maxBurst),
          String(OPTION_DEFAULTS.maxBurst),
        ),
      )
      .addOption(
        withDefault(
          '--workers <count>',
          'ExporterSets reconciled in parallel',
          String(OPTION_DEFAULTS.workers),
          String(OPTION_DEFAULTS.workers),
        ),
      )
      .addOption(
        withDefault(
          '--log-level <level>',
          `one of ${LOG_LEVELS.join(', ')}`,
          OPTION_DEFAULTS.logLevel,
          OPTION_DEFAULTS.logLevel,
        ),
      )
      .option('--version', 'print the version and exit')
  );
}

/** The options' usage text. */
export function helpText(): string {
  return program({ text: '' }).helpInformation();
}

/**
 * Parses the arguments after the executable (`process.argv.slice(2)`); `version` is what `--version`
 * prints after the program's name.
 */
export function parseCommandLine(argv: readonly string[], version = 'unknown'): CommandLine {
  const output = { text: '' };
  const command = program(output);
  const help = parseCommand(command, output, argv, (message) => new OptionsError(message));
  if (help) return { kind: 'help', text: help.help };
  if (command.opts<{ version?: boolean }>().version) {
    return { kind: 'version', text: `${command.name()} ${version}\n` };
  }
  const raw = command.opts<{
    provisioner?: string;
    namespace: string[];
    kubeconfig?: string;
    leaderElect: boolean | string;
    metricsBindAddress: string;
    healthProbeBindAddress: string;
    maxBurst: string;
    workers: string;
    logLevel: string;
  }>();
  return {
    kind: 'run',
    options: {
      provisioner: provisionerOf(raw.provisioner),
      namespaces: namespacesOf(raw.namespace),
      kubeconfig: raw.kubeconfig,
      leaderElect: booleanOf('--leader-elect', raw.leaderElect),
      metricsBindAddress: bindAddressOf('--metrics-bind-address', raw.metricsBindAddress),
      healthProbeBindAddress: bindAddressOf('--health-probe-bind-address', raw.healthProbeBindAddress),
      maxBurst: positiveIntegerOf('--max-burst', raw.maxBurst),
      workers: positiveIntegerOf('--workers', raw.workers),
      logLevel: logLevelOf(raw.logLevel),
    },
  };
}

function provisionerOf(name: string | undefined): Provisioner {
  try {
    return resolveProvisionerFlag(name);
  } catch (error) {
    throw new OptionsError((error as Error).message);
  }
}

function namespacesOf(values: readonly string[]): readonly string[] | undefined {
  for (const value of values) {
    if (value.length > 63 || !NAMESPACE_NAME.test(value)) {
      throw new OptionsError(`--namespace=${value} is not a valid namespace name`);
    }
  }
  return values.length > 0 ? [...new Set(values)] : undefined;
}

function booleanOf(flag: string, value: boolean | string): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new OptionsError(`${flag}=${value} must be true or false`);
}

function bindAddressOf(flag: string, value: string): string {
  try {
    parseBindAddress(value);
  } catch (error) {
    throw new OptionsError(`${flag}: ${(error as Error).message}`);
  }
  return value;
}

function positiveIntegerOf(flag: string, value: string): number {
  const number = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number) || number < 1) {
    throw new OptionsError(`${flag}=${value} must be a positive integer`);
  }
  return number;
}

function logLevelOf(value: string): LogLevel {
  if (!(LOG_LEVELS as readonly string[]).includes(value)) {
    throw new OptionsError(`--log-level=${value} must be one of ${LOG_LEVELS.join(', ')}`);
  }
  return value as LogLevel;
}
