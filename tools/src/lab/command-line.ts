/**
 * The command line of `npm run lab`, parsed with commander into typed settings; it never exits the
 * process itself (help and errors come back as values), so it is tested like any function. Its parser
 * helper is the controller's, so the lab loads it after the build check.
 */
import { Command, Option } from 'commander';
import { parseCommand } from 'virtual-exporters-controller/internal';
import { isLabBackend, LAB_BACKENDS, type LabBackend } from './lab-cluster';
import { isLoadProfile, LOAD_PROFILES, type LoadProfile } from './load-profile';

export interface LabSettings {
  /** Wall seconds of the load phase. */
  readonly durationSeconds: number;
  readonly profile: LoadProfile;
  readonly speedUp: number;
  readonly seed: number;
  /** Path of the SVG chart; the controller's log goes next to it. */
  readonly out: string;
  /** Pod boot time of a real lab, seconds before the speed-up. */
  readonly bootDelaySeconds: number;
  /** Run the controller inside the lab's process instead of `node controller/out/main.js`. */
  readonly inProcess: boolean;
  /** The in-process test cluster, or the real Kubernetes from the built binaries. */
  readonly backend: LabBackend;
}

export type LabCommandLine =
  { readonly kind: 'run'; readonly settings: LabSettings } | { readonly kind: 'help'; readonly text: string };

export class LabUsageError extends Error {}

export const LAB_DEFAULTS = {
  durationSeconds: 60,
  profile: 'mix',
  speedUp: 10,
  seed: 1,
  out: 'dist/lab/lab.svg',
  bootDelaySeconds: 20,
  backend: 'test',
} as const;

/**
 * `--profile workday` without `--duration` or `--speed-up`: a 24 h day played in 12 minutes, so a
 * simulated hour is 30 s and the schedule windows (on even hours) open on whole minutes.
 */
export const WORKDAY_DEFAULTS = { durationSeconds: 720, speedUp: 120 } as const;

function program(output: { text: string }): Command {
  return new Command('npm run lab --')
    .description(
      'Runs the example pools on the test cluster (or the real Kubernetes: --backend kube) with the real ' +
        'controller under a lease load; prints a live table and a summary, and writes a chart.',
    )
    .exitOverride()
    .configureOutput({
      writeOut: (text) => (output.text += text),
      writeErr: () => undefined,
      outputError: () => undefined,
    })
    .allowExcessArguments(false)
    .option(
      '--duration <seconds>',
      `wall seconds of the load phase (workday: ${WORKDAY_DEFAULTS.durationSeconds}, one simulated day)`,
      String(LAB_DEFAULTS.durationSeconds),
    )
    .addOption(
      new Option('--profile <profile>', 'lease load').choices(LOAD_PROFILES).default(LAB_DEFAULTS.profile),
    )
    .option(
      '--speed-up <n>',
      `divides the simulated durations (boot delay, lease arrivals and holds, cooldowns; workday: ${WORKDAY_DEFAULTS.speedUp})`,
      String(LAB_DEFAULTS.speedUp),
    )
    .option('--seed <n>', 'seed of the load plan and the cluster', String(LAB_DEFAULTS.seed))
    .option('--out <file>', 'where the SVG chart goes', LAB_DEFAULTS.out)
    .option(
      '--boot-delay <seconds>',
      'instance boot time before the speed-up',
      String(LAB_DEFAULTS.bootDelaySeconds),
    )
    .option('--in-process', 'run the controller in the lab process (no child process)', false)
    .addOption(
      new Option(
        '--backend <backend>',
        'where the pools run: test (the in-process test cluster) or kube (kube-apiserver, etcd and ' +
          'kube-controller-manager from the built binaries: npm run kube:binaries or VIRTUAL_EXPORTERS_KUBE_BIN)',
      )
        .choices(LAB_BACKENDS)
        .default(LAB_DEFAULTS.backend),
    );
}

export function parseLabCommandLine(argv: readonly string[]): LabCommandLine {
  const output = { text: '' };
  const command = program(output);
  const help = parseCommand(command, output, argv, (message) => new LabUsageError(message));
  if (help) return { kind: 'help', text: help.help };
  const raw = command.opts<{
    duration: string;
    profile: string;
    speedUp: string;
    seed: string;
    out: string;
    bootDelay: string;
    inProcess: boolean;
    backend: string;
  }>();
  if (!isLoadProfile(raw.profile)) throw new LabUsageError(`unknown profile ${raw.profile}`);
  if (!isLabBackend(raw.backend)) throw new LabUsageError(`unknown backend ${raw.backend}`);
  const given = (option: string) => command.getOptionValueSource(option) !== 'default';
  const workday = raw.profile === 'workday';
  const duration = workday && !given('duration') ? String(WORKDAY_DEFAULTS.durationSeconds) : raw.duration;
  const speedUp = workday && !given('speedUp') ? String(WORKDAY_DEFAULTS.speedUp) : raw.speedUp;
  return {
    kind: 'run',
    settings: {
      durationSeconds: positive('--duration', duration),
      profile: raw.profile,
      speedUp: positive('--speed-up', speedUp),
      seed: integer('--seed', raw.seed),
      out: raw.out,
      bootDelaySeconds: nonNegative('--boot-delay', raw.bootDelay),
      inProcess: raw.inProcess,
      backend: raw.backend,
    },
  };
}

function number(flag: string, text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value))
    throw new LabUsageError(`${flag} must be a number (got "${text}")`);
  return value;
}

function positive(flag: string, text: string): number {
  const value = number(flag, text);
  if (!(value > 0)) throw new LabUsageError(`${flag} must be greater than 0 (got ${text})`);
  return value;
}

function nonNegative(flag: string, text: string): number {
  const value = number(flag, text);
  if (value < 0) throw new LabUsageError(`${flag} must not be negative (got ${text})`);
  return value;
}

function integer(flag: string, text: string): number {
  const value = number(flag, text);
  if (!Number.isInteger(value)) throw new LabUsageError(`${flag} must be an integer (got ${text})`);
  return value;
}
