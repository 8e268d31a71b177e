/**
 * The real cluster itself (startKubeCluster): RBAC enforced, identities by client certificate,
 * ServiceAccount tokens, the garbage collector and namespace controller of kube-controller-manager,
 * kubectl, and every process gone after stop.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiException, CoreV1Api, RbacAuthorizationV1Api, VersionApi } from '@kubernetes/client-node';
import { startKubeCluster, type KubeCluster } from '../src';
import { eventually, rejection } from './conformance-support';

// Maps `virtual-exporters/*` to the library's sources in a child process (no build needed).
const LIBRARY_SOURCES = 'controller/test/process/support/library-sources.cjs';

let cluster: KubeCluster;
let core: CoreV1Api;

beforeAll(async () => {
  cluster = await startKubeCluster({ namespaces: ['lab'] });
  core = cluster.kubeConfig.makeApiClient(CoreV1Api);
}, 180_000);
afterAll(() => cluster?.stop());

const notFound = async (call: Promise<unknown>) => {
  try {
    await call;
    return false;
  } catch (error) {
    return error instanceof ApiException && error.code === 404;
  }
};

describe('real cluster › start', () => {
  it('serves the pinned Kubernetes version over TLS on loopback', async () => {
    expect(cluster.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const version = await cluster.kubeConfig.makeApiClient(VersionApi).getCode();
    expect(`v${version.major}.${version.minor}`).toBe(cluster.versions.kubernetes?.replace(/\.\d+$/, ''));
  });

  it('names each identity by its client certificate (as the audit log shows)', async () => {
    await cluster
      .kubeConfigFor('probe')
      .makeApiClient(CoreV1Api)
      .listNamespacedConfigMap({ namespace: 'lab' });
    expect(cluster.audit.requests({ user: 'probe', verb: 'list', resource: 'configmaps' })).toHaveLength(1);
  });
});

describe('real cluster › RBAC', () => {
  it('refuses a ServiceAccount without roles and allows it once a Role is bound', async () => {
    await core.createNamespacedServiceAccount({ namespace: 'lab', body: { metadata: { name: 'reader' } } });
    const sa = await cluster.serviceAccountKubeConfig('lab', 'reader');
    const asReader = sa.kubeConfig.makeApiClient(CoreV1Api);
    const refused = await rejection(asReader.listNamespacedConfigMap({ namespace: 'lab' }));
    expect(refused.code).toBe(403);
    expect(refused.status.message).toContain(sa.username);

    const rbac = cluster.kubeConfig.makeApiClient(RbacAuthorizationV1Api);
    await rbac.createNamespacedRole({
      namespace: 'lab',
      body: {
        metadata: { name: 'read-config' },
        rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list'] }],
      },
    });
    await rbac.createNamespacedRoleBinding({
      namespace: 'lab',
      body: {
        metadata: { name: 'read-config' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'read-config' },
        subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace: 'lab' }],
      },
    });
    await eventually(() => asReader.listNamespacedConfigMap({ namespace: 'lab' }), 10_000);
    expect(cluster.audit.requests({ user: sa.username, code: 403 }).length).toBeGreaterThanOrEqual(1);
  });
});

describe('real cluster › kube-controller-manager', () => {
  it('collects a dependent when its owner is deleted (garbage collector)', async () => {
    const owner = await core.createNamespacedConfigMap({
      namespace: 'lab',
      body: { metadata: { name: 'owner' } },
    });
    await core.createNamespacedConfigMap({
      namespace: 'lab',
      body: {
        metadata: {
          name: 'dependent',
          ownerReferences: [
            { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid! },
          ],
        },
      },
    });
    await core.deleteNamespacedConfigMap({ namespace: 'lab', name: 'owner' });
    await eventually(async () => {
      expect(await notFound(core.readNamespacedConfigMap({ namespace: 'lab', name: 'dependent' }))).toBe(
        true,
      );
    }, 30_000);
  });

  it('empties and removes a deleted namespace (namespace controller)', async () => {
    await cluster.ensureNamespace('doomed');
    await core.createNamespacedConfigMap({ namespace: 'doomed', body: { metadata: { name: 'inside' } } });
    await core.deleteNamespace({ name: 'doomed' });
    await eventually(async () => {
      expect(await notFound(core.readNamespace({ name: 'doomed' }))).toBe(true);
    }, 60_000);
  });
});

describe('real cluster › kubectl', () => {
  it('runs the built kubectl against the cluster', async () => {
    const result = await cluster.kubectl(['get', 'namespace', 'lab', '-o', 'jsonpath={.metadata.name}']);
    expect(result).toMatchObject({ code: 0, stdout: 'lab' });
  });
});

describe('real cluster › stop', () => {
  it('ends every process it started and removes its folder', async () => {
    const other = await startKubeCluster({ controllerManager: false });
    const pids = other.processes.map((p) => p.pid);
    expect(other.processes.map((p) => p.name)).toEqual(['etcd', 'kube-apiserver']);
    expect(pids.every(alive)).toBe(true);
    await other.stop();
    expect(pids.filter(alive)).toEqual([]);
    expect(existsSync(other.dataDir)).toBe(false);
  }, 180_000);
});

describe('real cluster › a killed test process', () => {
  it('leaves no etcd or kube-apiserver behind when the process that started them is SIGKILLed', async () => {
    // A child Node process starts a cluster, prints the pids and kills itself: no exit hook runs.
    const script = `
      require(${JSON.stringify(resolve('test-cluster/src/index.ts'))})
        .startKubeCluster({ crds: [] })
        .then((c) => { console.log(JSON.stringify(c.processes.map((p) => p.pid))); process.kill(process.pid, 'SIGKILL'); });`;
    const child = spawn(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', '-r', resolve(LIBRARY_SOURCES), '-e', script],
      { env: { ...process.env, NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const signal = await new Promise((done) => child.once('exit', (_code, sig) => done(sig)));
    expect(signal).toBe('SIGKILL');
    const pids = JSON.parse(out.trim().split('\n').pop()!) as number[];
    expect(pids).toHaveLength(3);
    await eventually(() => expect(pids.filter(alive)).toEqual([]), 15_000);
  }, 240_000);
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
