import { describe, expect, it } from '@jest/globals';
import { parseCommandLine, UsageError } from '../../bench/support/cli';

const BENCHMARKS = [
  { id: 'p1', name: 'p1-scale-up' },
  { id: 'p2', name: 'p2-reaction' },
  { id: 'p3', name: 'p3-idle' },
];

describe('npm run bench command line', () => {
  it('runs everything by default, with the full settings', () => {
    const line = parseCommandLine([], BENCHMARKS, '/repo');
    expect(line.selected).toEqual(['p1', 'p2', 'p3']);
    expect(line.settings).toEqual({
      backend: 'test',
      quick: false,
      idleSeconds: 60,
      reactionIterations: 200,
    });
    expect(line.skipped).toEqual([]);
    expect(line.resultsDir).toBe('/repo/bench/results');
    expect(line.build).toBe(true);
    expect(line.report).toBe(false);
  });

  it('selects benchmarks by id or name, in run order, and shortens quick runs', () => {
    const line = parseCommandLine(['p3', '--quick', 'scale-up', 'p3-idle'], BENCHMARKS, '/repo');
    expect(line.selected).toEqual(['p1', 'p3']);
    expect(line.settings).toMatchObject({ quick: true, idleSeconds: 10, reactionIterations: 30 });
  });

  it('takes the period, the iterations, a profile directory and no build', () => {
    const line = parseCommandLine(
      ['--idle-seconds', '5', '--iterations', '7', '--cpu-prof', '/tmp/p', '--no-build', 'p2'],
      BENCHMARKS,
      '/repo',
    );
    expect(line.settings).toMatchObject({ idleSeconds: 5, reactionIterations: 7, cpuProfileDir: '/tmp/p' });
    expect(line.selected).toEqual(['p2']);
    expect(line.build).toBe(false);
    expect(parseCommandLine(['--report'], BENCHMARKS, '/repo').report).toBe(true);
    // --cpu-prof before a benchmark id takes no directory.
    expect(parseCommandLine(['--cpu-prof', 'p2'], BENCHMARKS, '/repo').selected).toEqual(['p2']);
  });

  it('says what to type instead of a mistake', () => {
    expect(() => parseCommandLine(['p9'], BENCHMARKS, '/repo')).toThrow(
      'unknown benchmark p9: choose from p1 (p1-scale-up), p2 (p2-reaction), p3 (p3-idle)',
    );
    expect(() => parseCommandLine(['--idle-seconds', 'soon'], BENCHMARKS, '/repo')).toThrow(
      '--idle-seconds needs a positive whole number, e.g. --idle-seconds 30; got soon',
    );
    expect(() => parseCommandLine(['--fast'], BENCHMARKS, '/repo')).toThrow(UsageError);
  });

  describe('--backend', () => {
    const WITH_LIMITS = [
      ...BENCHMARKS,
      { id: 'p4', name: 'p4-memory', notOnKube: 'it needs a latency fault' },
      { id: 'p5', name: 'p5-synth', notOnKube: 'it uses no cluster' },
    ];

    it('is test unless told, and takes kube in either spelling', () => {
      expect(parseCommandLine([], WITH_LIMITS, '/repo').settings.backend).toBe('test');
      expect(parseCommandLine(['--backend', 'kube'], WITH_LIMITS, '/repo').settings.backend).toBe('kube');
      expect(parseCommandLine(['--backend=kube', 'p1'], WITH_LIMITS, '/repo').settings.backend).toBe('kube');
      expect(parseCommandLine(['--backend', 'test', 'p4'], WITH_LIMITS, '/repo').selected).toEqual(['p4']);
    });

    it('runs what the real server can run when none is named, and says what it left out', () => {
      const line = parseCommandLine(['--backend', 'kube', '--quick'], WITH_LIMITS, '/repo');
      expect(line.selected).toEqual(['p1', 'p2', 'p3']);
      expect(line.skipped).toEqual([
        { id: 'p4', why: 'it needs a latency fault' },
        { id: 'p5', why: 'it uses no cluster' },
      ]);
      expect(line.settings).toMatchObject({ backend: 'kube', quick: true });
    });

    it('refuses a benchmark the real server cannot run, naming it and why', () => {
      expect(() => parseCommandLine(['p1', 'p4', '--backend', 'kube'], WITH_LIMITS, '/repo')).toThrow(
        'p4 (p4-memory) cannot run with --backend kube: it needs a latency fault\n' +
          'run it without --backend kube (on the test cluster); with kube choose from p1, p2, p3',
      );
      expect(() => parseCommandLine(['--backend', 'kind'], WITH_LIMITS, '/repo')).toThrow(
        '--backend takes test (the test cluster, the default) or kube (a real kube-apiserver); got kind',
      );
      expect(() => parseCommandLine(['--backend'], WITH_LIMITS, '/repo')).toThrow(UsageError);
    });
  });

  describe('--curve', () => {
    it('runs the cost curve instead of the benchmarks, quick or full, on either backend', () => {
      expect(parseCommandLine([], BENCHMARKS, '/repo').curve).toBe(false);
      const full = parseCommandLine(['--curve'], BENCHMARKS, '/repo');
      expect(full.curve).toBe(true);
      expect(full.settings.quick).toBe(false);
      const quick = parseCommandLine(
        ['--quick', '--curve', '--backend', 'kube', '--no-build'],
        BENCHMARKS,
        '/repo',
      );
      expect(quick).toMatchObject({ curve: true, build: false, settings: { quick: true, backend: 'kube' } });
    });

    it('refuses benchmark ids beside it, saying how to run either', () => {
      expect(() => parseCommandLine(['--curve', 'p1', 'p3'], BENCHMARKS, '/repo')).toThrow(
        '--curve runs the cost curve only; run p1 p3 without it, or --curve without benchmark ids',
      );
    });
  });
});
