/** Starts the lab's cluster of the backend asked for (`--backend`; lab-cluster.ts says what each is). */
import { startKubeLabCluster } from './kube-backend';
import type { LabBackend, LabCluster, LabClusterOptions } from './lab-cluster';
import { startTestLabCluster } from './test-backend';

export function startLabCluster(backend: LabBackend, options: LabClusterOptions): Promise<LabCluster> {
  return backend === 'kube' ? startKubeLabCluster(options) : startTestLabCluster(options);
}
