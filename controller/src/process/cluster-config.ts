/**
 * Which cluster the controller talks to, found the way controller-runtime finds it: `--kubeconfig`,
 * else the files of `KUBECONFIG`, else the Pod's service account (in-cluster), else `~/.kube/config`.
 *
 * client-node's `loadFromDefault` is not used: with none of these it silently points at
 * `http://localhost:8080`, and the controller would then retry refused connections forever. Here "no
 * cluster" is a `ClusterConfigError` that says what was looked for, and so is a kubeconfig that is
 * missing, unreadable, not a kubeconfig, or without a usable current context: each message names the
 * file and what is wrong with it, and `main.ts` prints it as one line and exits 2.
 */
import { readFileSync, statSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { KubeConfig, type Cluster, type Context, type User } from '@kubernetes/client-node';
import { parseDocument } from 'yaml';

/** Where a Pod's service account is mounted. */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** The cluster cannot be configured; the message names what was tried and the fix. */
export class ClusterConfigError extends Error {
  override readonly name = 'ClusterConfigError';
}

/** What the lookup reads of its surroundings (tests pass their own). */
export interface ClusterConfigEnvironment {
  /** `KUBECONFIG`, `HOME`, `KUBERNETES_SERVICE_HOST` and `KUBERNETES_SERVICE_PORT`. @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Put before `SERVICE_ACCOUNT_DIR` (tests mount a service account under a temporary directory). @default '' */
  readonly serviceAccountPrefix?: string;
}

/** Where the configuration came from, for the startup log. */
export type ClusterConfigSource =
  | { readonly kind: 'flag'; readonly path: string }
  | { readonly kind: 'env'; readonly paths: readonly string[] }
  | { readonly kind: 'in-cluster' }
  | { readonly kind: 'home'; readonly path: string };

export interface ClusterConfig {
  readonly kubeConfig: KubeConfig;
  readonly source: ClusterConfigSource;
  /** The API server's URL. */
  readonly server: string;
}

/** Loads the cluster configuration of `--kubeconfig` (`flag`) or, without it, of the surroundings. */
export function loadClusterConfig(
  flag: string | undefined,
  environment: ClusterConfigEnvironment = {},
): ClusterConfig {
  const env = environment.env ?? process.env;
  if (flag !== undefined) {
    const kubeConfig = readKubeconfig(flag, `--kubeconfig ${flag}`);
    return finish(kubeConfig, { kind: 'flag', path: flag }, `--kubeconfig ${flag}`);
  }

  const listed = (env.KUBECONFIG ?? '').split(delimiter).filter((path) => path !== '');
  if (listed.length > 0) {
    // As kubectl does: files of the list that do not exist are skipped; the first to set a name wins.
    const present = listed.filter((path) => exists(path));
    const origin = `KUBECONFIG=${env.KUBECONFIG}`;
    if (present.length === 0) {
      throw new ClusterConfigError(
        listed.length === 1 ? `${origin}: the file does not exist` : `${origin}: none of these files exists`,
      );
    }
    const kubeConfig = merge(present.map((path) => readKubeconfig(path, `${origin}: ${path}`)));
    return finish(kubeConfig, { kind: 'env', paths: present }, origin);
  }

  const prefix = environment.serviceAccountPrefix ?? '';
  const serviceAccountDir = `${prefix}${SERVICE_ACCOUNT_DIR}`;
  const token = join(serviceAccountDir, 'token');
  const inPod = Boolean(env.KUBERNETES_SERVICE_HOST) && Boolean(env.KUBERNETES_SERVICE_PORT);
  if (inPod && exists(token)) {
    const kubeConfig = inClusterConfig(env, serviceAccountDir);
    return finish(kubeConfig, { kind: 'in-cluster' }, `the service account at ${serviceAccountDir}`);
  }

  const home = env.HOME || homedir();
  const homeConfig = home ? join(home, '.kube', 'config') : undefined;
  if (homeConfig !== undefined && exists(homeConfig)) {
    const kubeConfig = readKubeconfig(homeConfig, homeConfig);
    return finish(kubeConfig, { kind: 'home', path: homeConfig }, homeConfig);
  }

  const podHint = inPod
    ? ` (KUBERNETES_SERVICE_HOST is set, but there is no service account token at ${token}: is automountServiceAccountToken false?)`
    : '';
  throw new ClusterConfigError(
    `no cluster configured: pass --kubeconfig, set KUBECONFIG, or run in a Pod with a service account${podHint}` +
      (homeConfig !== undefined ? `; ${homeConfig} does not exist either` : ''),
  );
}

/**
 * What client-node's `loadFromCluster` builds, from `env` rather than `process.env`: the API server of
 * `KUBERNETES_SERVICE_HOST`/`_PORT`, the service account's CA, its token (re-read as the kubelet
 * rotates it) and namespace.
 */
function inClusterConfig(env: Readonly<Record<string, string | undefined>>, dir: string): KubeConfig {
  const host = env.KUBERNETES_SERVICE_HOST ?? '';
  const port = env.KUBERNETES_SERVICE_PORT ?? '';
  const scheme = ['80', '8080', '8001'].includes(port) ? 'http' : 'https';
  const server = `${scheme}://${isIPv6(host) ? `[${host}]` : host}:${port}`;
  let namespace: string | undefined;
  try {
    namespace = readFileSync(join(dir, 'namespace'), 'utf8').trim() || undefined;
  } catch {
    // A service account without a namespace file: requests name their namespaces anyway.
  }
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'in-cluster', server, caFile: join(dir, 'ca.crt'), skipTLSVerify: false }],
    users: [
      {
        name: 'service-account',
        authProvider: { name: 'tokenFile', config: { tokenFile: join(dir, 'token') } },
      },
    ],
    contexts: [
      {
        name: 'in-cluster',
        cluster: 'in-cluster',
        user: 'service-account',
        ...(namespace !== undefined ? { namespace } : {}),
      },
    ],
    currentContext: 'in-cluster',
  });
  return kubeConfig;
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Reads and parses one kubeconfig file; `origin` names it in errors. */
function readKubeconfig(path: string, origin: string): KubeConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ClusterConfigError(`${origin}: ${readProblem(error)}`);
  }
  const document = parseDocument(text);
  if (document.errors.length > 0) {
    const first = document.errors[0].message.split('\n')[0].replace(/:$/, '');
    throw new ClusterConfigError(`${origin}: not a kubeconfig: the file is not valid YAML (${first})`);
  }
  const content: unknown = document.toJS();
  if (content === null || typeof content !== 'object' || Array.isArray(content)) {
    throw new ClusterConfigError(
      `${origin}: not a kubeconfig: expected a YAML mapping with clusters, users, contexts and current-context`,
    );
  }
  const kubeConfig = new KubeConfig();
  try {
    kubeConfig.loadFromString(text);
  } catch (error) {
    throw new ClusterConfigError(`${origin}: not a valid kubeconfig: ${(error as Error).message}`);
  }
  // Relative certificate and key paths are relative to the file, as kubectl reads them.
  kubeConfig.makePathsAbsolute(dirname(path));
  return kubeConfig;
}

function readProblem(error: unknown): string {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return 'the file does not exist';
    case 'EACCES':
    case 'EPERM':
      return 'the file cannot be read (permission denied)';
    case 'EISDIR':
      return 'this is a directory, not a kubeconfig file';
    default:
      return `the file cannot be read (${(error as Error).message})`;
  }
}

/** The files of `KUBECONFIG` as one configuration: the first file to name an entry or a current context wins. */
function merge(configs: readonly KubeConfig[]): KubeConfig {
  if (configs.length === 1) return configs[0];
  const firstByName = <T extends { readonly name: string }>(lists: readonly (readonly T[])[]): T[] => {
    const seen = new Map<string, T>();
    for (const list of lists) for (const item of list) if (!seen.has(item.name)) seen.set(item.name, item);
    return [...seen.values()];
  };
  const merged = new KubeConfig();
  merged.loadFromOptions({
    clusters: firstByName<Cluster>(configs.map((c) => c.getClusters())),
    users: firstByName<User>(configs.map((c) => c.getUsers())),
    contexts: firstByName<Context>(configs.map((c) => c.getContexts())),
    currentContext: configs.map((c) => c.getCurrentContext()).find((name) => Boolean(name)) ?? '',
  });
  return merged;
}

/** Checks that the current context leads to a cluster (and to its user, when it names one). */
function finish(kubeConfig: KubeConfig, source: ClusterConfigSource, origin: string): ClusterConfig {
  const current = kubeConfig.getCurrentContext();
  const names = (items: readonly { name: string }[]) =>
    items.length > 0 ? items.map((item) => item.name).join(', ') : 'none';
  if (!current) {
    throw new ClusterConfigError(
      kubeConfig.getContexts().length === 0
        ? `${origin}: the kubeconfig defines no context (no cluster to talk to)`
        : `${origin}: no current-context is set; choose one of its contexts (${names(kubeConfig.getContexts())}) with kubectl config use-context`,
    );
  }
  const context = kubeConfig.getContextObject(current);
  if (!context) {
    throw new ClusterConfigError(
      `${origin}: current-context "${current}" is not one of its contexts (${names(kubeConfig.getContexts())})`,
    );
  }
  const cluster = kubeConfig.getCluster(context.cluster);
  if (!cluster) {
    throw new ClusterConfigError(
      `${origin}: context "${current}" names cluster "${context.cluster}", which is not one of its clusters (${names(kubeConfig.getClusters())})`,
    );
  }
  if (context.user && !kubeConfig.getUser(context.user)) {
    throw new ClusterConfigError(
      `${origin}: context "${current}" names user "${context.user}", which is not one of its users (${names(kubeConfig.getUsers())})`,
    );
  }
  return { kubeConfig, source, server: cluster.server };
}
