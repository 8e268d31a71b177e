/**
 * What the test cluster and the real cluster have in common, and the switch between them: one suite
 * runs on either with `VIRTUAL_EXPORTERS_BACKEND=kube` (the real binaries, `npm run test:kube`) or
 * unset/`test` (the in-process test cluster, `npm test`).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { CustomResourceDefinition } from 'virtual-exporters/internal';
import { startTestCluster, type TestClusterOptions } from './cluster';
import { startKubeCluster } from './kube';

export type Backend = 'test' | 'kube';

/** The shape both clusters share. */
export interface ApiCluster {
  readonly backend: Backend;
  readonly url: string;
  readonly kubeConfig: KubeConfig;
  kubeConfigFor(identity: string, namespace?: string): KubeConfig;
  kubeconfigYaml(identity?: string, namespace?: string): string;
  installCrds(crds: readonly CustomResourceDefinition[]): void | Promise<void>;
  onStop(fn: () => void | Promise<void>): void;
  stop(): Promise<void>;
}

/** The backend chosen by VIRTUAL_EXPORTERS_BACKEND; an unknown value is an error, not a silent default. */
export function selectedBackend(env: NodeJS.ProcessEnv = process.env): Backend {
  const value = env.VIRTUAL_EXPORTERS_BACKEND ?? 'test';
  if (value === 'test' || value === 'kube') return value;
  throw new Error(`VIRTUAL_EXPORTERS_BACKEND=${value} is not a backend: use "test" (default) or "kube"`);
}

/** The options both backends take. */
export interface ApiClusterOptions {
  readonly crds?: TestClusterOptions['crds'];
  readonly namespaces?: TestClusterOptions['namespaces'];
}

/** Starts the selected backend with `options`. */
export function startCluster(
  options: ApiClusterOptions = {},
  backend = selectedBackend(),
): Promise<ApiCluster> {
  return backend === 'kube' ? startKubeCluster(options) : startTestCluster(options);
}
