/** Starts the lab's cluster of the backend asked for (`--backend`; lab-cluster.ts says what each is). */
import type { LabBackend, LabCluster, LabClusterOptions } from './lab-cluster';
import { startTestLabCluster } from './test-backend';

export function startLabCluster(backend: LabBackend, options: LabClusterOptions): Promise<LabCluster> {
  if (backend !== 'test') return Promise.reject(new Error(`the lab has no ${backend} backend yet`));
  return startTestLabCluster(options);
}
