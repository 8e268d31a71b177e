/**
 * `startKubeCluster()`: the real Kubernetes beside the test cluster (SPEC §5) — etcd, kube-apiserver
 * with RBAC and a service-account issuer, and kube-controller-manager (garbage collector, namespaces,
 * service-account tokens), built from source by `npm run kube:binaries`. Its shape is the test
 * cluster's where the two overlap (`url`, `kubeConfig`, `kubeConfigFor`, `kubeconfigYaml`,
 * `installCrds`, `onStop`, `stop`), so one suite runs on both (`startCluster`, api-cluster.ts).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { jumpstarterCrds, ourCrds, type CustomResourceDefinition } from 'virtual-exporters/internal';
import { freePort } from '../ports';
import { AuditLog, writeAuditPolicy } from './audit';
import { kubeBinaries, kubeBinDir } from './binaries';
import { apiServerArgs, controllerManagerArgs, etcdArgs } from './components';
import { installKubeCrds } from './crds';
import { kubeKubeConfig, kubeKubeconfigYaml, type KubeUser } from './kubeconfig';
import { createPki } from './pki';
import { startProcess, type ManagedProcess } from './processes';
import { httpsStatus, portAccepts, waitUntil } from './readiness';

export interface KubeClusterOptions {
  /**
   * The custom resource definitions installed at start.
   * @default [...ourCrds, ...jumpstarterCrds]
   */
  readonly crds?: readonly CustomResourceDefinition[];
  /**
   * Namespaces created at start (each waits for its `default` ServiceAccount, so Pods can be created).
   * @default ['default']
   */
  readonly namespaces?: readonly string[];
  /**
   * Runs kube-controller-manager (garbage collector, namespace, service-account controllers).
   * @default true
   */
  readonly controllerManager?: boolean;
  /**
   * More kube-apiserver flags, after the cluster's own (a repeated flag: the last one wins), e.g.
   * `--min-request-timeout=1` for watches that end within seconds, `--etcd-compaction-interval=1s`
   * for continue tokens and resourceVersions that expire within seconds.
   * @default []
   */
  readonly apiServerFlags?: readonly string[];
  /** The folder of the binaries. @default kubeBinDir() */
  readonly binDir?: string;
  /** How long start may take before it fails with the component's log (ms). @default 90000 */
  readonly startTimeoutMs?: number;
}

export interface KubectlResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface KubeCluster {
  readonly backend: 'kube';
  /** `https://127.0.0.1:<port>` */
  readonly url: string;
  /** A client-node KubeConfig for the `admin` identity (system:masters), namespace `default`. */
  readonly kubeConfig: KubeConfig;
  /** A KubeConfig authenticating as `identity` (a client certificate; system:masters). */
  kubeConfigFor(identity: string, namespace?: string): KubeConfig;
  /** The kubeconfig of `identity` (default `admin`) as YAML. */
  kubeconfigYaml(identity?: string, namespace?: string): string;
  /** Writes that kubeconfig to a file of the run and returns its path (kubectl, child processes). */
  kubeconfigFile(identity?: string, namespace?: string): string;
  /**
   * A KubeConfig with a token of ServiceAccount `namespace/name` (TokenRequest): requests made with it
   * are authorized by RBAC, as the controller's in a cluster are.
   */
  serviceAccountKubeConfig(
    namespace: string,
    name: string,
  ): Promise<{ kubeConfig: KubeConfig; yaml: string; username: string }>;
  /** Creates (or applies) CRDs and resolves when each is Established and served. */
  installCrds(crds: readonly CustomResourceDefinition[]): Promise<void>;
  /** Creates namespace `name` unless it exists and waits for its `default` ServiceAccount. */
  ensureNamespace(name: string): Promise<void>;
  /** Runs the built kubectl as `identity` (default `admin`). */
  kubectl(args: readonly string[], options?: { identity?: string; input?: string }): Promise<KubectlResult>;
  /** Every request the API server answered, from its audit log. */
  readonly audit: AuditLog;
  /** The run's folder: data, certificates, logs (`etcd.log`, `kube-apiserver.log`, ...). */
  readonly dataDir: string;
  readonly versions: { readonly kubernetes?: string; readonly etcd?: string };
  /** The processes of the run, in start order (`etcd`, `kube-apiserver`, `kube-controller-manager`). */
  readonly processes: readonly Pick<ManagedProcess, 'name' | 'pid' | 'logFile'>[];
  /** Runs `fn` when the cluster stops, before its processes end (last registered first). */
  onStop(fn: () => void | Promise<void>): void;
  /** Stops the hooks, then kube-controller-manager, kube-apiserver and etcd; removes the folder. Idempotent. */
  stop(): Promise<void>;
}

const ADMIN = 'admin';
const MASTERS = ['system:masters'];

/** Starts a real cluster on free loopback ports; fails with what is missing when the binaries are not built. */
export async function startKubeCluster(options: KubeClusterOptions = {}): Promise<KubeCluster> {
  const binaries = kubeBinaries(options.binDir ?? kubeBinDir());
  const timeoutMs = options.startTimeoutMs ?? 90_000;
  const dataDir = mkdtempSync(join(tmpdir(), 'kube-cluster-'));
  const processes: ManagedProcess[] = [];
  const stopHooks: (() => void | Promise<void>)[] = [];
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      for (const hook of stopHooks.reverse()) await hook();
      for (const p of [...processes].reverse()) await p.stop();
      rmSync(dataDir, { recursive: true, force: true });
    })());
  try {
    const pki = createPki(dataDir);
    const ports = { etcdClient: await freePort(), etcdPeer: await freePort(), apiServer: await freePort() };
    const etcd = startProcess('etcd', binaries.paths.etcd, etcdArgs(dataDir, ports), dataDir);
    processes.push(etcd);
    await waitUntil('etcd to accept clients', () => portAccepts(ports.etcdClient), timeoutMs, etcd);

    const auditPolicyFile = join(dataDir, 'audit-policy.yaml');
    writeAuditPolicy(auditPolicyFile);
    const audit = new AuditLog(join(dataDir, 'audit.log'));
    const files = { ...pki, auditPolicyFile, auditLogFile: audit.file };
    const apiServer = startProcess(
      'kube-apiserver',
      binaries.paths['kube-apiserver'],
      [...apiServerArgs(dataDir, ports, files), ...(options.apiServerFlags ?? [])],
      dataDir,
    );
    processes.push(apiServer);
    const url = `https://127.0.0.1:${ports.apiServer}`;
    const user = (name: string): KubeUser => ({ name, credential: pki.clientCredential(name, MASTERS) });
    const adminCredential = pki.clientCredential(ADMIN, MASTERS);
    await waitUntil(
      'kube-apiserver /readyz',
      async () => (await httpsStatus(ports.apiServer, '/readyz', adminCredential)) === 200,
      timeoutMs,
      apiServer,
    );

    const kubeconfigFile = (identity = ADMIN, namespace = 'default') => {
      const file = join(dataDir, 'kubeconfigs', `${identity.replace(/[^A-Za-z0-9._-]/g, '_')}.${namespace}`);
      mkdirSync(join(dataDir, 'kubeconfigs'), { recursive: true });
      writeFileSync(file, kubeKubeconfigYaml(url, user(identity), namespace), { mode: 0o600 });
      return file;
    };
    const withControllerManager = options.controllerManager ?? true;
    if (withControllerManager) {
      const kcm = startProcess(
        'kube-controller-manager',
        binaries.paths['kube-controller-manager'],
        controllerManagerArgs(
          kubeconfigFile('system:kube-controller-manager'),
          pki,
          join(dataDir, 'serving', 'apiserver.crt'),
        ),
        dataDir,
      );
      processes.push(kcm);
    }

    const kubeConfig = kubeKubeConfig(url, user(ADMIN));
    const core = kubeConfig.makeApiClient(CoreV1Api);
    const ensureNamespace = async (name: string) => {
      await core.createNamespace({ body: { metadata: { name } } }).catch((error: { code?: number }) => {
        if (error.code !== 409) throw error;
      });
      if (!withControllerManager) return;
      await waitUntil(
        `the default ServiceAccount of namespace ${name}`,
        async () => Boolean(await core.readNamespacedServiceAccount({ name: 'default', namespace: name })),
        timeoutMs,
        processes.at(-1),
      );
    };
    for (const namespace of options.namespaces ?? ['default']) await ensureNamespace(namespace);
    const installCrds = (crds: readonly CustomResourceDefinition[]) =>
      installKubeCrds(kubeConfig, crds, timeoutMs);
    await installCrds(options.crds ?? [...ourCrds, ...jumpstarterCrds]);

    return {
      backend: 'kube',
      url,
      kubeConfig,
      kubeConfigFor: (identity, namespace) => kubeKubeConfig(url, user(identity), namespace),
      kubeconfigYaml: (identity = ADMIN, namespace) => kubeKubeconfigYaml(url, user(identity), namespace),
      kubeconfigFile,
      async serviceAccountKubeConfig(namespace, name) {
        const request = await core.createNamespacedServiceAccountToken({
          namespace,
          name,
          body: { spec: { audiences: [], expirationSeconds: 3600 } },
        });
        const token = request.status?.token;
        if (!token) throw new Error(`no token was issued for ServiceAccount ${namespace}/${name}`);
        const sa: KubeUser = { name: `${namespace}-${name}`, token };
        return {
          kubeConfig: kubeKubeConfig(url, sa, namespace),
          yaml: kubeKubeconfigYaml(url, sa, namespace),
          username: `system:serviceaccount:${namespace}:${name}`,
        };
      },
      installCrds,
      ensureNamespace,
      kubectl: (args, kubectlOptions = {}) =>
        runKubectl(
          binaries.paths.kubectl,
          kubeconfigFile(kubectlOptions.identity),
          args,
          kubectlOptions.input,
        ),
      audit,
      dataDir,
      versions: binaries.versions,
      processes,
      onStop: (fn) => void stopHooks.push(fn),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function runKubectl(
  kubectl: string,
  kubeconfig: string,
  args: readonly string[],
  input: string | undefined,
): Promise<KubectlResult> {
  return new Promise((resolve) => {
    const child = execFile(
      kubectl,
      [`--kubeconfig=${kubeconfig}`, ...args],
      { maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end(input ?? '');
  });
}
