/**
 * Identities of the test cluster and the kubeconfigs that carry them. Each identity has its own
 * bearer token, so the server can tell the controller's requests from a simulator's or a test's
 * (counters, fault rules, the RBAC replay). The token encodes the identity: there is nothing to
 * register, and a kubeconfig written for the lab keeps working across restarts of the cluster.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { stringify } from 'yaml';

/** The identity of `TestCluster.kubeConfig`. */
export const ADMIN_IDENTITY = 'admin';
/** The identity of requests without an `Authorization` header. */
export const ANONYMOUS_IDENTITY = 'system:anonymous';

const TOKEN_PREFIX = 'test-cluster.';

/** The bearer token of `identity`. */
export function tokenFor(identity: string): string {
  if (!identity) throw new Error('an identity must not be empty');
  return TOKEN_PREFIX + Buffer.from(identity, 'utf8').toString('base64url');
}

/** The identity a bearer token stands for; undefined when it is not a token of the test cluster. */
export function identityOfToken(token: string): string | undefined {
  if (!token.startsWith(TOKEN_PREFIX)) return undefined;
  const identity = Buffer.from(token.slice(TOKEN_PREFIX.length), 'base64url').toString('utf8');
  return identity && tokenFor(identity) === token ? identity : undefined;
}

export interface KubeconfigOptions {
  /** Server URL, `http://127.0.0.1:<port>`. */
  readonly server: string;
  /** @default 'admin' */
  readonly identity?: string;
  /**
   * Default namespace of the context.
   * @default 'default'
   */
  readonly namespace?: string;
}

const CLUSTER_NAME = 'test-cluster';

/** A client-node `KubeConfig` for one identity (`skipTLSVerify`, which client-node needs for http). */
export function makeKubeConfig(options: KubeconfigOptions): KubeConfig {
  const identity = options.identity ?? ADMIN_IDENTITY;
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: CLUSTER_NAME, server: options.server, skipTLSVerify: true }],
    users: [{ name: identity, token: tokenFor(identity) }],
    contexts: [
      { name: identity, cluster: CLUSTER_NAME, user: identity, namespace: options.namespace ?? 'default' },
    ],
    currentContext: identity,
  });
  return kc;
}

/** The same kubeconfig as YAML, for `KUBECONFIG` files (kubectl, a controller in a child process). */
export function kubeconfigYaml(options: KubeconfigOptions): string {
  const identity = options.identity ?? ADMIN_IDENTITY;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: CLUSTER_NAME, cluster: { server: options.server, 'insecure-skip-tls-verify': true } }],
    users: [{ name: identity, user: { token: tokenFor(identity) } }],
    contexts: [
      {
        name: identity,
        context: { cluster: CLUSTER_NAME, user: identity, namespace: options.namespace ?? 'default' },
      },
    ],
    'current-context': identity,
  });
}
