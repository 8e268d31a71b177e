import { describe, expect, it } from '@jest/globals';
import {
  LAB_DEFAULTS,
  LabUsageError,
  parseLabCommandLine,
  WORKDAY_DEFAULTS,
} from '../../src/lab/command-line';

const settings = (argv: string[]) => {
  const parsed = parseLabCommandLine(argv);
  if (parsed.kind !== 'run') throw new Error('expected a run');
  return parsed.settings;
};

describe('the lab command line', () => {
  it('has defaults for every flag', () => {
    expect(settings([])).toEqual({ ...LAB_DEFAULTS, inProcess: false });
  });

  it('reads every flag', () => {
    expect(
      settings([
        '--duration',
        '5',
        '--profile',
        'burst',
        '--speed-up',
        '2.5',
        '--seed',
        '42',
        '--out',
        'x/y.svg',
        '--boot-delay',
        '0',
        '--in-process',
        '--backend',
        'kube',
      ]),
    ).toEqual({
      durationSeconds: 5,
      profile: 'burst',
      speedUp: 2.5,
      seed: 42,
      out: 'x/y.svg',
      bootDelaySeconds: 0,
      inProcess: true,
      backend: 'kube',
    });
  });

  it('runs on the test cluster unless --backend kube asks for the real Kubernetes', () => {
    expect(settings([]).backend).toBe('test');
    expect(settings(['--backend', 'test']).backend).toBe('test');
    expect(settings(['--backend', 'kube']).backend).toBe('kube');
    expect(settings(['--backend=kube', '--profile', 'workday'])).toMatchObject({
      backend: 'kube',
      profile: 'workday',
      durationSeconds: 720,
    });
  });

  it('plays a whole day at 120× for --profile workday unless --duration or --speed-up say otherwise', () => {
    expect(settings(['--profile', 'workday'])).toMatchObject({
      profile: 'workday',
      durationSeconds: 720,
      speedUp: 120,
    });
    expect(WORKDAY_DEFAULTS.durationSeconds * WORKDAY_DEFAULTS.speedUp).toBe(86_400); // one day of lab time
    expect(settings(['--profile', 'workday', '--duration', '60'])).toMatchObject({
      durationSeconds: 60,
      speedUp: 120,
    });
    expect(settings(['--profile', 'workday', '--speed-up', '10'])).toMatchObject({
      durationSeconds: 720,
      speedUp: 10,
    });
    // An explicit value equal to the general default still counts as given.
    expect(settings(['--profile', 'workday', '--speed-up', '10', '--duration', '60'])).toMatchObject({
      durationSeconds: 60,
      speedUp: 10,
    });
    expect(settings(['--profile', 'steady'])).toMatchObject({ durationSeconds: 60, speedUp: 10 });
  });

  it.each([
    [['--duration', '0']],
    [['--duration', 'soon']],
    [['--speed-up', '-1']],
    [['--seed', '1.5']],
    [['--boot-delay', '-2']],
    [['--profile', 'chaos']],
    [['--backend', 'kind']],
    [['--backend']],
    [['--unknown']],
    [['extra']],
  ])('rejects %j with a usage error', (argv) => {
    expect(() => parseLabCommandLine(argv)).toThrow(LabUsageError);
  });

  it('returns the help text instead of exiting', () => {
    const parsed = parseLabCommandLine(['--help']);
    expect(parsed.kind).toBe('help');
    if (parsed.kind === 'help') {
      expect(parsed.text).toContain('--speed-up');
      expect(parsed.text).toMatch(/--backend <backend>[\s\S]*choices: "test", "kube"/);
    }
  });
});
