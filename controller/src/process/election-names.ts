/**
 * The names of the leader election: the Lease the controllers of one provisioner compete for, the
 * namespace it lives in (the controller's own), and each candidate's identity.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { KubeConfig } from '@kubernetes/client-node';

/** The Lease name of the controllers of one provisioner (INTEROP §5). */
export function leaderElectionId(provisioner: string): string {
  return `exporter-set-controller-${provisioner}`;
}

/** `<pod name or hostname>_<random>`: unique per process, readable in `kubectl get lease`. */
export function defaultIdentity(env: NodeJS.ProcessEnv = process.env): string {
  return `${env.POD_NAME || hostname()}_${randomUUID()}`;
}

export const SERVICE_ACCOUNT_NAMESPACE_FILE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';

/**
 * The namespace the controller runs in, where its election Lease lives: `NAMESPACE` (the Deployment
 * sets it from the downward API), else the in-cluster service account's namespace, else the
 * kubeconfig context's namespace (running locally), else `default`.
 */
export function controllerNamespace(
  options: { env?: NodeJS.ProcessEnv; kubeConfig?: KubeConfig; serviceAccountNamespaceFile?: string } = {},
): string {
  const fromEnv = (options.env ?? process.env).NAMESPACE?.trim();
  if (fromEnv) return fromEnv;
  try {
    const fromFile = readFileSync(
      options.serviceAccountNamespaceFile ?? SERVICE_ACCOUNT_NAMESPACE_FILE,
      'utf8',
    ).trim();
    if (fromFile) return fromFile;
  } catch {
    // Not in a cluster.
  }
  const context = options.kubeConfig?.getContextObject(options.kubeConfig.getCurrentContext());
  return context?.namespace || 'default';
}
