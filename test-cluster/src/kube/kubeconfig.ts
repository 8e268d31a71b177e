/**
 * Kubeconfigs of the real cluster: one client certificate per identity (CN = identity), over TLS to
 * the API server's self-signed serving certificate (not verified: it is made per run, on loopback).
 * Identities are members of `system:masters`, as every identity of the test cluster may do
 * everything; RBAC is exercised with ServiceAccount tokens (`serviceAccountKubeConfig`).
 */
import { KubeConfig } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import type { ClientCredential } from './pki';

const CLUSTER_NAME = 'kube';

export type KubeUser =
  | { readonly name: string; readonly credential: ClientCredential }
  | { readonly name: string; readonly token: string };

const b64 = (pem: string) => Buffer.from(pem, 'utf8').toString('base64');

/** A client-node KubeConfig for `user` on `server`, default namespace `namespace`. */
export function kubeKubeConfig(server: string, user: KubeUser, namespace = 'default'): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: CLUSTER_NAME, server, skipTLSVerify: true }],
    users: [
      'token' in user
        ? { name: user.name, token: user.token }
        : { name: user.name, certData: b64(user.credential.certificate), keyData: b64(user.credential.key) },
    ],
    contexts: [{ name: user.name, cluster: CLUSTER_NAME, user: user.name, namespace }],
    currentContext: user.name,
  });
  return kc;
}

/** The same as YAML for a `KUBECONFIG` file (kubectl, a controller process). */
export function kubeKubeconfigYaml(server: string, user: KubeUser, namespace = 'default'): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: CLUSTER_NAME, cluster: { server, 'insecure-skip-tls-verify': true } }],
    users: [
      {
        name: user.name,
        user:
          'token' in user
            ? { token: user.token }
            : {
                'client-certificate-data': b64(user.credential.certificate),
                'client-key-data': b64(user.credential.key),
              },
      },
    ],
    contexts: [{ name: user.name, context: { cluster: CLUSTER_NAME, user: user.name, namespace } }],
    'current-context': user.name,
  });
}
