/**
 * The controller's entry, `controller/src/main.ts`, run as an operator runs it: a child process
 * (through ts-node, the library resolved to its sources: no build needed). What it prints and its exit
 * code: `--version`; no cluster configured; a kubeconfig file that is missing — one line on stderr, no
 * stack trace, exit 2 (every other refused kubeconfig takes the same path: cluster-config.test.ts
 * covers their messages in-process); and a real start against the test cluster without
 * Jumpstarter's CRDs: `/readyz` 503 with the reason, an error log line, recovery once the CRDs are
 * applied, and exit 0 on SIGTERM.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { jumpstarterCrds, ourCrds } from 'virtual-exporters/internal';
import { startTestCluster, type TestCluster } from 'virtual-exporters-test-cluster';
import { NS } from '../scenarios/support';

const ROOT = process.cwd();
const MAIN = resolve(ROOT, 'controller/src/main.ts');
const PRELOAD = [
  '-r',
  'ts-node/register/transpile-only',
  '-r',
  resolve(ROOT, 'controller/test/process/support/library-sources.cjs'),
];
const QEMU = ['--provisioner', 'qemu.jumpstarter.dev'];
const VERSION = (
  JSON.parse(readFileSync(resolve(ROOT, 'controller/package.json'), 'utf8')) as { version: string }
).version;

/** ts-node compiles the controller and the library in each process: seconds, more on a busy machine. */
const SLOW_MS = 240_000;

const dir = mkdtempSync(join(tmpdir(), 'controller-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The environment of a machine with no cluster configured: no KUBECONFIG, not in a Pod, an empty home. */
function bareEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: join(dir, 'home'), NODE_OPTIONS: '' };
  delete env.KUBECONFIG;
  delete env.KUBERNETES_SERVICE_HOST;
  delete env.KUBERNETES_SERVICE_PORT;
  return env;
}

function launch(args: readonly string[]): ChildProcess {
  return spawn(process.execPath, [...PRELOAD, MAIN, ...args], { cwd: ROOT, env: bareEnvironment() });
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(args: readonly string[]): Promise<Run> {
  const child = launch(args);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}

describe('cli › exits before touching a cluster', () => {
  const runs: Record<string, Run> = {};

  // One process per case, all at once: each spends its seconds compiling the controller.
  beforeAll(async () => {
    const cases: Record<string, readonly string[]> = {
      version: ['--version'],
      'no cluster': QEMU,
      'missing kubeconfig': [...QEMU, '--kubeconfig', join(dir, 'missing')],
    };
    await Promise.all(Object.entries(cases).map(async ([name, args]) => (runs[name] = await run(args))));
  }, SLOW_MS);

  it('--version prints the name and the version of controller/package.json, and exits 0', () => {
    expect(runs.version).toEqual({ code: 0, stdout: `exporter-set-controller ${VERSION}\n`, stderr: '' });
  });

  it('with no kubeconfig and not in a Pod, prints one line that no cluster is configured and exits 2', () => {
    expect(runs['no cluster']).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'exporter-set-controller: no cluster configured: pass --kubeconfig, set KUBECONFIG, or run in a Pod with a service account; ' +
        `${join(dir, 'home', '.kube', 'config')} does not exist either\n`,
    });
  });

  it('with --kubeconfig naming a missing file, prints one line naming it and exits 2', () => {
    expect(runs['missing kubeconfig']).toEqual({
      code: 2,
      stdout: '',
      stderr: `exporter-set-controller: --kubeconfig ${join(dir, 'missing')}: the file does not exist\n`,
    });
  });
});

describe('cli › a cluster without the Jumpstarter CRDs', () => {
  let cluster: TestCluster;
  let child: ChildProcess | undefined;
  beforeAll(async () => {
    cluster = await startTestCluster({ namespaces: [NS], crds: ourCrds });
  });
  afterAll(async () => {
    if (child?.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await cluster.stop();
  });

  it(
    'is unready with the reason and logs an error until the CRDs are applied, then ready; SIGTERM exits 0',
    async () => {
      const kubeconfig = join(dir, 'kubeconfig');
      writeFileSync(kubeconfig, cluster.kubeconfigYaml('controller', NS));
      child = launch([
        ...QEMU,
        '--namespace',
        NS,
        '--kubeconfig',
        kubeconfig,
        '--metrics-bind-address',
        '0',
        '--health-probe-bind-address',
        '127.0.0.1:0',
      ]);
      const exited = new Promise<number | null>((done) => child!.once('exit', (code) => done(code)));
      let stdout = '';
      let stderr = '';
      child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const records = () =>
        stdout
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, any>);
      const eventually = async <T>(what: string, check: () => Promise<T | undefined> | T | undefined) => {
        const deadline = Date.now() + SLOW_MS / 2;
        for (;;) {
          const value = await check();
          if (value !== undefined) return value;
          if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; stderr: ${stderr}`);
          await new Promise((wait) => setTimeout(wait, 50));
        }
      };

      const started = await eventually('the probe address', () =>
        records().find((r) => r.msg === 'serving /healthz and /readyz'),
      );
      expect(records()[0]).toMatchObject({
        msg: 'exporter-set-controller starting',
        version: VERSION,
        server: cluster.url,
        source: 'flag',
      });
      const readyz = async () => {
        const response = await fetch(`${started.url}/readyz`);
        return { status: response.status, text: await response.text() };
      };
      const unready = await eventually('a missing Exporter CRD', async () => {
        const answer = await readyz();
        return answer.text.includes('exporters.jumpstarter.dev/v1alpha1') ? answer : undefined;
      });
      expect(unready.status).toBe(503);
      expect(unready.text).toContain(
        "the API server does not serve exporters.jumpstarter.dev/v1alpha1 (its CustomResourceDefinition is not installed): Jumpstarter's CRDs come with the Jumpstarter installation",
      );
      // The log line comes over the child's stdout, the answer over HTTP: either may arrive first.
      const logged = await eventually('the error logged for exporters', () =>
        records().find((r) => r.level === 'error' && r.resource === 'exporters'),
      );
      expect(logged).toMatchObject({
        group: 'jumpstarter.dev',
        version: 'v1alpha1',
      });

      cluster.installCrds(jumpstarterCrds);
      await eventually('ready', async () => ((await readyz()).status === 200 ? true : undefined));
      expect(records().some((r) => r.msg === 'starting workers')).toBe(true);

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stderr).toBe('');
    },
    SLOW_MS,
  );
});
