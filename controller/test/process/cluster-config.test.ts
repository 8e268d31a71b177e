/**
 * Finding the cluster: `--kubeconfig`, else `KUBECONFIG`, else the Pod's service account, else
 * `~/.kube/config` — and, when none works, one sentence naming the file and what is wrong with it
 * (never client-node's silent fallback to http://localhost:8080).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ClusterConfigError,
  loadClusterConfig,
  SERVICE_ACCOUNT_DIR,
  type ClusterConfigEnvironment,
} from '../../src/process/cluster-config';

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cluster-config-'));
  dirs.push(dir);
  return dir;
}

/** A kubeconfig with one context `name` on cluster `name` at `server`. */
function kubeconfig(name: string, server: string, extra = ''): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    `current-context: ${name}`,
    `clusters: [{ name: ${name}, cluster: { server: "${server}" } }]`,
    `users: [{ name: ${name}, user: { token: t } }]`,
    `contexts: [{ name: ${name}, context: { cluster: ${name}, user: ${name} } }]`,
    extra,
  ].join('\n');
}

function write(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** An environment with nothing configured: no KUBECONFIG, not in a Pod, an empty home. */
function nothing(dir = tempDir()): ClusterConfigEnvironment & { env: Record<string, string> } {
  return { env: { HOME: join(dir, 'home') }, serviceAccountPrefix: join(dir, 'pod') };
}

function failure(flag: string | undefined, environment: ClusterConfigEnvironment): string {
  try {
    loadClusterConfig(flag, environment);
  } catch (error) {
    expect(error).toBeInstanceOf(ClusterConfigError);
    return (error as Error).message;
  }
  throw new Error('expected the cluster configuration to be refused');
}

describe('cluster config › where it comes from', () => {
  it('uses --kubeconfig before KUBECONFIG, the service account and ~/.kube/config', () => {
    const dir = tempDir();
    const flag = write(dir, 'flag', kubeconfig('flag', 'https://flag:6443'));
    const environment = nothing(dir);
    environment.env.KUBECONFIG = write(dir, 'env', kubeconfig('env', 'https://env:6443'));
    const config = loadClusterConfig(flag, environment);
    expect(config.source).toEqual({ kind: 'flag', path: flag });
    expect(config.server).toBe('https://flag:6443');
  });

  it('reads the files of KUBECONFIG, skipping missing ones, the first to name an entry winning', () => {
    const dir = tempDir();
    const first = write(dir, 'first', kubeconfig('lab', 'https://first:6443'));
    const second = write(
      dir,
      'second',
      kubeconfig('lab', 'https://second:6443').replace('current-context: lab', 'current-context: other') +
        '\n',
    );
    const environment = nothing(dir);
    environment.env.KUBECONFIG = [join(dir, 'absent'), first, second].join(':');
    const config = loadClusterConfig(undefined, environment);
    expect(config.source).toEqual({ kind: 'env', paths: [first, second] });
    expect(config.server).toBe('https://first:6443');
    expect(config.kubeConfig.getCurrentContext()).toBe('lab');
  });

  it('uses the service account in a Pod (KUBERNETES_SERVICE_HOST and a token), before ~/.kube/config', () => {
    const dir = tempDir();
    const environment = nothing(dir);
    const account = `${environment.serviceAccountPrefix}${SERVICE_ACCOUNT_DIR}`;
    mkdirSync(account, { recursive: true });
    write(account, 'token', 'service-account-token');
    write(account, 'namespace', 'jumpstarter-lab');
    mkdirSync(join(environment.env.HOME, '.kube'), { recursive: true });
    write(join(environment.env.HOME, '.kube'), 'config', kubeconfig('home', 'https://home:6443'));
    Object.assign(environment.env, { KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443' });
    const config = loadClusterConfig(undefined, environment);
    expect(config.source).toEqual({ kind: 'in-cluster' });
    expect(config.server).toBe('https://10.0.0.1:443');
    expect(config.kubeConfig.getContextObject(config.kubeConfig.getCurrentContext())?.namespace).toBe(
      'jumpstarter-lab',
    );
  });

  it('falls back to ~/.kube/config outside a Pod', () => {
    const environment = nothing();
    const kube = join(environment.env.HOME, '.kube');
    mkdirSync(kube, { recursive: true });
    write(kube, 'config', kubeconfig('home', 'https://home:6443'));
    const config = loadClusterConfig(undefined, environment);
    expect(config.source).toEqual({ kind: 'home', path: join(kube, 'config') });
    expect(config.server).toBe('https://home:6443');
  });
});

describe('cluster config › nothing usable', () => {
  it('says no cluster is configured and what would configure one (no localhost:8080 fallback)', () => {
    const environment = nothing();
    expect(failure(undefined, environment)).toBe(
      'no cluster configured: pass --kubeconfig, set KUBECONFIG, or run in a Pod with a service account; ' +
        `${join(environment.env.HOME, '.kube', 'config')} does not exist either`,
    );
  });

  it('says so when a Pod has no service account token', () => {
    const environment = nothing();
    Object.assign(environment.env, { KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443' });
    expect(failure(undefined, environment)).toContain(
      `(KUBERNETES_SERVICE_HOST is set, but there is no service account token at ${environment.serviceAccountPrefix}${SERVICE_ACCOUNT_DIR}/token: is automountServiceAccountToken false?)`,
    );
  });

  it('names a missing --kubeconfig file, or a directory given as one', () => {
    const dir = tempDir();
    expect(failure(join(dir, 'missing'), nothing(dir))).toBe(
      `--kubeconfig ${join(dir, 'missing')}: the file does not exist`,
    );
    expect(failure(dir, nothing(dir))).toBe(
      `--kubeconfig ${dir}: this is a directory, not a kubeconfig file`,
    );
  });

  it('names KUBECONFIG when none of its files exists', () => {
    const dir = tempDir();
    const environment = nothing(dir);
    environment.env.KUBECONFIG = join(dir, 'a');
    expect(failure(undefined, environment)).toBe(`KUBECONFIG=${join(dir, 'a')}: the file does not exist`);
    environment.env.KUBECONFIG = `${join(dir, 'a')}:${join(dir, 'b')}`;
    expect(failure(undefined, environment)).toBe(
      `KUBECONFIG=${join(dir, 'a')}:${join(dir, 'b')}: none of these files exists`,
    );
  });

  it('refuses a file that is not a kubeconfig, naming it and the problem', () => {
    const dir = tempDir();
    const environment = nothing(dir);
    const cases: [string, string][] = [
      [
        'clusters: [',
        'not a kubeconfig: the file is not valid YAML (Flow sequence in block collection must be sufficiently indented and end with a ] at line 1, column 12)',
      ],
      ['', 'not a kubeconfig: expected a YAML mapping with clusters, users, contexts and current-context'],
      [
        '- a\n- b\n',
        'not a kubeconfig: expected a YAML mapping with clusters, users, contexts and current-context',
      ],
      ['clusters:\n- name: lab\n', 'not a valid kubeconfig: clusters[0].cluster is missing'],
    ];
    for (const [text, problem] of cases) {
      const path = write(dir, 'kubeconfig', text);
      expect(failure(path, environment)).toBe(`--kubeconfig ${path}: ${problem}`);
    }
  });

  it('refuses a kubeconfig whose current context leads nowhere', () => {
    const dir = tempDir();
    const environment = nothing(dir);
    const base = kubeconfig('lab', 'https://lab:6443');
    const cases: [string, string][] = [
      [
        'apiVersion: v1\nkind: Config\nclusters: []\n',
        'the kubeconfig defines no context (no cluster to talk to)',
      ],
      [
        base.replace('current-context: lab', ''),
        'no current-context is set; choose one of its contexts (lab) with kubectl config use-context',
      ],
      [
        base.replace('current-context: lab', 'current-context: prod'),
        'current-context "prod" is not one of its contexts (lab)',
      ],
      [
        base.replace('context: { cluster: lab', 'context: { cluster: gone'),
        'context "lab" names cluster "gone", which is not one of its clusters (lab)',
      ],
      [
        base.replace('user: lab }', 'user: nobody }'),
        'context "lab" names user "nobody", which is not one of its users (lab)',
      ],
    ];
    for (const [text, problem] of cases) {
      const path = write(dir, 'kubeconfig', text);
      expect(failure(path, environment)).toBe(`--kubeconfig ${path}: ${problem}`);
    }
  });
});
