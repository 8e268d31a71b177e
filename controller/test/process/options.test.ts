/**
 * The command line of SPEC §3: defaults, every flag, and the exact message of each mistake (the
 * controller prints it and exits, so it must say which flag and why).
 */
import { describe, expect, it } from '@jest/globals';
import { implementedProvisionerNames } from 'virtual-exporters/internal';
import { helpText, OptionsError, parseCommandLine, type Options } from '../../src/process/options';

const QEMU = '--provisioner=qemu.jumpstarter.dev';

function options(...argv: string[]): Options {
  const parsed = parseCommandLine(argv);
  if (parsed.kind !== 'run') throw new Error('expected options, got help');
  return parsed.options;
}

function failure(...argv: string[]): string {
  try {
    parseCommandLine(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(OptionsError);
    return (error as Error).message;
  }
  throw new Error('expected the command line to be rejected');
}

describe('options › defaults and flags', () => {
  it.each(['corellium.jumpstarter.dev', 'android.jumpstarter.dev'])(
    'starts with --provisioner %s',
    (name) => {
      expect(options('--provisioner', name).provisioner.name).toBe(name);
      expect(options(`--provisioner=${name}`).provisioner.name).toBe(name);
    },
  );

  it('needs only --provisioner and defaults the rest', () => {
    const parsed = options(QEMU);
    expect(parsed.provisioner.name).toBe('qemu.jumpstarter.dev');
    expect({ ...parsed, provisioner: undefined }).toEqual({
      provisioner: undefined,
      namespaces: undefined,
      kubeconfig: undefined,
      leaderElect: false,
      metricsBindAddress: ':8080',
      healthProbeBindAddress: ':8081',
      maxBurst: 50,
      workers: 4,
      logLevel: 'info',
    });
  });

  it('reads every flag, in both --flag value and --flag=value forms', () => {
    const parsed = options(
      '--provisioner',
      'qemu.jumpstarter.dev',
      '--namespace',
      'lab',
      '--namespace=ci',
      '--namespace=lab',
      '--kubeconfig=/tmp/kubeconfig',
      '--leader-elect',
      '--metrics-bind-address=127.0.0.1:0',
      '--health-probe-bind-address',
      '[::1]:9440',
      '--max-burst=10',
      '--workers',
      '8',
      '--log-level=debug',
    );
    expect({ ...parsed, provisioner: parsed.provisioner.name }).toEqual({
      provisioner: 'qemu.jumpstarter.dev',
      namespaces: ['lab', 'ci'],
      kubeconfig: '/tmp/kubeconfig',
      leaderElect: true,
      metricsBindAddress: '127.0.0.1:0',
      healthProbeBindAddress: '[::1]:9440',
      maxBurst: 10,
      workers: 8,
      logLevel: 'debug',
    });
  });

  it('accepts --leader-elect=true and --leader-elect=false, and "0" to disable an endpoint', () => {
    expect(options(QEMU, '--leader-elect=true').leaderElect).toBe(true);
    expect(options(QEMU, '--leader-elect=false').leaderElect).toBe(false);
    expect(options(QEMU, '--metrics-bind-address=0').metricsBindAddress).toBe('0');
  });

  it('answers --help with the usage text instead of options', () => {
    const parsed = parseCommandLine(['--help']);
    expect(parsed.kind).toBe('help');
    const text = parsed.kind === 'help' ? parsed.text : '';
    expect(text).toBe(helpText());
    for (const flag of [
      '--provisioner',
      '--namespace',
      '--kubeconfig',
      '--leader-elect',
      '--metrics-bind-address',
      '--health-probe-bind-address',
      '--max-burst',
      '--workers',
      '--log-level',
    ]) {
      expect(text).toContain(flag);
    }
  });
});

describe('options › help and version', () => {
  /** Each option's help line, by flag; commander wraps long lines, so continuation lines are joined. */
  function helpLines(): Map<string, string> {
    const lines = new Map<string, string>();
    let current: string | undefined;
    for (const line of helpText().split('\n')) {
      const flag = /^ {2}(-h, )?(--[a-z-]+)/.exec(line)?.[2];
      if (flag) lines.set((current = flag), line.trim());
      else if (current && /^ {6,}\S/.test(line)) lines.set(current, `${lines.get(current)} ${line.trim()}`);
      else current = undefined;
    }
    return lines;
  }

  it('shows every default once, as the value it stands for', () => {
    const lines = helpLines();
    const expected: Record<string, string | undefined> = {
      '--provisioner': undefined, // required: no default
      '--namespace': 'all namespaces',
      '--kubeconfig': 'KUBECONFIG, else the service account in a Pod, else ~/.kube/config',
      '--leader-elect': 'false',
      '--metrics-bind-address': ':8080',
      '--health-probe-bind-address': ':8081',
      '--max-burst': '50',
      '--workers': '4',
      '--log-level': 'info',
      '--version': undefined,
      '--help': undefined,
    };
    expect([...lines.keys()].sort()).toEqual(Object.keys(expected).sort());
    for (const [flag, shown] of Object.entries(expected)) {
      const line = lines.get(flag)!;
      const defaults = [...line.matchAll(/\(default: ([^)]*)\)/g)].map((match) => match[1]);
      expect({ flag, defaults }).toEqual({ flag, defaults: shown === undefined ? [] : [shown] });
    }
    expect(lines.get('--provisioner')).toMatch(/\(required\)$/);
    // What help promises is what parsing does.
    expect(options(QEMU)).toMatchObject({
      namespaces: undefined,
      leaderElect: false,
      metricsBindAddress: ':8080',
      healthProbeBindAddress: ':8081',
      maxBurst: 50,
      workers: 4,
      logLevel: 'info',
    });
  });

  it('answers --version with the name and version, without needing --provisioner', () => {
    expect(parseCommandLine(['--version'], '1.2.3')).toEqual({
      kind: 'version',
      text: 'exporter-set-controller 1.2.3\n',
    });
    expect(parseCommandLine([QEMU, '--version'], '1.2.3').kind).toBe('version');
  });
});

describe('options › mistakes', () => {
  // The list is resolveProvisionerFlag's (controller/src/provisioner-flag.ts), whatever it names.
  const known = implementedProvisionerNames().join(', ');

  it('requires --provisioner and lists the known ones', () => {
    expect(known).toBe(
      'android.jumpstarter.dev, corellium.jumpstarter.dev, qemu-baremetal.jumpstarter.dev, qemu-ssh.jumpstarter.dev, qemu.jumpstarter.dev',
    );
    expect(failure()).toBe(`--provisioner is required; this controller implements: ${known}`);
    expect(failure('--provisioner=')).toBe(`--provisioner is required; this controller implements: ${known}`);
  });

  it('rejects an unknown provisioner and lists the known ones', () => {
    expect(failure('--provisioner=qemu.example.com')).toBe(
      `--provisioner=qemu.example.com is not implemented by this controller; use one of: ${known}`,
    );
  });

  it('rejects malformed numbers, levels, namespaces, booleans and bind addresses', () => {
    expect(failure(QEMU, '--workers=0')).toBe('--workers=0 must be a positive integer');
    expect(failure(QEMU, '--workers=2.5')).toBe('--workers=2.5 must be a positive integer');
    expect(failure(QEMU, '--max-burst=many')).toBe('--max-burst=many must be a positive integer');
    expect(failure(QEMU, '--log-level=verbose')).toBe(
      '--log-level=verbose must be one of trace, debug, info, warn, error, fatal, silent',
    );
    expect(failure(QEMU, '--namespace=Lab')).toBe('--namespace=Lab is not a valid namespace name');
    expect(failure(QEMU, '--leader-elect=yes')).toBe('--leader-elect=yes must be true or false');
    expect(failure(QEMU, '--metrics-bind-address=8080')).toBe(
      '--metrics-bind-address: invalid bind address "8080": expected [host]:port, e.g. ":8080" (or "0" to disable)',
    );
    expect(failure(QEMU, '--health-probe-bind-address=:99999')).toBe(
      '--health-probe-bind-address: invalid bind address ":99999": expected [host]:port, e.g. ":8080" (or "0" to disable)',
    );
  });

  it('rejects unknown flags, missing values and stray arguments', () => {
    expect(failure(QEMU, '--wokers=2')).toBe("unknown option '--wokers=2'\n(Did you mean --workers?)");
    expect(failure(QEMU, '--workers')).toBe("option '--workers <count>' argument missing");
    expect(failure(QEMU, 'extra')).toBe('too many arguments. Expected 0 arguments but got 1.');
  });
});
